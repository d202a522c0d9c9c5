//! Requests per second per key (a project, an embedded-wallet user, an address): `rate` a second,
//! bursting to `rate`, as a generic cell rate algorithm (GCRA). Each key's state is one atomic
//! (its theoretical arrival time), so requests under the same key never wait on a lock.

type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;
use std::time::Instant;

pub struct PerSecond {
    /// Nanoseconds one request "costs".
    interval: u64,
    /// How far ahead of now the theoretical arrival time may run: the burst.
    burst: u64,
    started: Instant,
    tat: RwLock<HashMap<String, AtomicU64>>,
}

impl PerSecond {
    pub fn new(rate: u32) -> PerSecond {
        let interval = 1_000_000_000 / u64::from(rate.max(1));
        PerSecond { interval, burst: interval * u64::from(rate.max(1)), started: Instant::now(), tat: Default::default() }
    }

    /// The most requests one take can ever be granted.
    pub fn burst(&self) -> u64 {
        self.burst / self.interval
    }

    /// Takes `n` requests' worth for `key`, or returns the whole seconds to wait.
    pub fn take(&self, key: &str, n: usize, now: Instant) -> Result<(), u64> {
        let now = now.saturating_duration_since(self.started).as_nanos() as u64;
        let cost = self.interval.saturating_mul(n as u64);
        if let Some(tat) = self.tat.read().unwrap_or_else(|e| e.into_inner()).get(key) {
            return self.take_from(tat, now, cost);
        }
        let mut map = self.tat.write().unwrap_or_else(|e| e.into_inner());
        let tat = map.entry(key.to_owned()).or_insert_with(|| AtomicU64::new(0));
        self.take_from(tat, now, cost)
    }

    fn take_from(&self, tat: &AtomicU64, now: u64, cost: u64) -> Result<(), u64> {
        let mut current = tat.load(Ordering::Acquire);
        loop {
            let next = current.max(now) + cost;
            if next > now + self.burst {
                let wait = next - (now + self.burst);
                return Err(wait.div_ceil(1_000_000_000).max(1));
            }
            match tat.compare_exchange_weak(current, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Ok(()),
                Err(seen) => current = seen,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn refills_over_time() {
        let b = PerSecond::new(10);
        let t = Instant::now();
        assert_eq!(b.take("p", 10, t), Ok(()));
        assert_eq!(b.take("p", 1, t), Err(1));
        assert_eq!(b.take("q", 1, t), Ok(()));
        assert_eq!(b.take("p", 5, t + Duration::from_millis(500)), Ok(()));
        assert_eq!(b.take("p", 1, t + Duration::from_millis(500)), Err(1));
        // A batch larger than the burst waits for the whole of it.
        assert_eq!(b.take("r", 25, t), Err(2));
    }
}
