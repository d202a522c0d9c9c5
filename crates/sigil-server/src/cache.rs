//! A small time-to-live cache for API answers (balances 30 s, identities 5 min). Bounded: when
//! full, expired entries are dropped first, and if none are expired, everything is.

use std::borrow::Borrow;
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
use std::hash::Hash;
use std::sync::RwLock;
use std::time::{Duration, Instant};

pub struct TtlCache<K, V> {
    ttl: Duration,
    max: usize,
    entries: RwLock<HashMap<K, (Instant, V)>>,
}

impl<K: Eq + Hash, V: Clone> TtlCache<K, V> {
    pub fn new(ttl: Duration, max: usize) -> Self {
        TtlCache { ttl, max, entries: RwLock::new(HashMap::default()) }
    }

    /// The value stored under `key` less than the TTL ago (looked up by any borrowed form of
    /// the key, e.g. `&str` for `String`, so a hit allocates nothing).
    pub fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let map = self.entries.read().unwrap_or_else(|e| e.into_inner());
        map.get(key).filter(|(at, _)| at.elapsed() < self.ttl).map(|(_, v)| v.clone())
    }

    pub fn put(&self, key: K, value: V) {
        let mut map = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if map.len() >= self.max && !map.contains_key(&key) {
            map.retain(|_, (at, _)| at.elapsed() < self.ttl);
            if map.len() >= self.max {
                map.clear();
            }
        }
        map.insert(key, (Instant::now(), value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expires_and_stays_bounded() {
        let c = TtlCache::new(Duration::from_millis(30), 2);
        c.put("a", 1);
        assert_eq!(c.get(&"a"), Some(1));
        c.put("b", 2);
        c.put("c", 3); // full, nothing expired: starts over
        assert_eq!((c.get(&"a"), c.get(&"c")), (None, Some(3)));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(c.get(&"c"), None);
        c.put("a", 4); // replaces an existing key without evicting
        c.put("a", 5);
        assert_eq!(c.get(&"a"), Some(5));
    }
}
