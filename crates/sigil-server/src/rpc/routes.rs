//! POST /v1 and POST /v1/ (?chainId=eip155:N&projectId=...)

use std::sync::Arc;
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Extension;

use super::jsonrpc::{self, Answer, Call, Parsed, Reply};
use crate::projects::Project;
use crate::query::text;
use crate::AppState;

/// The proxy's query parameters (besides projectId).
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProxyQuery {
    /// CAIP-2 chain id, e.g. eip155:1.
    #[serde(rename = "chainId")]
    #[param(rename = "chainId", required = true)]
    pub chain_id: Option<String>,
}

impl ProxyQuery {
    /// Read on every proxied call: a scan for its one parameter rather than a deserializer.
    pub fn read(query: &str) -> ProxyQuery {
        ProxyQuery { chain_id: crate::query::param(query, "chainId").map(std::borrow::Cow::into_owned) }
    }
}

fn json(status: StatusCode, body: impl Into<Body>) -> Response {
    let mut res = Response::new(body.into());
    *res.status_mut() = status;
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

/// Forwards a JSON-RPC request or batch (at most 1000) to the chain's upstreams.
#[utoipa::path(post, path = "/v1", tag = "blockchain",
    params(ProxyQuery, crate::query::ProjectQuery),
    request_body(content = Object, description = "JSON-RPC 2.0 request or batch", content_type = "application/json"),
    responses((status = 200, description = "JSON-RPC response or batch of responses", content_type = "application/json"),
        (status = 400, description = "Parse error (-32700), invalid request (-32600) or unsupported chain (-32602)"),
        (status = 413, description = "Body larger than 8 MiB (-32600)"),
        (status = 403, body = crate::error::ErrorBody), (status = 429, description = "Rate limit exceeded (-32005); see Retry-After"),
        (status = 503, description = "Every upstream failed")))]
pub async fn proxy(State(state): State<AppState>, Extension(project): Extension<Arc<Project>>, uri: Uri, body: Body) -> Response {
    // The query is read here rather than by an extractor: its errors are JSON-RPC errors.
    let bad = |code, msg: &str| json(StatusCode::BAD_REQUEST, Reply::error(code, msg).to_json("null"));
    // Read here, with the proxy's own limit (a full batch is larger than other bodies), rather
    // than through one more route layer on every call.
    let limit = state.config.settings.rpc.body_limit;
    let Ok(body) = axum::body::to_bytes(body, limit).await else {
        let message = sigil_core::errors::body_too_large(limit);
        return json(StatusCode::PAYLOAD_TOO_LARGE, Reply::error(jsonrpc::INVALID_REQUEST, &message).to_json("null"));
    };
    let query = ProxyQuery::read(uri.query().unwrap_or(""));
    let Some(chain) = text(&query.chain_id) else {
        return bad(jsonrpc::INVALID_PARAMS, "The chainId query parameter is required");
    };
    if !sigil_core::caip::is_chain_id(chain) {
        return bad(jsonrpc::INVALID_PARAMS, &format!("'{chain}' is not a CAIP-2 chain id"));
    }
    if state.rpc.chains().get(chain).is_none() {
        return bad(jsonrpc::INVALID_PARAMS, &format!("Unsupported chainId {chain}"));
    }
    let parsed = match jsonrpc::parse(&body) {
        Ok(p) => p,
        Err(reply) => return json(StatusCode::BAD_REQUEST, reply.to_json("null")),
    };
    let count = match &parsed {
        Parsed::Single(_) => 1,
        Parsed::Batch(items) if items.is_empty() => return bad(jsonrpc::INVALID_REQUEST, "Invalid request: empty batch"),
        Parsed::Batch(items) if items.len() > state.rpc.settings.max_batch => {
            return bad(jsonrpc::INVALID_REQUEST, &format!("Invalid request: a batch holds at most {} requests", state.rpc.settings.max_batch))
        }
        Parsed::Batch(items) => items.len(),
    };
    // A batch the limit could never grant is refused as such, not with a Retry-After that
    // would never come true.
    if count as u64 > state.rpc.limiter.burst() {
        let message = format!("A batch of {count} calls is more than this project may send per second ({}); split it", state.rpc.limiter.burst());
        return json(StatusCode::BAD_REQUEST, Reply::error(jsonrpc::LIMIT_EXCEEDED, &message).to_json("null"));
    }
    if let Err(wait) = state.rpc.limiter.take(&project.id, count, Instant::now()) {
        let mut res = json(StatusCode::TOO_MANY_REQUESTS, Reply::error(jsonrpc::LIMIT_EXCEEDED, "Rate limit exceeded").to_json("null"));
        res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait));
        return res;
    }

    match parsed {
        // Only the chain's allowed methods go upstream; anything else is answered here, and a
        // notification (no id) is answered with nothing at all.
        Parsed::Single(Ok(call)) if !state.rpc.allows(chain, &call.method) => match call.notification {
            true => StatusCode::NO_CONTENT.into_response(),
            false => json(StatusCode::OK, not_allowed(&call.method).to_json(&call.id)),
        },
        Parsed::Single(Err((id, reply))) => json(StatusCode::BAD_REQUEST, reply.to_json(&id)),
        Parsed::Single(Ok(call)) => {
            // A call with an id of its own goes upstream as the client sent it, when nothing in
            // it needs rewriting; its answer then comes back as the upstream sent it.
            let exact = (call.exact && !call.notification && call.id != "null").then_some((&body, call.id.as_str()));
            match state.rpc.forward(chain, &call.method, call.params.as_deref(), exact).await {
                _ if call.notification => StatusCode::NO_CONTENT.into_response(),
                Ok(Answer::Raw(bytes)) => json(StatusCode::OK, bytes),
                Ok(Answer::Reply(reply)) => json(StatusCode::OK, reply.to_json(&call.id)),
                Err(f) => unavailable(f, &call.id),
            }
        }
        Parsed::Batch(items) => {
            let items = items
                .into_iter()
                .filter_map(|item| match item {
                    Ok(call) if !state.rpc.allows(chain, &call.method) => (!call.notification).then(|| Err((call.id, not_allowed(&call.method)))),
                    item => Some(item),
                })
                .collect();
            batch(&state, chain, items).await
        }
    }
}

/// The documented 503 when every upstream failed, with the failure for the edge's log.
fn unavailable(failure: super::Failure, id: &str) -> Response {
    let mut res = json(StatusCode::SERVICE_UNAVAILABLE, Reply::error(jsonrpc::INTERNAL_ERROR, &failure.to_string()).to_json(id));
    res.extensions_mut().insert(crate::error::LoggedCause(failure.to_string()));
    res
}

fn not_allowed(method: &str) -> Reply {
    Reply::error(jsonrpc::METHOD_NOT_FOUND, &sigil_core::errors::rpc_method_not_allowed(method))
}

async fn batch(state: &AppState, chain: &str, items: Vec<jsonrpc::Item>) -> Response {
    let calls: Vec<&Call> = items.iter().filter_map(|i| i.as_ref().ok()).collect();
    let mut status = StatusCode::OK;
    let mut replies = if calls.is_empty() {
        Vec::new()
    } else {
        match state.rpc.send(chain, Bytes::from(jsonrpc::batch_body(&calls))).await {
            Ok(bytes) => jsonrpc::batch_replies(&bytes, calls.len()),
            Err(f) => {
                status = StatusCode::SERVICE_UNAVAILABLE;
                vec![Reply::error(jsonrpc::INTERNAL_ERROR, &f.to_string()); calls.len()]
            }
        }
    }
    .into_iter();
    let out: Vec<String> = items
        .iter()
        .filter_map(|item| match item {
            Ok(call) => {
                let reply = replies.next().expect("one reply per call");
                (!call.notification).then(|| reply.to_json(&call.id))
            }
            Err((id, reply)) => Some(reply.to_json(id)),
        })
        .collect();
    // A batch of notifications only is answered with nothing (JSON-RPC 2.0, section 6).
    if out.is_empty() {
        return StatusCode::NO_CONTENT.into_response();
    }
    json(status, format!("[{}]", out.join(",")))
}

/// The same proxy, as clients that append a slash call it (/v1/?chainId=...).
#[utoipa::path(post, path = "/v1/", tag = "blockchain",
    params(ProxyQuery, crate::query::ProjectQuery),
    request_body(content = Object, description = "JSON-RPC 2.0 request or batch", content_type = "application/json"),
    responses((status = 200, description = "JSON-RPC response or batch", content_type = "application/json"), (status = 400), (status = 403), (status = 413), (status = 429), (status = 503)))]
pub async fn proxy_slash(state: State<AppState>, project: Extension<Arc<Project>>, uri: Uri, body: Body) -> Response {
    proxy(state, project, uri, body).await
}

/// POST /v1 and /v1/ served ahead of the router whenever the project gate can decide from its
/// cache: the same gate (project, origin, CORS), handler and metrics as through the router,
/// without its per-request work (the path match, a boxed service clone and a boxed future for
/// each route layer, the extractors). Anything else, or a project the gate must look up, goes
/// on to the router.
#[derive(Clone)]
pub struct Direct<S> {
    pub state: AppState,
    pub inner: S,
}

impl<S> tower::Service<axum::extract::Request> for Direct<S>
where
    S: tower::Service<axum::extract::Request, Response = Response, Error = std::convert::Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = futures::future::Either<futures::future::BoxFuture<'static, Result<Response, std::convert::Infallible>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: axum::extract::Request) -> Self::Future {
        use crate::projects::gate::{self, Cached};
        use futures::future::Either;
        let route = match (req.method() == axum::http::Method::POST, req.uri().path()) {
            (true, "/v1") => "/v1",
            (true, "/v1/") => "/v1/",
            _ => return Either::Right(self.inner.call(req)),
        };
        let start = Instant::now();
        let state = self.state.clone();
        let record = move |state: &AppState, res: &Response| state.metrics.record("POST", route, res.status().as_u16(), start.elapsed().as_secs_f64());
        match gate::cached(&state, req) {
            Cached::Undecided(req) => Either::Right(self.inner.call(req)),
            Cached::Answered(res) => {
                record(&state, &res);
                Either::Left(Box::pin(std::future::ready(Ok(res))))
            }
            Cached::Admitted(req, project, origin) => Either::Left(Box::pin(async move {
                let (parts, body) = req.into_parts();
                let mut res = proxy(State(state.clone()), Extension(project), parts.uri, body).await;
                gate::add_cors(res.headers_mut(), origin.as_deref());
                record(&state, &res);
                Ok(res)
            })),
        }
    }
}
