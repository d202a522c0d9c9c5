//! The floor with the limits kept, for make bench-rpc: floor_proxy plus what issue 29 requires
//! the JSON-RPC proxy to keep, built from the proxy's own pieces: a time limit on reading a
//! request's head, on the whole request and on each upstream call, the chainId check, the
//! JSON-RPC parse and the method allowlist, and the per-project rate limiter. Nothing else the
//! proxy does (the project gate and CORS, request ids, metrics, sharing identical calls, choosing
//! and failing over upstreams). What it costs over floor_proxy is what those limits cost here.
//!
//! Usage: floor_guarded <listen addr> <upstream url>

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper_util::rt::{TokioIo, TokioTimer};
use sigil_core::caip::Namespace;
use sigil_server::limits::PerSecond;
use sigil_server::rpc::client::UpstreamClient;
use sigil_server::rpc::jsonrpc::{self, Parsed};

/// The proxy's defaults: spec section 9 and `sigil serve`'s server settings.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(10);
const CHAIN: &str = "eip155:31337";

struct Guards {
    upstream: UpstreamClient,
    allowed: HashSet<&'static str>,
    limiter: PerSecond,
}

fn answer(status: u16, body: bytes::Bytes) -> hyper::Response<Full<bytes::Bytes>> {
    let mut res = hyper::Response::new(Full::new(body));
    *res.status_mut() = hyper::StatusCode::from_u16(status).expect("a status");
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

async fn forward(guards: &Guards, req: hyper::Request<Incoming>) -> Result<hyper::Response<Full<bytes::Bytes>>, hyper::Error> {
    let chain_ok = req.uri().query().and_then(|q| sigil_server::query::param(q, "chainId")).is_some_and(|c| c == CHAIN);
    let body = req.into_body().collect().await?.to_bytes();
    let allowed = match jsonrpc::parse(&body) {
        Ok(Parsed::Single(Ok(call))) => guards.allowed.contains(call.method.as_str()),
        _ => false,
    };
    if !chain_ok || !allowed {
        return Ok(answer(400, bytes::Bytes::from_static(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"refused"}}"#)));
    }
    if guards.limiter.take("the-bench-project", 1, Instant::now()).is_err() {
        return Ok(answer(429, bytes::Bytes::from_static(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"Rate limit exceeded"}}"#)));
    }
    Ok(match tokio::time::timeout(UPSTREAM_TIMEOUT, guards.upstream.post(body)).await {
        Ok(Ok((_, bytes))) => answer(200, bytes),
        _ => answer(503, bytes::Bytes::from_static(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"unavailable"}}"#)),
    })
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let listener = tokio::net::TcpListener::bind(&args[1]).await.expect("listen");
    let guards = Arc::new(Guards {
        upstream: UpstreamClient::new(&args[2], 256, Duration::from_secs(5)).expect("upstream URL"),
        allowed: sigil_core::rpc_methods::default_allowed(Namespace::Eip155).iter().copied().collect(),
        limiter: PerSecond::new(1_000_000),
    });
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let _ = stream.set_nodelay(true);
        let guards = guards.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                let guards = guards.clone();
                async move {
                    match tokio::time::timeout(REQUEST_TIMEOUT, forward(&guards, req)).await {
                        Ok(res) => res,
                        Err(_) => Ok(answer(408, bytes::Bytes::from_static(br#"{"error":"Request timed out"}"#))),
                    }
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
