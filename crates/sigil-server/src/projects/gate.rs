//! The gate in front of every project route (directory, blockchain, sign-in): the request must
//! name a known project (`projectId` query parameter; for a POST without it, the JSON body's
//! top-level `projectId`, as the AppKit client sends `/v1/fungible/price`), and a browser request must come from one
//! of its allowed origins. CORS is answered here, per project, so a project's data is only
//! readable by its pages.

use std::convert::Infallible;
use std::future::{ready, Future};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::future::BoxFuture;
use sigil_core::origin::is_allowed;
use sigil_core::project::is_project_id;

use crate::error::ApiError;
use crate::error::ErrorCode;
use crate::projects::Project;
use crate::AppState;

const ALLOWED_METHODS: &str = "GET, POST, OPTIONS";
/// The request headers the API reads; a preflight is answered with these, never an echo.
const ALLOWED_HEADERS: &str = "Content-Type, Authorization, X-Request-Id";
const EXPOSED_HEADERS: &str = "Retry-After, ETag, X-Request-Id";

/// Route-level layer in front of every project route. A hand-written service rather than
/// `from_fn`: with the project cached (the usual case) the request goes on without an await,
/// a boxed service clone or an extractor run.
#[derive(Clone)]
pub struct GateLayer(pub AppState);

impl<S> tower::Layer<S> for GateLayer {
    type Service = Gate<S>;
    fn layer(&self, inner: S) -> Gate<S> {
        Gate { inner, state: self.0.clone() }
    }
}

#[derive(Clone)]
pub struct Gate<S> {
    inner: S,
    state: AppState,
}

impl<S> tower::Service<Request> for Gate<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let id = match project_id(&req) {
            Ok(id) => id,
            // The AppKit client names the project of some POSTs in their JSON body only.
            Err(_) if req.method() == Method::POST => return self.admit_by_body(req),
            Err(_) if is_post_preflight(&req) => return Box::pin(ready(Ok(open_preflight(&req)))),
            Err(refused) => return Box::pin(ready(Ok(refused))),
        };
        if let Some(project) = self.state.projects.cached(&id) {
            return match admit(project, req) {
                Ok((req, origin)) => with_cors(self.inner.call(req), origin),
                Err(answer) => Box::pin(ready(Ok(answer))),
            };
        }
        let (inner, state) = self.take();
        Box::pin(find_and_admit(state, inner, id, req))
    }
}

impl<S> Gate<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    /// The service made ready, to serve this request; its clone waits for the next one.
    fn take(&mut self) -> (S, AppState) {
        let clone = self.inner.clone();
        (std::mem::replace(&mut self.inner, clone), self.state.clone())
    }

    /// A POST without `projectId` in its query: the project is the body's top-level
    /// `projectId` (a JSON object), read within the body limit; anything else is refused as
    /// a request without one.
    fn admit_by_body(&mut self, req: Request) -> BoxFuture<'static, Result<Response, Infallible>> {
        let limit = self.state.config.settings.server.body_limit;
        let (inner, state) = self.take();
        Box::pin(async move {
            let (parts, body) = req.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
                return Ok(ApiError::project_id_missing().into_response());
            };
            #[derive(serde::Deserialize)]
            struct Named {
                #[serde(rename = "projectId")]
                project_id: Option<String>,
            }
            let named = serde_json::from_slice::<Named>(&bytes).ok().and_then(|n| n.project_id);
            let id = match checked(named.as_deref()) {
                Ok(id) => id,
                Err(refused) => return Ok(refused),
            };
            find_and_admit(state, inner, id, Request::from_parts(parts, Body::from(bytes))).await
        })
    }
}

async fn find_and_admit<S>(state: AppState, mut inner: S, id: String, req: Request) -> Result<Response, Infallible>
where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Send + 'static,
    S::Future: Send + 'static,
{
    let project = match state.projects.find(&state.db, &id).await {
        Ok(p) => p,
        Err(e) => return Ok(ApiError::from(e).into_response()),
    };
    match admit(project, req) {
        Ok((req, origin)) => with_cors(inner.call(req), origin).await,
        Err(answer) => Ok(answer),
    }
}

/// The request's `projectId`, when it is there and well formed.
fn project_id(req: &Request) -> Result<String, Response> {
    // Read on every request: a scan for the one parameter, with no allocation when it needs
    // no decoding (ProjectQuery documents it; handlers that want st/sv extract it).
    let id = crate::query::param(req.uri().query().unwrap_or(""), "projectId");
    checked(id.as_deref())
}

fn checked(id: Option<&str>) -> Result<String, Response> {
    let Some(id) = id.filter(|s| !s.is_empty()) else {
        return Err(ApiError::project_id_missing().into_response());
    };
    if !is_project_id(id) {
        return Err(ApiError::project_id_invalid().into_response());
    }
    Ok(id.to_owned())
}

fn is_post_preflight(req: &Request) -> bool {
    req.method() == Method::OPTIONS && req.headers().get(header::ACCESS_CONTROL_REQUEST_METHOD).is_some_and(|m| m == "POST")
}

/// The preflight of a POST whose project is in its body (not known yet): the POST may be sent;
/// it is then checked like any other (project, origin), and only an admitted answer is readable.
fn open_preflight(req: &Request) -> Response {
    let origin = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok());
    preflight_answer(origin)
}

fn preflight_answer(origin: Option<&str>) -> Response {
    let mut res = StatusCode::NO_CONTENT.into_response();
    let headers = res.headers_mut();
    add_cors(headers, origin);
    headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static(ALLOWED_METHODS));
    headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static(ALLOWED_HEADERS));
    headers.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    res
}

/// Lets the request through to its route, with the project in its extensions and the origin
/// it came from; or answers it here (unknown project, origin not allowed, CORS preflight).
fn admit(project: Option<Arc<Project>>, mut req: Request) -> Result<(Request, Option<String>), Response> {
    let Some(project) = project else { return Err(ApiError::project_id_invalid().into_response()) };
    let origin = allowed(&project, &req)?;
    req.extensions_mut().insert(project);
    Ok((req, origin))
}

/// The origin `req` came from, when `project` lets it through; else the answer in its place.
fn allowed(project: &Project, req: &Request) -> Result<Option<String>, Response> {
    let origin = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let preflight = req.method() == Method::OPTIONS && req.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if let Some(origin) = &origin {
        if !is_allowed(&project.allowed_origins, origin) {
            let mut refused =
                ApiError::new(StatusCode::FORBIDDEN, ErrorCode::OriginNotAllowed, format!("Origin {origin} is not allowed for this project")).into_response();
            refused.headers_mut().append(header::VARY, HeaderValue::from_static("Origin"));
            return Err(refused);
        }
    }
    if preflight {
        return Err(preflight_answer(origin.as_deref()));
    }
    Ok(origin)
}

/// The gate's decision when it needs no storage, for a route served ahead of the router
/// (rpc::routes::Direct).
pub enum Cached {
    /// Let through: the project, and the origin to answer CORS for (`add_cors`).
    Admitted(Request, Arc<Project>, Option<String>),
    /// Answered here (origin not allowed, preflight, unknown project).
    Answered(Response),
    /// Not decided without a lookup (no cached project, no or a bad projectId): the request,
    /// for the usual path through the gate.
    Undecided(Request),
}

/// What the gate would do with `req`, when its project is in the cache.
pub fn cached(state: &AppState, req: Request) -> Cached {
    let project = match crate::query::param(req.uri().query().unwrap_or(""), "projectId").as_deref() {
        Some(id) if is_project_id(id) => state.projects.cached(id),
        _ => None,
    };
    match project {
        None => Cached::Undecided(req),
        Some(None) => Cached::Answered(ApiError::project_id_invalid().into_response()),
        Some(Some(project)) => match allowed(&project, &req) {
            Ok(origin) => Cached::Admitted(req, project, origin),
            Err(answer) => Cached::Answered(answer),
        },
    }
}

fn with_cors<F>(response: F, origin: Option<String>) -> BoxFuture<'static, Result<Response, Infallible>>
where
    F: Future<Output = Result<Response, Infallible>> + Send + 'static,
{
    Box::pin(async move {
        let Ok(mut res) = response.await;
        add_cors(res.headers_mut(), origin.as_deref());
        Ok(res)
    })
}

/// The CORS headers of an admitted request's answer.
pub(crate) fn add_cors(headers: &mut HeaderMap, origin: Option<&str>) {
    headers.append(header::VARY, HeaderValue::from_static("Origin"));
    let Some(value) = origin.and_then(|o| HeaderValue::from_str(o).ok()) else { return };
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
    headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static(EXPOSED_HEADERS));
}
