//! The one error type routes return. Every error leaves as
//! `{"error": {"code": "...", "message": "..."}}` with a fitting status, and where the spec's
//! clients read them (account names), `reasons: [{"field", "description"}]` beside it. What went wrong inside
//! (a database error, an unreachable node) is never in the message; it rides along in the
//! response's extensions for the edge to log (edge.rs), which logs every 5xx once.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use sigil_core::errors;
use utoipa::ToSchema;

/// Every machine-readable error code the API answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    BadRequest,
    InvalidParameter,
    InvalidBody,
    InvalidJson,
    BodyTooLarge,
    UriTooLong,
    HeadersTooLarge,
    ProjectIdMissing,
    ProjectIdInvalid,
    OriginNotAllowed,
    AnalyticsDisabled,
    Unauthorized,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    RateLimited,
    Timeout,
    Internal,
    Unavailable,
    UpstreamUnavailable,
    InvalidMessage,
    UriNotAllowed,
    DomainNotAllowed,
    UnsupportedChain,
    MessageExpired,
    MessageNotYetValid,
    MessageIssuedInFuture,
    InvalidSignature,
    UnknownNonce,
    NonceUsed,
    NonceExpired,
    InvalidCode,
    CodeExpired,
    DeviceNotApproved,
    EmailTaken,
    NoEmail,
    NotAllowed,
    LoginFailed,
    /// The person cancelled at the social provider.
    LoginCancelled,
    /// The step needs a login proved more recently than the session's.
    FreshLoginRequired,
    /// No pool, direct or through a base token, trades the two tokens of a swap.
    NoRoute,
    /// The pools of a swap's route are empty, or give nothing for the amount.
    InsufficientLiquidity,
    /// The user holds less of the token sold than the swap's amount.
    InsufficientBalance,
    /// The user has allowed the swap's spender less than the swap's amount.
    InsufficientAllowance,
    /// The swap would revert on chain now (the price moved past the minimum received, say).
    SwapWouldFail,
    /// The account name is registered already.
    NameTaken,
    /// The address has as many names in the zone as it may.
    NameLimitReached,
}

impl ErrorCode {
    /// The code of an answer made from a bare status (framework and protocol rejections).
    pub fn from_status(status: StatusCode) -> ErrorCode {
        match status {
            StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::BodyTooLarge,
            StatusCode::URI_TOO_LONG => ErrorCode::UriTooLong,
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => ErrorCode::HeadersTooLarge,
            StatusCode::REQUEST_TIMEOUT => ErrorCode::Timeout,
            StatusCode::NOT_FOUND => ErrorCode::NotFound,
            StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
            StatusCode::UNAUTHORIZED => ErrorCode::Unauthorized,
            StatusCode::FORBIDDEN => ErrorCode::Forbidden,
            StatusCode::TOO_MANY_REQUESTS => ErrorCode::RateLimited,
            StatusCode::SERVICE_UNAVAILABLE => ErrorCode::Unavailable,
            s if s.is_server_error() => ErrorCode::Internal,
            _ => ErrorCode::BadRequest,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
    /// Seconds to wait, sent as Retry-After (429).
    pub retry_after: Option<u64>,
    /// What was wrong, field by field, sent as `reasons` (empty: not sent).
    pub reasons: Vec<Reason>,
    /// Errors about the project id itself are readable from any origin, so the modal can show them.
    pub public: bool,
    /// What went wrong inside, for the log only.
    pub cause: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
    /// Field by field, what was wrong (account names: AppKit's clients show the first description).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<Reason>,
}

/// One thing wrong with a request: the field it is about and what is wrong, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Reason {
    pub field: String,
    pub description: String,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable machine-readable code, e.g. `invalid_parameter`.
    pub code: ErrorCode,
    /// Human-readable message, shown to users where the spec gives wording.
    pub message: String,
}

/// The inside cause of a 5xx, carried to the edge's log in the response's extensions.
#[derive(Debug, Clone)]
pub struct LoggedCause(pub String);

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), retry_after: None, reasons: Vec::new(), public: false, cause: None }
    }

    /// The same error with one more reason (`field`: what it is about).
    pub fn with_reason(mut self, field: impl Into<String>, description: impl Into<String>) -> Self {
        self.reasons.push(Reason { field: field.into(), description: description.into() });
        self
    }

    pub fn bad_request(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// A query or body parameter failed validation; the message names it.
    pub fn invalid_param(name: &str, why: impl std::fmt::Display) -> Self {
        Self::bad_request(ErrorCode::InvalidParameter, format!("Invalid parameter '{name}': {why}"))
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, message)
    }

    pub fn unauthorized() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, "Missing or invalid session token")
    }

    pub fn project_id_missing() -> Self {
        ApiError { public: true, ..Self::bad_request(ErrorCode::ProjectIdMissing, errors::PROJECT_ID_NOT_CONFIGURED) }
    }

    pub fn project_id_invalid() -> Self {
        ApiError { public: true, ..Self::new(StatusCode::FORBIDDEN, ErrorCode::ProjectIdInvalid, errors::INVALID_PROJECT_ID) }
    }

    pub fn too_many_requests(retry_after: u64) -> Self {
        ApiError { retry_after: Some(retry_after), ..Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, errors::TOO_MANY_REQUESTS) }
    }

    /// A failure inside the server; `cause` goes to the log, never to the client.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        ApiError { cause: Some(cause.to_string()), ..Self::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, errors::INTERNAL) }
    }

    /// Something the server depends on (database, upstream) is not answering.
    pub fn unavailable(cause: impl std::fmt::Display) -> Self {
        ApiError { cause: Some(cause.to_string()), ..Self::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, errors::UNAVAILABLE) }
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
        let body = ErrorBody { error: ErrorDetail { code: self.code, message: self.message }, reasons: self.reasons };
        let mut res = (self.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if self.public {
            res.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
        }
        if let Some(cause) = self.cause {
            res.extensions_mut().insert(LoggedCause(cause));
        }
        res
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// A serde error as a client may read it: what is wrong and where, without the server's type
/// names ("expected struct AuthenticateRequest" becomes "expected an object").
pub fn describe_json_error(e: &serde_json::Error) -> String {
    without_type_names(&e.to_string())
}

/// `text` with serde's "struct X" / "enum X" / "tuple X" replaced by plain words.
pub fn without_type_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut words = text.split(' ').peekable();
    while let Some(word) = words.next() {
        if matches!(word, "struct" | "enum" | "tuple") && words.peek().is_some() {
            words.next();
            out.push_str(if word == "enum" { "one of the allowed values" } else { "an object" });
        } else {
            out.push_str(word);
        }
        out.push(' ');
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_never_name_server_types() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct AuthenticateRequest {
            message: String,
        }
        let e = serde_json::from_str::<AuthenticateRequest>("\"x\"").unwrap_err();
        let text = describe_json_error(&e);
        assert!(!text.contains("AuthenticateRequest"), "{text}");
        assert!(text.contains("expected an object"), "{text}");
        let e = serde_json::from_str::<AuthenticateRequest>("{}").unwrap_err();
        assert_eq!(describe_json_error(&e), "missing field `message` at line 1 column 2");
    }

    #[test]
    fn codes_are_snake_case() {
        assert_eq!(serde_json::to_value(ErrorCode::MessageIssuedInFuture).unwrap(), "message_issued_in_future");
        assert_eq!(ErrorCode::from_status(StatusCode::URI_TOO_LONG), ErrorCode::UriTooLong);
    }
}
