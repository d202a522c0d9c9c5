//! Request counts and latencies per route, rendered as Prometheus text on GET /metrics.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;

/// Histogram bucket bounds, seconds.
const BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

/// Counts and latency of one route, by method (and status).
#[derive(Default)]
struct RouteStats {
    requests: BTreeMap<(&'static str, u16), u64>,
    latency: BTreeMap<&'static str, Histogram>,
}

/// Kept by route template; recording allocates nothing once a route has been seen.
#[derive(Default)]
pub struct Metrics {
    routes: Mutex<BTreeMap<String, RouteStats>>,
}

/// The method as a label; anything unusual is counted as OTHER.
fn method_label(method: &str) -> &'static str {
    ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"].into_iter().find(|m| *m == method).unwrap_or("OTHER")
}

impl Metrics {
    pub fn record(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let method = method_label(method);
        let mut routes = self.routes.lock().unwrap_or_else(|e| e.into_inner());
        if !routes.contains_key(route) {
            routes.insert(route.to_owned(), RouteStats::default());
        }
        let stats = routes.get_mut(route).expect("inserted above");
        *stats.requests.entry((method, status)).or_default() += 1;
        let h = stats.latency.entry(method).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                h.counts[i] += 1;
            }
        }
        h.sum += seconds;
        h.count += 1;
    }

    pub fn render(&self) -> String {
        let routes = self.routes.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = String::new();
        out.push_str("# HELP sigil_http_requests_total HTTP requests by method, route and status.\n");
        out.push_str("# TYPE sigil_http_requests_total counter\n");
        for (route, stats) in routes.iter() {
            for ((method, status), n) in &stats.requests {
                let _ = writeln!(out, "sigil_http_requests_total{{method=\"{method}\",route=\"{}\",status=\"{status}\"}} {n}", escape(route));
            }
        }
        out.push_str("# HELP sigil_http_request_duration_seconds HTTP request latency by method and route.\n");
        out.push_str("# TYPE sigil_http_request_duration_seconds histogram\n");
        for (route, stats) in routes.iter() {
            for (method, h) in &stats.latency {
                let labels = format!("method=\"{method}\",route=\"{}\"", escape(route));
                for (i, bound) in BUCKETS.iter().enumerate() {
                    let _ = writeln!(out, "sigil_http_request_duration_seconds_bucket{{{labels},le=\"{bound}\"}} {}", h.counts[i]);
                }
                let _ = writeln!(out, "sigil_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {}", h.count);
                let _ = writeln!(out, "sigil_http_request_duration_seconds_sum{{{labels}}} {}", h.sum);
                let _ = writeln!(out, "sigil_http_request_duration_seconds_count{{{labels}}} {}", h.count);
            }
        }
        out
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Route-level middleware: the matched path template is the route label.
pub async fn track(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    // MatchedPath is an Arc<str>: cloning it does not copy the path.
    let route = req.extensions().get::<MatchedPath>().cloned();
    let res = next.run(req).await;
    let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
    state.metrics.record(method.as_str(), route, res.status().as_u16(), start.elapsed().as_secs_f64());
    res
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
