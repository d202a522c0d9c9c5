//! Sign in with the wallet (SIWX): single-use nonces, message checks, the signature checked by
//! the message's chain family (EIP-191 and EIP-1271 through the RPC proxy, Solana ed25519,
//! Bitcoin BIP-322 and legacy), sessions with bearer tokens (store.rs), sign-out.

pub mod routes;
pub mod store;

use axum::http::StatusCode;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sigil_core::origin::is_allowed;
use sigil_core::siwx::{self, Namespace, SignInMessage, TimeError};
use utoipa::ToSchema;

use crate::db::now_ms;
use crate::error::ApiError;
use crate::error::ErrorCode;
use crate::families::Family;
use crate::projects::Project;
use crate::AppState;
use store::NonceUse;
pub use store::SignInSession;

/// A nonce must be used within this time.
pub const NONCE_TTL_MS: i64 = 10 * 60 * 1000;

/// Nonces and sessions are kept this long after they expire (or a session is revoked), then
/// deleted: nothing can be done with them any more, and the tables would only grow.
pub const RETENTION_MS: i64 = 24 * 60 * 60 * 1000;

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
    store::insert_nonce(&state.db, &nonce, &project.id, now, expires).await?;
    Ok((nonce, expires))
}

/// Deletes the nonces and sessions that ended more than RETENTION_MS before `now` (unix ms);
/// returns how many rows went.
pub async fn prune(db: &crate::db::Db, now: i64) -> Result<u64, sqlx::Error> {
    store::prune(db, now - RETENTION_MS).await
}

/// A sign-in session as the API returns it: `{id, data, message, signature, cacao, expiresAt}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    pub id: String,
    /// The signed message's fields, with `chainId` as CAIP-2 (null if it no longer parses).
    #[schema(value_type = Object)]
    pub data: Option<SignInMessage>,
    pub message: String,
    pub signature: String,
    /// The session as a CAIP-74 object capability (null if the message no longer parses).
    pub cacao: Option<Cacao>,
    pub expires_at: i64,
}

/// CAIP-74: header, payload (the CAIP-122 message's fields) and signature.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Cacao {
    pub h: CacaoHeader,
    pub p: CacaoPayload,
    pub s: CacaoSignature,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CacaoHeader {
    /// `caip122`
    pub t: &'static str,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CacaoPayload {
    pub domain: String,
    /// `did:pkh:<CAIP-10 account>`
    pub iss: String,
    pub aud: String,
    pub version: String,
    pub nonce: String,
    pub iat: String,
    pub exp: Option<String>,
    pub nbf: Option<String>,
    pub request_id: Option<String>,
    pub statement: Option<String>,
    pub resources: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CacaoSignature {
    /// `eip191` or `ed25519`
    pub t: &'static str,
    pub s: String,
}

impl SessionView {
    pub fn of(session: &SignInSession) -> SessionView {
        let message = SignInMessage::parse(&session.message).ok();
        let cacao = message.as_ref().map(|m| Cacao {
            h: CacaoHeader { t: "caip122" },
            p: CacaoPayload {
                domain: m.domain.clone(),
                iss: format!("did:pkh:{}", m.caip10_account()),
                aud: m.uri.clone(),
                version: m.version.clone(),
                nonce: m.nonce.clone(),
                iat: m.issued_at.clone(),
                exp: m.expiration_time.clone(),
                nbf: m.not_before.clone(),
                request_id: m.request_id.clone(),
                statement: m.statement.clone(),
                resources: m.resources.clone(),
            },
            s: CacaoSignature { t: if m.namespace == Namespace::Solana { "ed25519" } else { "eip191" }, s: session.signature.clone() },
        });
        let data = message.map(|mut m| {
            m.chain_id = m.caip2_chain_id();
            m
        });
        SessionView {
            id: session.id.clone(),
            data,
            message: session.message.clone(),
            signature: session.signature.clone(),
            cacao,
            expires_at: session.expires_at,
        }
    }
}

/// The checks of a sign-in request, in order; Ok is the new session and its token.
pub async fn authenticate(state: &AppState, project: &Project, message_text: &str, signature: &str) -> Result<(SessionView, String), ApiError> {
    let message = SignInMessage::parse(message_text).map_err(|e| ApiError::bad_request(ErrorCode::InvalidMessage, format!("Invalid message: {e}")))?;

    let uri = url::Url::parse(&message.uri).map_err(|_| ApiError::bad_request(ErrorCode::InvalidMessage, "Invalid message: URI"))?;
    if !is_allowed(&project.allowed_origins, &uri.origin().ascii_serialization()) {
        return Err(err(StatusCode::FORBIDDEN, ErrorCode::UriNotAllowed, format!("URI {} is not allowed for this project", message.uri)));
    }
    if !is_allowed(&project.allowed_origins, &format!("{}://{}", uri.scheme(), message.domain)) {
        return Err(err(StatusCode::FORBIDDEN, ErrorCode::DomainNotAllowed, format!("Domain {} is not allowed for this project", message.domain)));
    }

    let chain = message.caip2_chain_id();
    let family = Family::of_namespace(message.namespace).filter(|f| f.signs_in_on(&chain, &state.rpc));
    let Some(family) = family else {
        return Err(ApiError::bad_request(ErrorCode::UnsupportedChain, format!("Chain {chain} is not supported")));
    };

    match message.check_time(siwx::OffsetDateTime::now_utc()) {
        Ok(()) => {}
        Err(TimeError::Expired(_)) => return Err(ApiError::bad_request(ErrorCode::MessageExpired, "Message has expired")),
        Err(TimeError::NotYetValid(_)) => return Err(ApiError::bad_request(ErrorCode::MessageNotYetValid, "Message is not yet valid")),
        Err(TimeError::IssuedInFuture(_)) => {
            return Err(ApiError::bad_request(ErrorCode::MessageIssuedInFuture, "Message was issued in the future: check the device's time settings"))
        }
        Err(e) => return Err(ApiError::bad_request(ErrorCode::InvalidMessage, format!("Invalid message: {e}"))),
    }

    family.verify_sign_in(&state.rpc, &message, message_text, signature).await?;

    let now = now_ms();
    match store::use_nonce(&state.db, &message.nonce, &project.id, now).await? {
        NonceUse::Used => {}
        NonceUse::Unknown => return Err(ApiError::bad_request(ErrorCode::UnknownNonce, "Unknown nonce: request one from /auth/v1/nonce")),
        NonceUse::AlreadyUsed => return Err(err(StatusCode::CONFLICT, ErrorCode::NonceUsed, "Nonce has already been used")),
        NonceUse::Expired => return Err(ApiError::bad_request(ErrorCode::NonceExpired, "Nonce has expired")),
    }

    // The server decides how long a session lives at most, whatever the message asks for.
    let longest = now + i64::from(state.config.settings.auth.session_max_days) * 24 * 60 * 60 * 1000;
    let expires = match message.expiration_time_value() {
        Ok(Some(t)) => ((t.unix_timestamp_nanos() / 1_000_000) as i64).min(longest),
        _ => longest,
    };
    let token = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let session = SignInSession {
        id: uuid::Uuid::new_v4().to_string(),
        project_id: project.id.clone(),
        account: message.canonical_account(),
        chain_id: chain,
        message: message_text.to_owned(),
        signature: signature.to_owned(),
        created_at: now,
        expires_at: expires,
        revoked_at: None,
    };
    session.insert(&state.db, &token_hash(&token)).await?;
    Ok((SessionView::of(&session), token))
}

/// The live session a bearer token names in `project`.
pub async fn session_for_token(state: &AppState, project: &Project, token: &str) -> Result<SignInSession, ApiError> {
    SignInSession::by_token(&state.db, &project.id, &token_hash(token))
        .await?
        .filter(|s| s.is_live(now_ms()))
        .ok_or_else(|| err(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, "Missing or invalid session token"))
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
        .route_layer(axum::middleware::map_response(crate::guards::no_store))
}
