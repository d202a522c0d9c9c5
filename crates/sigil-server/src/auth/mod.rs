//! Sign in with the wallet (SIWX): single-use nonces, message and signature checks (EIP-191,
//! EIP-1271 through the RPC proxy, Solana ed25519), sessions with bearer tokens, sign-out.

pub mod routes;

use axum::http::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use sigil_core::origin::is_allowed;
use sigil_core::siwx::{self, Namespace, SignInMessage, TimeError, VerifyError};
use sqlx::Row;

use crate::db::now_ms;
use crate::error::ApiError;
use crate::error::ErrorCode;
use crate::projects::Project;
use crate::rpc::jsonrpc::Reply;
use crate::AppState;

/// A nonce must be used within this time.
pub const NONCE_TTL_MS: i64 = 10 * 60 * 1000;

/// Nonces and sessions are kept this long after they expire (or a session is revoked), then
/// deleted: nothing can be done with them any more, and the tables would only grow.
pub const RETENTION_MS: i64 = 24 * 60 * 60 * 1000;

/// Solana clusters sign-in accepts (CAIP-2 references).
const SOLANA_CHAINS: &[&str] = &["5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z"];

fn err(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message)
}

pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub async fn issue_nonce(state: &AppState, project: &Project) -> Result<(String, i64), ApiError> {
    let nonce = uuid::Uuid::new_v4().simple().to_string();
    let now = now_ms();
    let expires = now + NONCE_TTL_MS;
    sqlx::query("INSERT INTO auth_nonces (nonce, project_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(&nonce)
        .bind(&project.id)
        .bind(now)
        .bind(expires)
        .execute(&state.db)
        .await?;
    Ok((nonce, expires))
}

/// Deletes the nonces and sessions that ended more than RETENTION_MS before `now` (unix ms);
/// returns how many rows went.
pub async fn prune(db: &crate::db::Db, now: i64) -> Result<u64, sqlx::Error> {
    let cutoff = now - RETENTION_MS;
    let nonces = sqlx::query("DELETE FROM auth_nonces WHERE expires_at < $1").bind(cutoff).execute(db).await?;
    let sessions = sqlx::query("DELETE FROM auth_sessions WHERE expires_at < $1 OR revoked_at < $2").bind(cutoff).bind(cutoff).execute(db).await?;
    Ok(nonces.rows_affected() + sessions.rows_affected())
}

/// The checks of a sign-in request, in order; Ok is the new session's JSON and its token.
pub async fn authenticate(state: &AppState, project: &Project, message_text: &str, signature: &str) -> Result<(Value, String), ApiError> {
    let message = SignInMessage::parse(message_text).map_err(|e| ApiError::bad_request(ErrorCode::InvalidMessage, format!("Invalid message: {e}")))?;

    let uri = url::Url::parse(&message.uri).map_err(|_| ApiError::bad_request(ErrorCode::InvalidMessage, "Invalid message: URI"))?;
    if !is_allowed(&project.allowed_origins, &uri.origin().ascii_serialization()) {
        return Err(err(StatusCode::FORBIDDEN, ErrorCode::UriNotAllowed, format!("URI {} is not allowed for this project", message.uri)));
    }
    if !is_allowed(&project.allowed_origins, &format!("{}://{}", uri.scheme(), message.domain)) {
        return Err(err(StatusCode::FORBIDDEN, ErrorCode::DomainNotAllowed, format!("Domain {} is not allowed for this project", message.domain)));
    }

    let chain = message.caip2_chain_id();
    let supported = match message.namespace {
        Namespace::Eip155 => state.rpc.chains().get(&chain).is_some(),
        Namespace::Solana => SOLANA_CHAINS.contains(&message.chain_id.as_str()) || state.rpc.chains().get(&chain).is_some(),
        Namespace::Bip122 => state.rpc.chains().get(&chain).is_some(),
        _ => false,
    };
    if !supported {
        return Err(ApiError::bad_request(ErrorCode::UnsupportedChain, format!("Chain {chain} is not supported")));
    }

    match message.check_time(siwx::OffsetDateTime::now_utc()) {
        Ok(()) => {}
        Err(TimeError::Expired(_)) => return Err(ApiError::bad_request(ErrorCode::MessageExpired, "Message has expired")),
        Err(TimeError::NotYetValid(_)) => return Err(ApiError::bad_request(ErrorCode::MessageNotYetValid, "Message is not yet valid")),
        Err(TimeError::IssuedInFuture(_)) => {
            return Err(ApiError::bad_request(ErrorCode::MessageIssuedInFuture, "Message was issued in the future: check the device's time settings"))
        }
        Err(e) => return Err(ApiError::bad_request(ErrorCode::InvalidMessage, format!("Invalid message: {e}"))),
    }

    verify_signature(state, &message, message_text, signature).await?;

    // Single use: only the first request that flips used_at wins.
    let now = now_ms();
    let row = sqlx::query("SELECT expires_at, used_at FROM auth_nonces WHERE nonce = $1 AND project_id = $2")
        .bind(&message.nonce)
        .bind(&project.id)
        .fetch_optional(&state.db)
        .await?;
    let Some(row) = row else { return Err(ApiError::bad_request(ErrorCode::UnknownNonce, "Unknown nonce: request one from /auth/v1/nonce")) };
    let used_at: Option<i64> = row.try_get("used_at")?;
    let expires_at: i64 = row.try_get("expires_at")?;
    if used_at.is_some() {
        return Err(err(StatusCode::CONFLICT, ErrorCode::NonceUsed, "Nonce has already been used"));
    }
    if expires_at <= now {
        return Err(ApiError::bad_request(ErrorCode::NonceExpired, "Nonce has expired"));
    }
    let claimed =
        sqlx::query("UPDATE auth_nonces SET used_at = $1 WHERE nonce = $2 AND used_at IS NULL").bind(now).bind(&message.nonce).execute(&state.db).await?;
    if claimed.rows_affected() != 1 {
        return Err(err(StatusCode::CONFLICT, ErrorCode::NonceUsed, "Nonce has already been used"));
    }

    // The server decides how long a session lives at most, whatever the message asks for.
    let longest = now + i64::from(state.config.settings.session_max_days) * 24 * 60 * 60 * 1000;
    let expires = match message.expiration_time_value() {
        Ok(Some(t)) => ((t.unix_timestamp_nanos() / 1_000_000) as i64).min(longest),
        _ => longest,
    };
    let id = uuid::Uuid::new_v4().to_string();
    let token = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    sqlx::query(
        "INSERT INTO auth_sessions (id, project_id, token_hash, account, chain_id, message, signature, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&id)
    .bind(&project.id)
    .bind(token_hash(&token))
    .bind(message.canonical_account())
    .bind(&chain)
    .bind(message_text)
    .bind(signature)
    .bind(now)
    .bind(expires)
    .execute(&state.db)
    .await?;
    Ok((session_json(&id, message_text, signature, expires), token))
}

async fn verify_signature(state: &AppState, message: &SignInMessage, text: &str, signature: &str) -> Result<(), ApiError> {
    let invalid = || err(StatusCode::UNAUTHORIZED, ErrorCode::InvalidSignature, "Invalid signature");
    match siwx::verify_message(message, signature) {
        Ok(()) => Ok(()),
        // Not the key of the address: it may be a contract account (EIP-1271), asked on chain.
        Err(VerifyError::AddressMismatch { .. }) if message.namespace == Namespace::Eip155 => {
            let sig = siwx::decode_hex(signature).map_err(|_| invalid())?;
            let data = siwx::eip1271_call_data(siwx::eip191_hash(text), &sig);
            let params = json!([{"to": message.address, "data": data}, "latest"]).to_string();
            let reply = state
                .rpc
                .call(&message.caip2_chain_id(), "eth_call", Some(&params))
                .await
                .map_err(|_| ApiError::unavailable("EIP-1271 check: chain unavailable"))?;
            match reply {
                Reply::Result(raw) if serde_json::from_str::<String>(&raw).is_ok_and(|r| siwx::is_eip1271_magic(&r)) => Ok(()),
                _ => Err(invalid()),
            }
        }
        Err(VerifyError::BadSignature | VerifyError::AddressMismatch { .. }) => Err(invalid()),
        Err(e) => Err(ApiError::bad_request(ErrorCode::InvalidSignature, format!("Invalid signature: {e}"))),
    }
}

/// A session as the API returns it: {id, data, message, signature, cacao, expiresAt}.
pub fn session_json(id: &str, message_text: &str, signature: &str, expires_at: i64) -> Value {
    let message = SignInMessage::parse(message_text).ok();
    let (data, cacao) = match &message {
        Some(m) => {
            let mut data = serde_json::to_value(m).unwrap_or(Value::Null);
            data["chainId"] = json!(m.caip2_chain_id());
            let cacao = json!({
                "h": {"t": "caip122"},
                "p": {
                    "domain": m.domain, "iss": format!("did:pkh:{}", m.caip10_account()), "aud": m.uri, "version": m.version,
                    "nonce": m.nonce, "iat": m.issued_at, "exp": m.expiration_time, "nbf": m.not_before,
                    "requestId": m.request_id, "statement": m.statement, "resources": m.resources,
                },
                "s": {"t": if m.namespace == Namespace::Solana { "ed25519" } else { "eip191" }, "s": signature},
            });
            (data, cacao)
        }
        None => (Value::Null, Value::Null),
    };
    json!({"id": id, "data": data, "message": message_text, "signature": signature, "cacao": cacao, "expiresAt": expires_at})
}

/// The live session a bearer token names, with its account.
pub async fn session_for_token(state: &AppState, project: &Project, token: &str) -> Result<(Value, String), ApiError> {
    let unauthorized = || err(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, "Missing or invalid session token");
    let row = sqlx::query("SELECT id, account, message, signature, expires_at, revoked_at FROM auth_sessions WHERE token_hash = $1 AND project_id = $2")
        .bind(token_hash(token))
        .bind(&project.id)
        .fetch_optional(&state.db)
        .await?
        .ok_or_else(unauthorized)?;
    let revoked: Option<i64> = row.try_get("revoked_at")?;
    let expires: i64 = row.try_get("expires_at")?;
    if revoked.is_some() || expires <= now_ms() {
        return Err(unauthorized());
    }
    let id: String = row.try_get("id")?;
    let json = session_json(&id, &row.try_get::<String, _>("message")?, &row.try_get::<String, _>("signature")?, expires);
    Ok((json, row.try_get("account")?))
}

/// Live sessions of an account (CAIP-10) on a chain.
pub async fn sessions_of(state: &AppState, project: &Project, account: &str, chain: &str) -> Result<Vec<Value>, ApiError> {
    let rows = sqlx::query(
        "SELECT id, message, signature, expires_at FROM auth_sessions \
         WHERE project_id = $1 AND account = $2 AND chain_id = $3 AND revoked_at IS NULL AND expires_at > $4 ORDER BY created_at, id",
    )
    .bind(&project.id)
    .bind(account)
    .bind(chain)
    .bind(now_ms())
    .fetch_all(&state.db)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(session_json(
                &r.try_get::<String, _>("id")?,
                &r.try_get::<String, _>("message")?,
                &r.try_get::<String, _>("signature")?,
                r.try_get("expires_at")?,
            ))
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

/// Revokes session `id` if it belongs to `account`; false when there is no such live session.
pub async fn revoke(state: &AppState, project: &Project, id: &str, account: &str) -> Result<bool, ApiError> {
    let res = sqlx::query("UPDATE auth_sessions SET revoked_at = $1 WHERE id = $2 AND project_id = $3 AND account = $4 AND revoked_at IS NULL")
        .bind(now_ms())
        .bind(id)
        .bind(&project.id)
        .bind(account)
        .execute(&state.db)
        .await?;
    Ok(res.rows_affected() == 1)
}

/// Sign-in routes, under the project gate. Their answers hold tokens and sessions: never stored
/// by a cache.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(routes::nonce))
        .routes(utoipa_axum::routes!(routes::authenticate))
        .routes(utoipa_axum::routes!(routes::session))
        .routes(utoipa_axum::routes!(routes::sessions))
        .routes(utoipa_axum::routes!(routes::signout))
        .routes(utoipa_axum::routes!(routes::revoke))
        .route_layer(axum::middleware::map_response(no_store))
}

async fn no_store(mut res: axum::response::Response) -> axum::response::Response {
    res.headers_mut().insert(axum::http::header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
    res
}
