//! Events per minute per (scope, client address, kind), as a sliding window of their times.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    Any,
    Error,
    /// A stored row other than an event (sign-in nonces and sessions).
    Write,
    /// A try of an emailed code or link.
    CodeTry,
}

const WINDOW: Duration = Duration::from_secs(60);
/// Above this many keys, expired ones are swept so memory stays bounded.
const SWEEP_AT: usize = 10_000;

#[derive(Default)]
pub struct PerMinute {
    hits: Mutex<HashMap<(String, IpAddr, EventKind), VecDeque<Instant>>>,
}

impl PerMinute {
    /// Records a hit if under `limit` per minute; otherwise returns the seconds until one frees up.
    pub fn check(&self, project: &str, addr: IpAddr, kind: EventKind, limit: u32, now: Instant) -> Result<(), u64> {
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if hits.len() > SWEEP_AT {
            hits.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        let queue = hits.entry((project.to_owned(), addr, kind)).or_default();
        while queue.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            queue.pop_front();
        }
        if queue.len() >= limit as usize {
            let oldest = *queue.front().expect("non-empty at limit");
            let wait = WINDOW.saturating_sub(now.duration_since(oldest));
            return Err(wait.as_secs() + u64::from(wait.subsec_nanos() > 0));
        }
        queue.push_back(now);
        Ok(())
    }

    /// Gives back a hit recorded by `check` (used when a later check refuses the same event).
    pub fn undo(&self, project: &str, addr: IpAddr, kind: EventKind) {
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = hits.get_mut(&(project.to_owned(), addr, kind)) {
            q.pop_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_per_key_and_frees_after_a_minute() {
        let l = PerMinute::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let other: IpAddr = "127.0.0.2".parse().unwrap();
        let t0 = Instant::now();
        for i in 0..5 {
            assert_eq!(l.check("p", ip, EventKind::Error, 5, t0 + Duration::from_secs(i)), Ok(()));
        }
        assert_eq!(l.check("p", ip, EventKind::Error, 5, t0 + Duration::from_secs(10)), Err(50));
        assert_eq!(l.check("p", other, EventKind::Error, 5, t0 + Duration::from_secs(10)), Ok(()));
        assert_eq!(l.check("q", ip, EventKind::Error, 5, t0 + Duration::from_secs(10)), Ok(()));
        assert_eq!(l.check("p", ip, EventKind::Any, 5, t0 + Duration::from_secs(10)), Ok(()));
        assert_eq!(l.check("p", ip, EventKind::Error, 5, t0 + Duration::from_secs(60)), Ok(()));
    }
}
