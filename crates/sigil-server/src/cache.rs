//! A time-to-live cache for API answers (balances 30 s, identities 5 min), bounded: when full,
//! it evicts the entries least likely to be asked for again (moka's TinyLFU), never everything.

use std::borrow::Borrow;
use std::hash::Hash;
use std::time::Duration;

pub struct TtlCache<K, V> {
    entries: moka::sync::Cache<K, V, foldhash::fast::RandomState>,
}

impl<K: Eq + Hash + Send + Sync + 'static, V: Clone + Send + Sync + 'static> TtlCache<K, V> {
    pub fn new(ttl: Duration, max: usize) -> Self {
        TtlCache { entries: moka::sync::Cache::builder().max_capacity(max as u64).time_to_live(ttl).build_with_hasher(Default::default()) }
    }

    /// The value stored under `key` less than the TTL ago (looked up by any borrowed form of
    /// the key, e.g. `&str` for `String`, so a hit allocates nothing).
    pub fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.entries.get(key)
    }

    pub fn put(&self, key: K, value: V) {
        self.entries.insert(key, value);
    }

    /// Drops every entry (what they were computed from changed).
    pub fn clear(&self) {
        self.entries.invalidate_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expires_and_stays_bounded_by_eviction() {
        let c = TtlCache::new(Duration::from_millis(200), 100);
        c.put("a", 1);
        assert_eq!(c.get(&"a"), Some(1));
        c.put("a", 5); // replaces
        assert_eq!(c.get(&"a"), Some(5));
        std::thread::sleep(Duration::from_millis(250));
        assert_eq!(c.get(&"a"), None, "expired");
        // Far more keys than fit: it holds at most its bound, and keeps entries (never empties).
        let c: TtlCache<u32, u32> = TtlCache::new(Duration::from_secs(60), 100);
        for n in 0..10_000 {
            c.put(n, n);
            let _ = c.get(&n);
        }
        c.entries.run_pending_tasks();
        let held = c.entries.entry_count();
        assert!((1..=100).contains(&held), "{held}");
    }
}
