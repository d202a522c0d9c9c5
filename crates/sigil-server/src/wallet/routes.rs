//! The embedded-wallet API, served only on the frame's origin: the frame page calls it with
//! its session token, which never leaves that origin. Browser requests from any other origin
//! are refused. The frame page itself (built from web/packages/frame) is served here too, with
//! a CSP whose `frame-ancestors` lists only the project's allowed origins.

use std::sync::Arc;

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::mail_lang::{Lang, MailLang};
use super::{Action, Requester, Session, User, Wallets};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::extract::{self, Query};
use crate::families::{Family, Handling, RpcError, SignError, NOT_ALLOWED};
use crate::guards::{bearer, ClientAddr, CodeBudget, WriteBudget};
use crate::AppState;

pub(super) fn wallets(state: &AppState) -> ApiResult<&Arc<Wallets>> {
    state.wallets.as_ref().ok_or_else(|| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, "The embedded wallet is not configured on this server (key-encryption key)")
    })
}

/// Only the frame page may call this API from a browser.
/// Guard: a browser request comes from the frame's own origin (the host page, or any other
/// site, may not call the wallet API; the frame page itself and non-browser clients may).
pub struct FromFrame;

impl FromRequestParts<AppState> for FromFrame {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match parts.headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
            Some(origin) if origin.trim_end_matches('/') != state.config.frame_url => {
                Err(ApiError::new(StatusCode::FORBIDDEN, ErrorCode::OriginNotAllowed, format!("Origin {origin} may not call the wallet API")))
            }
            _ => Ok(FromFrame),
        }
    }
}

/// Guard: the live session of the request's `Authorization: Bearer` token (401 without one).
pub struct WalletSession(pub Session);

impl FromRequestParts<AppState> for WalletSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = bearer(&parts.headers)?;
        Ok(WalletSession(wallets(state)?.session(token).await?))
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectEmail {
    pub email: String,
    /// The frame's device secret (random, 32 to 128 characters, kept in the frame's origin only):
    /// the device is known by its hash, and codes and logins are bound to it.
    pub device_secret: String,
    /// The frame's current session token, if it has one (a live session for this email connects).
    pub token: Option<String>,
    /// The visitor's locale ('de', 'pt-BR'…), which the emails are written in; only picks their
    /// text (an unknown one is English). Without it, the request's Accept-Language.
    pub locale: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ActionReply {
    pub action: Action,
}

/// Connect email: VERIFY_DEVICE (a link was emailed), VERIFY_OTP (a code was emailed) or CONNECT.
#[utoipa::path(post, path = "/wallet/v1/connect-email", tag = "wallet", request_body = ConnectEmail,
    responses((status = 200, body = ActionReply), (status = 400, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody, description = "'Please try again after {n} seconds'")))]
pub async fn connect_email(
    State(state): State<AppState>,
    _: FromFrame,
    _: WriteBudget,
    headers: HeaderMap,
    MailLang(header_lang): MailLang,
    extract::Json(req): extract::Json<ConnectEmail>,
) -> ApiResult<Json<ActionReply>> {
    let requester = Requester { user_agent: headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(str::to_owned) };
    let lang = req.locale.as_deref().and_then(Lang::matching).unwrap_or(header_lang);
    let action = wallets(&state)?.connect_email(&req.email, &req.device_secret, req.token.as_deref(), &requester, lang).await?;
    Ok(Json(ActionReply { action }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectDevice {
    pub email: String,
    pub device_secret: String,
    /// As in connect-email: the language of the login code's email.
    pub locale: Option<String>,
}

/// Connect device, asked again and again while the user opens the emailed link: VERIFY_DEVICE
/// while the device is not approved yet (waiting is an answer, not an error), VERIFY_OTP once it
/// is (a login code goes out then).
#[utoipa::path(post, path = "/wallet/v1/connect-device", tag = "wallet", request_body = ConnectDevice,
    responses((status = 200, body = ActionReply, description = "VERIFY_DEVICE (not approved yet) or VERIFY_OTP (approved: a code was emailed)"), (status = 400, body = crate::error::ErrorBody)))]
pub async fn connect_device(
    State(state): State<AppState>,
    _: FromFrame,
    _: WriteBudget,
    MailLang(header_lang): MailLang,
    extract::Json(req): extract::Json<ConnectDevice>,
) -> ApiResult<Json<ActionReply>> {
    let lang = req.locale.as_deref().and_then(Lang::matching).unwrap_or(header_lang);
    Ok(Json(ActionReply { action: wallets(&state)?.connect_device(&req.email, &req.device_secret, lang).await? }))
}

#[derive(Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
pub struct ApproveQuery {
    /// The secret from the emailed link.
    pub token: Option<String>,
}

/// The link in the device-approval email: a page naming the device, with a button that
/// approves it. Opening the link approves nothing (mail scanners open links). The page is in the
/// language of the browser that opens it (Accept-Language; English for any other).
#[utoipa::path(get, path = "/wallet/v1/approve-device", tag = "wallet", params(ApproveQuery),
    responses((status = 200, description = "The approval page", content_type = "text/html"), (status = 404, description = "Unknown, used or expired", content_type = "text/html")))]
pub async fn approve_device_page(State(state): State<AppState>, MailLang(lang): MailLang, Query(q): Query<ApproveQuery>) -> Response {
    let secret = q.token.unwrap_or_default();
    let pending = match wallets(&state) {
        Ok(service) => service.pending_approval(&secret).await,
        Err(e) => Err(e),
    };
    let t = lang.page();
    match pending {
        Ok(Some((email, device))) => super::page::approval(lang, &email, &device, &secret),
        Ok(None) => super::page::message_in(lang, StatusCode::NOT_FOUND, t.unknown_title, t.unknown_text),
        Err(e) => super::page::message_in(lang, e.status, t.failed_title, &e.message),
    }
}

/// The approval page's button: the device may now log in with a code.
#[utoipa::path(post, path = "/wallet/v1/approve-device", tag = "wallet", request_body(content = ApproveQuery, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "Approved", content_type = "text/html"), (status = 404, description = "Unknown, used or expired", content_type = "text/html")))]
pub async fn approve_device(State(state): State<AppState>, _: CodeBudget, MailLang(lang): MailLang, axum::Form(q): axum::Form<ApproveQuery>) -> Response {
    let approved = match wallets(&state) {
        Ok(service) => service.approve_device(q.token.as_deref().unwrap_or_default()).await,
        Err(e) => Err(e),
    };
    let t = lang.page();
    match approved {
        Ok(()) => super::page::message_in(lang, StatusCode::OK, t.approved_title, t.approved_text),
        // Unknown, used or expired: said in the page's language.
        Err(e) if e.status == StatusCode::NOT_FOUND => super::page::message_in(lang, e.status, t.not_approved_title, t.unknown_text),
        Err(e) => super::page::message_in(lang, e.status, t.not_approved_title, &e.message),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectOtp {
    pub email: String,
    pub otp: String,
    pub device_secret: String,
}

#[derive(Serialize, ToSchema)]
pub struct SessionReply {
    /// Kept by the frame, on its own origin only.
    pub token: String,
    pub user: User,
}

/// Connect OTP: the emailed code; a session for the (new or known) user.
#[utoipa::path(post, path = "/wallet/v1/connect-otp", tag = "wallet", request_body = ConnectOtp,
    responses((status = 200, body = SessionReply), (status = 400, body = crate::error::ErrorBody)))]
pub async fn connect_otp(
    State(state): State<AppState>,
    _: FromFrame,
    _: CodeBudget,
    extract::Json(req): extract::Json<ConnectOtp>,
) -> ApiResult<Json<SessionReply>> {
    let (token, user) = wallets(&state)?.connect_otp(&req.email, &req.otp, &req.device_secret).await?;
    Ok(Json(SessionReply { token, user }))
}

/// Get user: the session's email and accounts.
#[utoipa::path(get, path = "/wallet/v1/user", tag = "wallet", responses((status = 200, body = User), (status = 401, body = crate::error::ErrorBody)))]
pub async fn user(_: FromFrame, WalletSession(session): WalletSession) -> Json<User> {
    Json(session.user)
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Connected {
    pub is_connected: bool,
}

/// Is connected: whether the token names a live session.
#[utoipa::path(get, path = "/wallet/v1/is-connected", tag = "wallet", responses((status = 200, body = Connected)))]
pub async fn is_connected(State(state): State<AppState>, _: FromFrame, headers: HeaderMap) -> ApiResult<Json<Connected>> {
    let live = match bearer(&headers) {
        Ok(token) => wallets(&state)?.session(token).await.is_ok(),
        Err(_) => false,
    };
    Ok(Json(Connected { is_connected: live }))
}

#[derive(Serialize, ToSchema)]
pub struct TokenReply {
    pub token: String,
}

/// A new token for the session (the old one ends).
#[utoipa::path(post, path = "/wallet/v1/refresh", tag = "wallet", responses((status = 200, body = TokenReply), (status = 401, body = crate::error::ErrorBody)))]
pub async fn refresh(State(state): State<AppState>, _: FromFrame, _: WriteBudget, headers: HeaderMap) -> ApiResult<Json<TokenReply>> {
    Ok(Json(TokenReply { token: wallets(&state)?.refresh(bearer(&headers)?).await? }))
}

/// Sign out: the session ends.
#[utoipa::path(post, path = "/wallet/v1/sign-out", tag = "wallet", responses((status = 204, description = "Signed out")))]
pub async fn sign_out(State(state): State<AppState>, _: FromFrame, headers: HeaderMap) -> ApiResult<StatusCode> {
    wallets(&state)?.sign_out(bearer(&headers)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RpcRequest {
    /// CAIP-2 chain id, e.g. eip155:1 or solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp.
    pub chain_id: String,
    pub method: String,
    #[serde(default)]
    #[schema(value_type = Object)]
    pub params: Value,
    /// How the user wants calls sent on EVM chains (the Account view's switch): one batch from
    /// the smart account (the default), or transaction by transaction from the EOA.
    #[serde(default)]
    pub account_type: crate::families::AccountType,
}

/// What the chain answered: a result, or its JSON-RPC error (insufficient funds, a revert),
/// which is the wallet's answer too and so not a server failure.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum RpcReply {
    Result {
        #[schema(value_type = Object)]
        result: Value,
    },
    Error {
        error: RpcError,
    },
}

/// RPC request from the frame (after the user approved it there, for methods that need it):
/// signatures and transactions made with the user's keys; reads through the RPC proxy; any
/// other method gets 'Requested RPC call is not allowed'.
#[utoipa::path(post, path = "/wallet/v1/rpc", tag = "wallet", request_body = RpcRequest,
    responses((status = 200, body = RpcReply), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)))]
pub async fn rpc(
    State(state): State<AppState>,
    _: FromFrame,
    ClientAddr(address): ClientAddr,
    WalletSession(Session { user, user_id, .. }): WalletSession,
    extract::Json(req): extract::Json<RpcRequest>,
) -> ApiResult<Json<RpcReply>> {
    let service = wallets(&state)?;
    let chain = req.chain_id.as_str();
    let refused = |e: SignError| match e {
        SignError::NotAllowed => ApiError::bad_request(ErrorCode::NotAllowed, NOT_ALLOWED),
        SignError::Params(m) => ApiError::bad_request(ErrorCode::InvalidParameter, m),
        SignError::Unreachable(m) => ApiError::new(StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, m),
        // Answered as the chain's JSON-RPC error below, never through here.
        SignError::Refused(e) => ApiError::bad_request(ErrorCode::InvalidParameter, e.message),
    };
    // The chain's family answers, signs or passes the request on; the embedded wallet has keys
    // for the families it has accounts in.
    let family = Family::of_chain(chain).filter(|f| f.embedded_key().is_some());
    let served = state.rpc.chains().get(chain).is_some() || family == Some(Family::Solana);
    let (Some(family), true) = (family, served) else {
        return Err(ApiError::invalid_param("chainId", format!("{chain} is not a chain this server serves")));
    };
    // What reaches the chain's nodes takes from the same upstream budget as /v1
    // (--rpc-requests-per-second), per user and per client address.
    let upstream = |calls: usize| -> ApiResult<()> {
        let now = std::time::Instant::now();
        state.rpc.limiter.take(&format!("wallet-user:{user_id}"), calls, now).map_err(ApiError::too_many_requests)?;
        state.rpc.limiter.take(&format!("wallet-address:{address}"), calls, now).map_err(ApiError::too_many_requests)
    };
    let namespace = family.namespace().as_str();
    let account = user.accounts.iter().find(|a| a.namespace == namespace).map(|a| a.address.clone()).unwrap_or_default();
    let answer = match family.wallet_request(&req.method, chain, &account).map_err(refused)? {
        Handling::Local(value) => Ok(value),
        Handling::Sign => {
            let calls = family.upstream_calls(&req.method, &req.params);
            if calls > 0 {
                upstream(calls)?;
            }
            let kind = family.embedded_key().ok_or_else(|| refused(SignError::NotAllowed))?;
            let secret = service.secret(&user_id, kind).await?;
            family.sign(&secret, &req.method, &req.params, &state.rpc, chain, req.account_type).await
        }
        Handling::Ask => {
            upstream(family.upstream_calls(&req.method, &req.params).max(1))?;
            family.ask(&req.method, &req.params, &state.rpc, &account, req.account_type).await
        }
        Handling::Read if state.rpc.allows(chain, &req.method) => {
            upstream(1)?;
            let params = req.params.to_string();
            match state
                .rpc
                .call(chain, &req.method, Some(&params))
                .await
                .map_err(|e| ApiError::new(StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, e.to_string()))?
            {
                crate::rpc::jsonrpc::Reply::Result(raw) => Ok(serde_json::from_str(&raw).map_err(ApiError::internal)?),
                crate::rpc::jsonrpc::Reply::Error(raw) => Err(SignError::Refused(RpcError::from_raw(&raw))),
            }
        }
        Handling::Read => return Err(refused(SignError::NotAllowed)),
    };
    match answer {
        Ok(result) => Ok(Json(RpcReply::Result { result })),
        Err(SignError::Refused(error)) => Ok(Json(RpcReply::Error { error })),
        Err(e) => Err(refused(e)),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateEmail {
    pub email: String,
}

#[derive(Deserialize, ToSchema)]
pub struct Otp {
    pub otp: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewEmail {
    pub new_email: String,
}

/// Update email: a code to the current address (VERIFY_PRIMARY_OTP); asked again for the same
/// address once that code was right, a new code to the new address (VERIFY_SECONDARY_OTP: the
/// code view's "Resend"). A wallet without an email gets the code at the new address at once.
#[utoipa::path(post, path = "/wallet/v1/update-email", tag = "wallet", request_body = UpdateEmail,
    responses((status = 200, body = ActionReply), (status = 429, body = crate::error::ErrorBody, description = "'Please try again after {n} seconds'")))]
pub async fn update_email(
    State(state): State<AppState>,
    _: FromFrame,
    WalletSession(session): WalletSession,
    _: WriteBudget,
    MailLang(lang): MailLang,
    extract::Json(req): extract::Json<UpdateEmail>,
) -> ApiResult<Json<ActionReply>> {
    let service = wallets(&state)?;
    Ok(Json(ActionReply { action: service.update_email(&session, &req.email, lang).await? }))
}

/// The current address's code: a code to the new address (VERIFY_SECONDARY_OTP).
#[utoipa::path(post, path = "/wallet/v1/update-email/primary", tag = "wallet", request_body = Otp, responses((status = 200, body = ActionReply)))]
pub async fn update_email_primary(
    State(state): State<AppState>,
    _: FromFrame,
    _: CodeBudget,
    WalletSession(session): WalletSession,
    MailLang(lang): MailLang,
    extract::Json(req): extract::Json<Otp>,
) -> ApiResult<Json<ActionReply>> {
    let service = wallets(&state)?;
    Ok(Json(ActionReply { action: service.update_email_primary(&session.user, &req.otp, lang).await? }))
}

/// The new address's code: the email changes.
#[utoipa::path(post, path = "/wallet/v1/update-email/secondary", tag = "wallet", request_body = Otp, responses((status = 200, body = NewEmail)))]
pub async fn update_email_secondary(
    State(state): State<AppState>,
    _: FromFrame,
    _: CodeBudget,
    WalletSession(session): WalletSession,
    extract::Json(req): extract::Json<Otp>,
) -> ApiResult<Json<NewEmail>> {
    let service = wallets(&state)?;
    Ok(Json(NewEmail { new_email: service.update_email_secondary(&session, &req.otp).await? }))
}

/// A code to confirm exporting the private keys.
#[utoipa::path(post, path = "/wallet/v1/export/request", tag = "wallet", responses((status = 204, description = "Code sent")))]
pub async fn export_request(
    State(state): State<AppState>,
    _: FromFrame,
    WalletSession(session): WalletSession,
    _: WriteBudget,
    MailLang(lang): MailLang,
) -> ApiResult<StatusCode> {
    wallets(&state)?.export_request(&session.user, lang).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedKeys {
    /// The EVM private key (0x hex).
    pub eip155: String,
    /// The Solana keypair (base58, 64 bytes).
    pub solana: String,
}

/// The user's own keys after a fresh code, for the frame to show (never the host page).
#[utoipa::path(post, path = "/wallet/v1/export", tag = "wallet", request_body = Otp, responses((status = 200, body = ExportedKeys), (status = 400, body = crate::error::ErrorBody)))]
pub async fn export(
    State(state): State<AppState>,
    _: FromFrame,
    _: CodeBudget,
    WalletSession(session): WalletSession,
    extract::Json(req): extract::Json<Otp>,
) -> ApiResult<Json<ExportedKeys>> {
    let (eip155, solana) = wallets(&state)?.export(&session, &req.otp).await?;
    Ok(Json(ExportedKeys { eip155, solana }))
}

/// The frame's API and its page. Served on the frame origin only. Its answers hold tokens,
/// keys and logins: never stored by a cache.
pub fn router() -> utoipa_axum::router::OpenApiRouter<AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(connect_email))
        .routes(utoipa_axum::routes!(connect_device))
        .routes(utoipa_axum::routes!(approve_device_page, approve_device))
        .routes(utoipa_axum::routes!(connect_otp))
        .routes(utoipa_axum::routes!(user))
        .routes(utoipa_axum::routes!(is_connected))
        .routes(utoipa_axum::routes!(refresh))
        .routes(utoipa_axum::routes!(sign_out))
        .routes(utoipa_axum::routes!(rpc))
        .routes(utoipa_axum::routes!(update_email))
        .routes(utoipa_axum::routes!(update_email_primary))
        .routes(utoipa_axum::routes!(update_email_secondary))
        .routes(utoipa_axum::routes!(export_request))
        .routes(utoipa_axum::routes!(export))
        .routes(utoipa_axum::routes!(super::login_routes::socials))
        .routes(utoipa_axum::routes!(super::login_routes::social_redirect))
        .routes(utoipa_axum::routes!(super::login_routes::social_callback))
        .route(super::social::CALLBACK_PATH, axum::routing::post(super::login_routes::social_callback_form))
        .routes(utoipa_axum::routes!(super::login_routes::social_connect))
        .routes(utoipa_axum::routes!(super::login_routes::farcaster_uri))
        .routes(utoipa_axum::routes!(super::login_routes::farcaster_connect))
        .routes(utoipa_axum::routes!(super::login_routes::farcaster_authenticate))
        .route_layer(axum::middleware::map_response(crate::guards::no_store))
}

#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct FrameQuery {
    /// The host page's project: its allowed origins are the only pages that may embed the frame.
    pub project_id: Option<String>,
}

/// Where the frame page's `<meta name="sigil-allowed-origins">` takes the project's origins.
pub const ALLOWED_ORIGINS_SLOT: &str = "__SIGIL_ALLOWED_ORIGINS__";

/// Text escaped for an HTML attribute value.
fn html_attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The frame page (web/packages/frame, built), embeddable only by the project's allowed
/// origins (CSP `frame-ancestors`), which it also lists for itself (the origins it answers).
pub async fn frame_page(State(state): State<AppState>, Query(q): Query<FrameQuery>) -> ApiResult<Response> {
    let project = match q.project_id.as_deref() {
        Some(id) if sigil_core::project::is_project_id(id) => state.projects.find(&state.db, id).await?,
        _ => None,
    };
    let Some(project) = project else { return Err(ApiError::project_id_invalid()) };
    let page = tokio::fs::read_to_string(state.config.settings.wallet.frame_dir.join("index.html"))
        .await
        .map_err(|_| ApiError::not_found("The frame page is not built (web/packages/frame)"))?;
    let ancestors = project.allowed_origins.iter().map(|o| o.to_string()).collect::<Vec<_>>().join(" ");
    // The page answers messages only from these origins: it reads them from its meta tag.
    let page = page.replace(ALLOWED_ORIGINS_SLOT, &html_attribute(&ancestors));
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors {ancestors}"
    );
    let mut res = Html(page).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_str(&policy).map_err(ApiError::internal)?);
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    Ok(res)
}

/// The frame page's scripts and styles.
pub async fn frame_asset(State(state): State<AppState>, axum::extract::Path(file): axum::extract::Path<String>) -> ApiResult<Response> {
    if file.contains("..") || file.starts_with('/') || !file.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b)) {
        return Err(ApiError::not_found("No such asset"));
    }
    let path = state.config.settings.wallet.frame_dir.join("assets").join(&file);
    let bytes = tokio::fs::read(&path).await.map_err(|_| ApiError::not_found("No such asset"))?;
    let content_type = match path.extension().and_then(|e| e.to_str()) {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    };
    // Built file names carry a content hash: they never change.
    Ok(([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "public, max-age=31536000, immutable")], bytes).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_escaped_for_the_meta_tag() {
        assert_eq!(html_attribute("https://a.com http://*.b.org:8080"), "https://a.com http://*.b.org:8080");
        assert_eq!(html_attribute("\"><script>&"), "&quot;&gt;&lt;script&gt;&amp;");
    }
}
