//! Request counts and latencies per route, rendered as Prometheus text on GET /metrics.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{OnceLock, RwLock};
use std::time::Instant;

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::{MatchedPath, Request};
use axum::response::Response;
use futures::future::BoxFuture;

/// Histogram bucket bounds, seconds.
const BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

const METHODS: [&str; 8] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "OTHER"];
/// HTTP status codes are 100..=999.
const STATUS_MIN: u16 = 100;
const STATUS_SLOTS: usize = 900;

/// Counts by status and the latency histogram of one route and method. Atomics: requests
/// record without taking a lock (a shared lock here cost the proxy ~20% of its throughput).
struct MethodStats {
    statuses: Box<[AtomicU64]>,
    /// Per bucket, the values above the bound below it (not cumulative).
    buckets: [AtomicU64; BUCKETS.len()],
    sum_nanos: AtomicU64,
    count: AtomicU64,
}

impl MethodStats {
    fn new() -> MethodStats {
        MethodStats {
            statuses: (0..STATUS_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            buckets: Default::default(),
            sum_nanos: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }
}

#[derive(Default)]
struct RouteStats {
    by_method: [OnceLock<MethodStats>; METHODS.len()],
}

impl RouteStats {
    fn record(&self, method: usize, status: u16, seconds: f64) {
        let m = self.by_method[method].get_or_init(MethodStats::new);
        let slot = usize::from(status.clamp(STATUS_MIN, STATUS_MIN + STATUS_SLOTS as u16 - 1) - STATUS_MIN);
        m.statuses[slot].fetch_add(1, Relaxed);
        // Only the smallest bucket that holds the value counts it here (one atomic write rather
        // than one per larger bucket); the rendering adds them up as Prometheus wants.
        if let Some(i) = BUCKETS.iter().position(|bound| seconds <= *bound) {
            m.buckets[i].fetch_add(1, Relaxed);
        }
        m.sum_nanos.fetch_add((seconds * 1e9) as u64, Relaxed);
        m.count.fetch_add(1, Relaxed);
    }
}

/// Kept by route template; a route's first request adds it, every later one only reads.
#[derive(Default)]
pub struct Metrics {
    routes: RwLock<BTreeMap<String, RouteStats>>,
}

/// The method's label index; anything unusual is counted as OTHER.
fn method_index(method: &str) -> usize {
    METHODS.iter().position(|m| *m == method).unwrap_or(METHODS.len() - 1)
}

impl Metrics {
    pub fn record(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let method = method_index(method);
        if let Some(stats) = self.routes.read().unwrap_or_else(|e| e.into_inner()).get(route) {
            return stats.record(method, status, seconds);
        }
        let mut routes = self.routes.write().unwrap_or_else(|e| e.into_inner());
        routes.entry(route.to_owned()).or_default().record(method, status, seconds);
    }

    pub fn render(&self) -> String {
        let routes = self.routes.read().unwrap_or_else(|e| e.into_inner());
        let each = || routes.iter().flat_map(|(route, stats)| stats.by_method.iter().zip(METHODS).filter_map(move |(m, name)| Some((route, name, m.get()?))));
        let mut out = String::new();
        out.push_str("# HELP sigil_http_requests_total HTTP requests by method, route and status.\n");
        out.push_str("# TYPE sigil_http_requests_total counter\n");
        for (route, method, m) in each() {
            for (slot, n) in m.statuses.iter().enumerate() {
                let n = n.load(Relaxed);
                if n > 0 {
                    let status = STATUS_MIN as usize + slot;
                    let _ = writeln!(out, "sigil_http_requests_total{{method=\"{method}\",route=\"{}\",status=\"{status}\"}} {n}", escape(route));
                }
            }
        }
        out.push_str("# HELP sigil_http_request_duration_seconds HTTP request latency by method and route.\n");
        out.push_str("# TYPE sigil_http_request_duration_seconds histogram\n");
        for (route, method, m) in each() {
            let labels = format!("method=\"{method}\",route=\"{}\"", escape(route));
            let mut cumulative = 0;
            for (i, bound) in BUCKETS.iter().enumerate() {
                cumulative += m.buckets[i].load(Relaxed);
                let _ = writeln!(out, "sigil_http_request_duration_seconds_bucket{{{labels},le=\"{bound}\"}} {cumulative}");
            }
            let count = m.count.load(Relaxed);
            let _ = writeln!(out, "sigil_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {count}");
            let _ = writeln!(out, "sigil_http_request_duration_seconds_sum{{{labels}}} {}", m.sum_nanos.load(Relaxed) as f64 / 1e9);
            let _ = writeln!(out, "sigil_http_request_duration_seconds_count{{{labels}}} {count}");
        }
        out
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Route-level layer: counts each request under its matched path template. A hand-written
/// service rather than `from_fn`, which would box and clone a service on every request.
#[derive(Clone)]
pub struct TrackLayer(pub Arc<Metrics>);

impl<S> tower::Layer<S> for TrackLayer {
    type Service = Track<S>;
    fn layer(&self, inner: S) -> Track<S> {
        Track { inner, metrics: self.0.clone() }
    }
}

#[derive(Clone)]
pub struct Track<S> {
    inner: S,
    metrics: Arc<Metrics>,
}

impl<S> tower::Service<Request> for Track<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let start = Instant::now();
        let method = req.method().clone();
        // MatchedPath is an Arc<str>: cloning it does not copy the path.
        let route = req.extensions().get::<MatchedPath>().cloned();
        let response = self.inner.call(req);
        let metrics = self.metrics.clone();
        Box::pin(async move {
            let Ok(res) = response.await;
            let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
            metrics.record(method.as_str(), route, res.status().as_u16(), start.elapsed().as_secs_f64());
            Ok(res)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counts_and_buckets() {
        let m = Metrics::default();
        m.record("GET", "/health", 200, 0.0007);
        m.record("GET", "/health", 200, 0.02);
        let text = m.render();
        assert!(text.contains("sigil_http_requests_total{method=\"GET\",route=\"/health\",status=\"200\"} 2"));
        assert!(text.contains("sigil_http_request_duration_seconds_bucket{method=\"GET\",route=\"/health\",le=\"0.001\"} 1"));
        assert!(text.contains("sigil_http_request_duration_seconds_bucket{method=\"GET\",route=\"/health\",le=\"0.025\"} 2"));
        assert!(text.contains("sigil_http_request_duration_seconds_count{method=\"GET\",route=\"/health\"} 2"));
        m.record("BREW", "/health", 418, 0.001);
        assert!(m.render().contains("sigil_http_requests_total{method=\"OTHER\",route=\"/health\",status=\"418\"} 1"));
    }
}
