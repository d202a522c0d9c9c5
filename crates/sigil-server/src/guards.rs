//! Guards as extractors: a handler that costs an upstream call or stores a row names the guard
//! among its arguments, and the request is refused (429, Retry-After) before the handler runs.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use crate::error::ApiError;
use crate::projects::Project;
use crate::AppState;

/// The project the gate admitted the request for.
fn project(parts: &Parts) -> Result<Arc<Project>, ApiError> {
    // The gate runs before every route that names a guard; without it this is a wiring bug.
    parts.extensions.get::<Arc<Project>>().cloned().ok_or_else(|| ApiError::internal("a guarded route is outside the project gate"))
}

/// The client's address: the peer, or the first X-Forwarded-For hop behind a trusted proxy.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if state.config.settings.server.trust_proxy_headers {
            let forwarded =
                parts.headers.get("x-forwarded-for").and_then(|v| v.to_str().ok()).and_then(|v| v.split(',').next()).and_then(|v| v.trim().parse().ok());
            if let Some(ip) = forwarded {
                return Ok(ClientAddr(ip));
            }
        }
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        Ok(ClientAddr(peer.unwrap_or(IpAddr::from([127, 0, 0, 1]))))
    }
}

/// One call's worth of the project's upstream budget: the same per-project limit as the
/// JSON-RPC proxy (`--rpc-requests-per-second`), for routes that call upstream nodes
/// (balances, prices, names, contract-account sign-in).
pub struct UpstreamBudget;

impl UpstreamBudget {
    /// `calls` upstream calls of `project`'s budget, for a handler whose calls are known only
    /// once it runs (a Solana history page: its listing, then a read of each transaction).
    pub fn take(state: &AppState, project: &Project, calls: usize) -> Result<UpstreamBudget, ApiError> {
        state.rpc.limiter.take(&project.id, calls, Instant::now()).map_err(ApiError::too_many_requests)?;
        Ok(UpstreamBudget)
    }
}

impl FromRequestParts<AppState> for UpstreamBudget {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let project = project(parts)?;
        UpstreamBudget::take(state, &project, 1)
    }
}

/// One stored row's worth of the client's budget for the project (`--writes-per-minute` per
/// project and client address): sign-in nonces and sessions, and (per client address on the
/// frame origin, which has no project gate) embedded-wallet codes and links.
pub struct WriteBudget;

impl FromRequestParts<AppState> for WriteBudget {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let scope = parts.extensions.get::<Arc<Project>>().map_or_else(|| "frame".to_owned(), |p| p.id.clone());
        let ClientAddr(addr) = ClientAddr::from_request_parts(parts, state).await?;
        let limit = state.config.settings.auth.writes_per_minute;
        state.limiter.check(&scope, addr, crate::limits::EventKind::Write, limit, Instant::now()).map_err(ApiError::too_many_requests)?;
        Ok(WriteBudget)
    }
}

/// One try of an emailed code or link (login, email change, key export, device approval), per
/// client address (`--code-tries-per-minute`): on top of each code's own five tries, so one
/// address cannot wear out the codes of many emails.
pub struct CodeBudget;

impl FromRequestParts<AppState> for CodeBudget {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let ClientAddr(addr) = ClientAddr::from_request_parts(parts, state).await?;
        let limit = state.config.settings.wallet.code_tries_per_minute;
        state.limiter.check("frame", addr, crate::limits::EventKind::CodeTry, limit, Instant::now()).map_err(ApiError::too_many_requests)?;
        Ok(CodeBudget)
    }
}

/// The `Authorization: Bearer <token>` of a request (sign-in sessions, embedded-wallet sessions):
/// 401 'Missing or invalid session token' when there is none.
pub fn bearer(headers: &axum::http::HeaderMap) -> Result<&str, ApiError> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(ApiError::unauthorized)
}

/// `Cache-Control: no-store` on every answer of a router whose answers hold tokens, keys or
/// sessions (sign-in, the embedded wallet): set once on the router.
pub async fn no_store(mut res: axum::response::Response) -> axum::response::Response {
    res.headers_mut().insert(axum::http::header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
    res
}
