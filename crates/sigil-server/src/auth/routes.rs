//! Sign-in routes under /auth/v1. Session routes take `Authorization: Bearer <token>`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use sigil_core::caip::AccountId;
use utoipa::{IntoParams, ToSchema};

use super::{SessionView, SignInSession};
use crate::db::now_ms;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::extract::Query;
use crate::guards::{bearer, UpstreamBudget, WriteBudget};
use crate::projects::Project;
use crate::query::text;
use crate::AppState;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NonceResponse {
    /// Single use; put it in the message's Nonce line.
    pub nonce: String,
    /// Unix milliseconds after which it is refused.
    pub expires_at: i64,
}

#[derive(Deserialize, ToSchema)]
pub struct AuthenticateRequest {
    /// The CAIP-122 / EIP-4361 message text that was signed.
    pub message: String,
    /// EIP-191 signature (0x hex) or, for Solana, ed25519 (base58 or hex).
    pub signature: String,
}

#[derive(Serialize, ToSchema)]
pub struct SessionResponse {
    pub session: SessionView,
    /// Bearer token for the session routes (shown once, stored hashed).
    pub token: String,
}

#[derive(Serialize, ToSchema)]
pub struct SessionsResponse {
    pub sessions: Vec<SessionView>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SessionsQuery {
    /// CAIP-10 account, e.g. eip155:1:0xab...
    #[param(required = true)]
    pub account: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct Revoked {
    pub revoked: bool,
}

/// A single-use nonce for a sign-in message (valid 10 minutes).
#[utoipa::path(post, path = "/auth/v1/nonce", tag = "auth", params(crate::query::ProjectQuery),
    responses((status = 200, body = NonceResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn nonce(State(state): State<AppState>, Extension(project): Extension<Arc<Project>>, _: WriteBudget) -> ApiResult<Json<NonceResponse>> {
    let (nonce, expires_at) = super::issue_nonce(&state, &project).await?;
    Ok(Json(NonceResponse { nonce, expires_at }))
}

/// Checks a signed message and opens a session. Refuses a domain or URI outside the project's
/// origins (403), an unsupported chain, a malformed, expired or not-yet-valid message (400), a bad
/// signature (401) and a nonce used before (409).
#[utoipa::path(post, path = "/auth/v1/authenticate", tag = "auth", params(crate::query::ProjectQuery), request_body = AuthenticateRequest,
    responses((status = 200, body = SessionResponse), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
pub async fn authenticate(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    _: WriteBudget,
    _: UpstreamBudget,
    crate::extract::Json(req): crate::extract::Json<AuthenticateRequest>,
) -> ApiResult<Json<SessionResponse>> {
    let (session, token) = super::authenticate(&state, &project, &req.message, &req.signature).await?;
    Ok(Json(SessionResponse { session, token }))
}

/// The session of the bearer token.
#[utoipa::path(get, path = "/auth/v1/session", tag = "auth", params(crate::query::ProjectQuery),
    responses((status = 200, body = SessionView), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn session(State(state): State<AppState>, Extension(project): Extension<Arc<Project>>, headers: HeaderMap) -> ApiResult<Json<SessionView>> {
    let session = super::session_for_token(&state, &project, bearer(&headers)?).await?;
    Ok(Json(SessionView::of(&session)))
}

/// Live sessions of an account on a chain (`account` is CAIP-10); the token must belong to it.
#[utoipa::path(get, path = "/auth/v1/sessions", tag = "auth",
    params(SessionsQuery, crate::query::ProjectQuery),
    responses((status = 200, body = SessionsResponse), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn sessions(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    headers: HeaderMap,
    Query(query): Query<SessionsQuery>,
) -> ApiResult<Json<SessionsResponse>> {
    let token = bearer(&headers)?;
    let account: AccountId = text(&query.account)
        .ok_or_else(|| ApiError::invalid_param("account", "required (CAIP-10)"))?
        .parse()
        .map_err(|e| ApiError::invalid_param("account", e))?;
    let owner = super::session_for_token(&state, &project, token).await?.account;
    // EVM addresses are compared in their checksummed form, others exactly.
    let same_account = owner.parse::<AccountId>().is_ok_and(|o| o.canonical() == account.canonical());
    if !same_account {
        return Err(ApiError::new(StatusCode::FORBIDDEN, ErrorCode::Forbidden, "The session token belongs to another account"));
    }
    let sessions = SignInSession::live_of(&state.db, &project.id, &owner, &account.chain.to_string(), now_ms()).await?;
    Ok(Json(SessionsResponse { sessions: sessions.iter().map(SessionView::of).collect() }))
}

/// Ends the bearer token's session.
#[utoipa::path(post, path = "/auth/v1/signout", tag = "auth", params(crate::query::ProjectQuery),
    responses((status = 200, body = Revoked), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn signout(State(state): State<AppState>, Extension(project): Extension<Arc<Project>>, headers: HeaderMap) -> ApiResult<Json<Revoked>> {
    let session = super::session_for_token(&state, &project, bearer(&headers)?).await?;
    Ok(Json(Revoked { revoked: SignInSession::revoke(&state.db, &project.id, &session.id, &session.account, now_ms()).await? }))
}

/// Revokes another session of the same account.
#[utoipa::path(post, path = "/auth/v1/sessions/{id}/revoke", tag = "auth",
    params(("id" = String, Path, description = "Session id"), crate::query::ProjectQuery),
    responses((status = 200, body = Revoked), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn revoke(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Revoked>> {
    let owner = super::session_for_token(&state, &project, bearer(&headers)?).await?.account;
    if SignInSession::revoke(&state.db, &project.id, &id, &owner, now_ms()).await? {
        Ok(Json(Revoked { revoked: true }))
    } else {
        Err(ApiError::not_found(format!("No live session {id} for this account")))
    }
}
