//! Upstream endpoints and their health. Each keeps its last 10 samples (from probes and real
//! traffic); weight = 0.7 x stability + 0.3 x latency score, and requests try upstreams in
//! order of weight.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

pub const SAMPLES: usize = 10;
const STABILITY_WEIGHT: f64 = 0.7;
const LATENCY_WEIGHT: f64 = 0.3;
/// Latency at which the latency score is one half.
const LATENCY_HALF_MS: f64 = 100.0;

#[derive(Debug, Clone, Copy)]
struct Sample {
    ok: bool,
    ms: f64,
}

pub struct Upstream {
    pub url: String,
    /// None when the URL cannot be used (the chains config refuses those; kept for tests).
    client: Option<super::client::UpstreamClient>,
    samples: Mutex<VecDeque<Sample>>,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream").field("url", &self.url).finish()
    }
}

/// Idle keep-alive connections kept per upstream: enough for the proxy's concurrency.
const MAX_IDLE: usize = 256;

impl Upstream {
    pub fn new(url: &str) -> Upstream {
        let client = super::client::UpstreamClient::new(url, MAX_IDLE, std::time::Duration::from_secs(5)).ok();
        Upstream { url: url.to_owned(), client, samples: Mutex::new(VecDeque::with_capacity(SAMPLES)) }
    }

    /// POSTs a JSON-RPC body: the status and body of the answer.
    pub async fn post(&self, body: bytes::Bytes) -> Result<(hyper::StatusCode, bytes::Bytes), super::client::ClientError> {
        match &self.client {
            Some(client) => client.post(body).await,
            None => Err(super::client::ClientError::Url(self.url.clone())),
        }
    }

    pub fn record(&self, ok: bool, latency: Duration) {
        let mut s = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        if s.len() == SAMPLES {
            s.pop_front();
        }
        s.push_back(Sample { ok, ms: latency.as_secs_f64() * 1000.0 });
    }

    /// Share of successful samples (1 when there are none yet: a new upstream gets a chance).
    pub fn stability(&self) -> f64 {
        let s = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        if s.is_empty() {
            return 1.0;
        }
        s.iter().filter(|x| x.ok).count() as f64 / s.len() as f64
    }

    /// 1 / (1 + mean successful latency / 100 ms); 0.5 with no successful sample yet.
    pub fn latency_score(&self) -> f64 {
        let s = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        let ok: Vec<f64> = s.iter().filter(|x| x.ok).map(|x| x.ms).collect();
        if ok.is_empty() {
            return if s.is_empty() { 0.5 } else { 0.0 };
        }
        let mean = ok.iter().sum::<f64>() / ok.len() as f64;
        1.0 / (1.0 + mean / LATENCY_HALF_MS)
    }

    pub fn weight(&self) -> f64 {
        STABILITY_WEIGHT * self.stability() + LATENCY_WEIGHT * self.latency_score()
    }
}

/// Indexes of `upstreams` from the highest weight down; ties keep configuration order.
pub fn by_weight(upstreams: &[std::sync::Arc<Upstream>]) -> Vec<usize> {
    if upstreams.len() == 1 {
        return vec![0];
    }
    let weights: Vec<f64> = upstreams.iter().map(|u| u.weight()).collect();
    let mut order: Vec<usize> = (0..upstreams.len()).collect();
    order.sort_by(|a, b| weights[*b].partial_cmp(&weights[*a]).unwrap_or(std::cmp::Ordering::Equal));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn weight_prefers_stable_then_fast() {
        let fast = Upstream::new("a");
        let slow = Upstream::new("b");
        let flaky = Upstream::new("c");
        for _ in 0..10 {
            fast.record(true, Duration::from_millis(5));
            slow.record(true, Duration::from_millis(300));
        }
        for i in 0..10 {
            flaky.record(i % 2 == 0, Duration::from_millis(1));
        }
        assert!((fast.stability() - 1.0).abs() < 1e-9);
        assert!((flaky.stability() - 0.5).abs() < 1e-9);
        assert!((slow.latency_score() - 0.25).abs() < 1e-9);
        assert!(fast.weight() > slow.weight() && slow.weight() > flaky.weight());
        let list = vec![Arc::new(flaky), Arc::new(slow), Arc::new(fast)];
        assert_eq!(by_weight(&list), vec![2, 1, 0]);
    }

    #[test]
    fn keeps_only_the_last_ten_samples() {
        let u = Upstream::new("a");
        for _ in 0..10 {
            u.record(false, Duration::from_millis(1));
        }
        assert_eq!(u.stability(), 0.0);
        for _ in 0..10 {
            u.record(true, Duration::from_millis(1));
        }
        assert_eq!(u.stability(), 1.0);
        assert_eq!(Upstream::new("new").weight(), 0.7 + 0.3 * 0.5);
    }
}
