//! The outermost layer every request passes: it gives the request an `x-request-id` (keeping
//! the client's), echoes it on the response, and turns error responses that framework layers
//! produced as plain text (body too large, timeout, extractor rejections) into the JSON error
//! shape every route uses. One hand-written service in place of tower-http's two request-id
//! layers and a `from_fn`, which boxed and cloned a service per request: the JSON-RPC proxy
//! felt each of them.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{header, HeaderName, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::future::BoxFuture;

use crate::config::Config;
use crate::error::{without_type_names, ApiError, ErrorCode, LoggedCause};

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The most header bytes a request may carry. hyper refuses more than its read buffer itself,
/// but only when they arrive in pieces: a whole head read at once parses before its size is
/// checked. This check holds either way.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

fn header_bytes(req: &Request<Body>) -> usize {
    req.headers().iter().map(|(name, value)| name.as_str().len() + value.len() + 4).sum()
}

/// Request ids: a random 64-bit prefix per process and a counter, shaped as a UUID.
#[derive(Clone)]
struct RequestIds {
    prefix: u64,
    next: Arc<AtomicU64>,
}

impl RequestIds {
    fn new() -> RequestIds {
        RequestIds { prefix: uuid::Uuid::new_v4().as_u64_pair().0, next: Default::default() }
    }

    fn next(&self) -> HeaderValue {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
        let id = uuid::Uuid::from_u64_pair(self.prefix, n).hyphenated().encode_lower(&mut buf);
        HeaderValue::from_str(id).expect("a UUID is a valid header value")
    }
}

#[derive(Clone)]
pub struct EdgeLayer {
    config: Arc<Config>,
    ids: RequestIds,
}

impl EdgeLayer {
    pub fn new(config: Arc<Config>) -> EdgeLayer {
        EdgeLayer { config, ids: RequestIds::new() }
    }
}

impl<S> tower::Layer<S> for EdgeLayer {
    type Service = Edge<S>;
    fn layer(&self, inner: S) -> Edge<S> {
        Edge { inner, config: self.config.clone(), ids: self.ids.clone() }
    }
}

#[derive(Clone)]
pub struct Edge<S> {
    inner: S,
    config: Arc<Config>,
    ids: RequestIds,
}

impl<S, R> tower::Service<Request<Body>> for Edge<S>
where
    S: tower::Service<Request<Body>, Response = R, Error = Infallible>,
    S::Future: Send + 'static,
    R: IntoResponse,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request<Body>) -> Self::Future {
        let id = match req.headers().get(&REQUEST_ID) {
            Some(id) => id.clone(),
            None => {
                let id = self.ids.next();
                req.headers_mut().insert(REQUEST_ID, id.clone());
                id
            }
        };
        let (method, path) = (req.method().clone(), req.uri().path().to_owned());
        let response = (header_bytes(&req) <= MAX_HEADER_BYTES).then(|| self.inner.call(req));
        let config = self.config.clone();
        Box::pin(async move {
            let mut res = match response {
                Some(response) => {
                    let Ok(res) = response.await;
                    res.into_response()
                }
                None => {
                    let refused = ApiError::new(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, ErrorCode::HeadersTooLarge, "The request headers are too large");
                    let mut res = refused.into_response();
                    res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
                    res
                }
            };
            if needs_json(&res) {
                res = json_error(res, &config).await;
            }
            if res.status().is_server_error() {
                let cause = res.extensions().get::<LoggedCause>().map_or("-", |c| c.0.as_str());
                tracing::error!(status = res.status().as_u16(), %method, path, request_id = ?id, cause, "request failed");
            }
            let headers = res.headers_mut();
            headers.entry(REQUEST_ID).or_insert(id);
            headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
            Ok(res)
        })
    }
}

/// An error answer that is not already JSON nor one of the frame origin's own HTML pages
/// (a failed social login's window, the device-approval page), which people read.
fn needs_json(res: &Response) -> bool {
    let status = res.status();
    let kept = res.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json") || v.as_bytes().starts_with(b"text/html"));
    (status.is_client_error() || status.is_server_error()) && !kept
}

/// The JSON error for a plain-text error response, keeping its headers.
async fn json_error(res: Response, config: &Config) -> Response {
    let status = res.status();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => sigil_core::errors::body_too_large(config.settings.server.body_limit),
        StatusCode::REQUEST_TIMEOUT => sigil_core::errors::TIMEOUT.to_owned(),
        StatusCode::NOT_FOUND => sigil_core::errors::NOT_FOUND.to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => sigil_core::errors::METHOD_NOT_ALLOWED.to_owned(),
        s if s.is_server_error() => sigil_core::errors::INTERNAL.to_owned(),
        _ => status.canonical_reason().unwrap_or("Bad request").to_owned(),
    };
    let (parts, body) = res.into_parts();
    // Keep the framework's explanation of a rejected request when it gave one, in words
    // that name no type of the server's.
    let detail = match axum::body::to_bytes(body, 4096).await {
        Ok(b) if status.is_client_error() && !b.is_empty() && status != StatusCode::PAYLOAD_TOO_LARGE => without_type_names(&String::from_utf8_lossy(&b)),
        _ => message,
    };
    let mut out = ApiError::new(status, ErrorCode::from_status(status), detail).into_response();
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().append(name, value.clone());
        }
    }
    out.extensions_mut().extend(parts.extensions);
    out
}
