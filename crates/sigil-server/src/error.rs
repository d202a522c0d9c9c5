//! The one error type routes return. Every error leaves as
//! `{"error": {"code": "...", "message": "..."}}` with a fitting status.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use sigil_core::errors;
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// Seconds to wait, sent as Retry-After (429).
    pub retry_after: Option<u64>,
    /// Errors about the project id itself are readable from any origin, so the modal can show them.
    pub public: bool,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable machine-readable code, e.g. `invalid_parameter`.
    pub code: String,
    /// Human-readable message, shown to users where the spec gives wording.
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), retry_after: None, public: false }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// A query or body parameter failed validation; the message names it.
    pub fn invalid_param(name: &str, why: impl std::fmt::Display) -> Self {
        Self::bad_request("invalid_parameter", format!("Invalid parameter '{name}': {why}"))
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn project_id_missing() -> Self {
        ApiError { public: true, ..Self::bad_request("project_id_missing", errors::PROJECT_ID_NOT_CONFIGURED) }
    }

    pub fn project_id_invalid() -> Self {
        ApiError { public: true, ..Self::new(StatusCode::FORBIDDEN, "project_id_invalid", errors::INVALID_PROJECT_ID) }
    }

    pub fn too_many_requests(retry_after: u64) -> Self {
        ApiError { retry_after: Some(retry_after), ..Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", errors::TOO_MANY_REQUESTS) }
    }

    pub fn internal(err: impl std::fmt::Display) -> Self {
        tracing::error!(error = %err, "internal error");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", errors::INTERNAL)
    }

    pub fn unavailable(err: impl std::fmt::Display) -> Self {
        tracing::error!(error = %err, "dependency unavailable");
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "The service is temporarily unavailable")
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        match err {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => ApiError::unavailable(err),
            other => ApiError::internal(other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { error: ErrorDetail { code: self.code.to_owned(), message: self.message } };
        let mut res = (self.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if self.public {
            res.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
        }
        res
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
