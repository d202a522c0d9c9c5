//! The floors under the JSON-RPC proxy's cost, for make bench-rpc.
//!
//! Bare: the smallest HTTP proxy the same libraries make (hyper server, the proxy's own upstream
//! client), forwarding each body as it is, with no parsing, routing, limits or checks. What it
//! costs over calling the node directly is the cost of the extra hop itself on this machine.
//!
//! Guarded: the same, plus what issue 29 requires the proxy to keep, from the proxy's own pieces:
//! a time limit on reading a request's head, on the whole request and on each upstream call, the
//! chainId check, the JSON-RPC parse and the method allowlist, and the per-project rate limiter.
//! Nothing else the proxy does (the project gate and CORS, request ids, metrics, sharing
//! identical calls, choosing and failing over upstreams). What it costs over the bare floor is
//! what those limits cost here.
//!
//! Usage: floor_proxy <listen addr> <upstream url> [guarded]

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::StatusCode;
use hyper_util::rt::{TokioIo, TokioTimer};
use sigil_core::caip::Namespace;
use sigil_server::config::{Config, ServeArgs};
use sigil_server::limits::PerSecond;
use sigil_server::rpc::client::UpstreamClient;
use sigil_server::rpc::jsonrpc::{self, Parsed, Reply};

const CHAIN: &str = "eip155:31337";

/// The limits of the guarded floor.
struct Guards {
    allowed: HashSet<&'static str>,
    limiter: PerSecond,
    header_timeout: Duration,
    request_timeout: Duration,
    upstream_timeout: Duration,
}

impl Guards {
    /// The limits `sigil serve` runs the proxy with: its configuration (the defaults, and the
    /// same environment as the proxy the bench measures).
    fn of_the_server() -> Guards {
        let config = Config::from_args(&ServeArgs::default()).expect("the server's configuration");
        Guards {
            allowed: sigil_core::rpc_methods::default_allowed(Namespace::Eip155).iter().copied().collect(),
            limiter: PerSecond::new(1_000_000),
            header_timeout: config.settings.server.header_timeout,
            request_timeout: config.settings.server.request_timeout,
            upstream_timeout: config.rpc.timeout,
        }
    }
}

/// A JSON-RPC error answer, as the proxy frames one for a request it could not read the id of.
fn refusal(status: StatusCode, code: i64, message: &str) -> hyper::Response<Full<Bytes>> {
    answer(status, Bytes::from(Reply::error(code, message).to_json("null")))
}

fn answer(status: StatusCode, body: Bytes) -> hyper::Response<Full<Bytes>> {
    let mut res = hyper::Response::new(Full::new(body));
    *res.status_mut() = status;
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

async fn forward(upstream: &UpstreamClient, guards: Option<&Guards>, req: hyper::Request<Incoming>) -> Result<hyper::Response<Full<Bytes>>, hyper::Error> {
    let Some(guards) = guards else {
        let body = req.into_body().collect().await?.to_bytes();
        return Ok(match upstream.post(body).await {
            Ok((_, bytes)) => answer(StatusCode::OK, bytes),
            Err(_) => answer(StatusCode::OK, Bytes::from_static(b"{}")),
        });
    };
    let chain_ok = req.uri().query().and_then(|q| sigil_server::query::param(q, "chainId")).is_some_and(|c| c == CHAIN);
    let body = req.into_body().collect().await?.to_bytes();
    let allowed = match jsonrpc::parse(&body) {
        Ok(Parsed::Single(Ok(call))) => guards.allowed.contains(call.method.as_str()),
        _ => false,
    };
    if !chain_ok || !allowed {
        return Ok(refusal(StatusCode::BAD_REQUEST, jsonrpc::INVALID_PARAMS, "refused"));
    }
    if guards.limiter.take("the-bench-project", 1, Instant::now()).is_err() {
        return Ok(refusal(StatusCode::TOO_MANY_REQUESTS, jsonrpc::LIMIT_EXCEEDED, "Rate limit exceeded"));
    }
    Ok(match tokio::time::timeout(guards.upstream_timeout, upstream.post(body)).await {
        Ok(Ok((_, bytes))) => answer(StatusCode::OK, bytes),
        _ => refusal(StatusCode::SERVICE_UNAVAILABLE, jsonrpc::INTERNAL_ERROR, "unavailable"),
    })
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let listener = tokio::net::TcpListener::bind(&args[1]).await.expect("listen");
    let upstream = Arc::new(UpstreamClient::new(&args[2], 256, Duration::from_secs(5)).expect("upstream URL"));
    let guards = (args.get(3).map(String::as_str) == Some("guarded")).then(|| Arc::new(Guards::of_the_server()));
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let _ = stream.set_nodelay(true);
        let (upstream, guards) = (upstream.clone(), guards.clone());
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            if let Some(guards) = &guards {
                http.timer(TokioTimer::new()).header_read_timeout(guards.header_timeout);
            }
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                let (upstream, guards) = (upstream.clone(), guards.clone());
                async move {
                    let Some(guards) = guards else { return forward(&upstream, None, req).await };
                    match tokio::time::timeout(guards.request_timeout, forward(&upstream, Some(&guards), req)).await {
                        Ok(res) => res,
                        Err(_) => Ok(answer(StatusCode::REQUEST_TIMEOUT, Bytes::from_static(br#"{"error":"Request timed out"}"#))),
                    }
                }
            });
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
        });
    }
}
