//! Per-project token buckets for the RPC proxy: `rate` requests a second, bursting to `rate`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

pub struct TokenBuckets {
    rate: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl TokenBuckets {
    pub fn new(rate: u32) -> TokenBuckets {
        TokenBuckets { rate: f64::from(rate.max(1)), buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes `n` tokens for `key`, or returns the whole seconds to wait.
    pub fn take(&self, key: &str, n: usize, now: Instant) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if !buckets.contains_key(key) {
            buckets.insert(key.to_owned(), (self.rate, now));
        }
        let (tokens, last) = buckets.get_mut(key).expect("inserted above");
        *tokens = (*tokens + now.saturating_duration_since(*last).as_secs_f64() * self.rate).min(self.rate);
        *last = now;
        let n = n as f64;
        if *tokens >= n {
            *tokens -= n;
            Ok(())
        } else {
            Err((((n - *tokens) / self.rate).ceil() as u64).max(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn refills_over_time() {
        let b = TokenBuckets::new(10);
        let t = Instant::now();
        assert_eq!(b.take("p", 10, t), Ok(()));
        assert_eq!(b.take("p", 1, t), Err(1));
        assert_eq!(b.take("q", 1, t), Ok(()));
        assert_eq!(b.take("p", 5, t + Duration::from_millis(500)), Ok(()));
        assert_eq!(b.take("p", 1, t + Duration::from_millis(500)), Err(1));
    }
}
