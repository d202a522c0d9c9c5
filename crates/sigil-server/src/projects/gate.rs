//! The gate in front of every directory route: the request must name a known project
//! (`projectId` query parameter), and a browser request must come from one of its allowed
//! origins. CORS is answered here, per project, so a project's data is only readable by its pages.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sigil_core::origin::is_allowed;
use sigil_core::project::is_project_id;

use crate::error::ApiError;
use crate::query::Params;
use crate::AppState;

const ALLOWED_METHODS: &str = "GET, POST, OPTIONS";
const EXPOSED_HEADERS: &str = "Retry-After, ETag, X-Request-Id";

pub async fn project_gate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let params = Params::from_uri(req.uri());
    let Some(id) = params.get("projectId").filter(|s| !s.is_empty()) else {
        return ApiError::project_id_missing().into_response();
    };
    if !is_project_id(id) {
        return ApiError::project_id_invalid().into_response();
    }
    let project = match state.projects.find(&state.db, id).await {
        Ok(Some(p)) => p,
        Ok(None) => return ApiError::project_id_invalid().into_response(),
        Err(e) => return ApiError::from(e).into_response(),
    };

    let origin = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let preflight = req.method() == Method::OPTIONS && req.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if let Some(origin) = &origin {
        if !is_allowed(&project.allowed_origins, origin) {
            return ApiError::new(StatusCode::FORBIDDEN, "origin_not_allowed", format!("Origin {origin} is not allowed for this project"))
                .into_response();
        }
    }
    if preflight {
        let mut res = StatusCode::NO_CONTENT.into_response();
        let requested = req.headers().get(header::ACCESS_CONTROL_REQUEST_HEADERS).cloned();
        let headers = res.headers_mut();
        add_cors(headers, origin.as_deref());
        headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static(ALLOWED_METHODS));
        if let Some(requested) = requested {
            headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, requested);
        }
        headers.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
        return res;
    }

    req.extensions_mut().insert(project);
    let mut res = next.run(req).await;
    add_cors(res.headers_mut(), origin.as_deref());
    res
}

fn add_cors(headers: &mut HeaderMap, origin: Option<&str>) {
    headers.append(header::VARY, HeaderValue::from_static("Origin"));
    let Some(value) = origin.and_then(|o| HeaderValue::from_str(o).ok()) else { return };
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
    headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static(EXPOSED_HEADERS));
}
