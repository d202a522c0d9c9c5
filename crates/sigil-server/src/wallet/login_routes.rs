//! Social login and Farcaster routes, on the frame origin: the frame starts and claims a
//! login; the provider's callback and the Farcaster app's authenticate call come from outside.

use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::farcaster::{Authenticate, Registry};
use super::login::{claim_of, state_of, Claim};
use super::page;
use super::routes::{wallets, FromFrame};
use crate::error::{ApiError, ApiResult};
use crate::extract::{self, Query};
use crate::guards::WriteBudget;
use crate::AppState;

#[derive(Serialize, ToSchema)]
pub struct SocialProvider {
    pub id: String,
    /// For the button: "Continue with {label}".
    pub label: String,
}

/// The social logins this server is configured for, in its order (Farcaster is always there
/// when the wallet is).
#[utoipa::path(get, path = "/wallet/v1/socials", tag = "wallet", responses((status = 200, body = Vec<SocialProvider>)))]
pub async fn socials(State(state): State<AppState>, _: FromFrame) -> ApiResult<Json<Vec<SocialProvider>>> {
    wallets(&state)?;
    let mut list: Vec<SocialProvider> = state.config.socials.providers.iter().map(|p| SocialProvider { id: p.id.clone(), label: p.label.clone() }).collect();
    list.push(SocialProvider { id: "farcaster".into(), label: "Farcaster".into() });
    Ok(Json(list))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SocialRedirect {
    /// google, x, discord, github, apple, facebook or a configured issuer's id.
    pub provider: String,
    /// The frame's device secret: only the frame holding it can claim the login.
    pub device_secret: String,
    /// For a full-page login (popups blocked): the host page to come back to. It must be on
    /// an origin the frame page's project lists by name (not by '*').
    pub return_url: Option<String>,
    /// The project of the frame page (from its own URL).
    pub project_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct UriReply {
    /// The provider's login page.
    pub uri: String,
}

/// Get social redirect URI: the provider's login page for a new login (single use, 10 min).
#[utoipa::path(post, path = "/wallet/v1/social/redirect", tag = "wallet", request_body = SocialRedirect,
    responses((status = 200, body = UriReply), (status = 400, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody, description = "The provider is unreachable")))]
pub async fn social_redirect(
    State(state): State<AppState>,
    _: FromFrame,
    _: WriteBudget,
    extract::Json(req): extract::Json<SocialRedirect>,
) -> ApiResult<Json<UriReply>> {
    let return_url = match &req.return_url {
        Some(url) => Some(allowed_return_url(&state, url, req.project_id.as_deref()).await?),
        None => None,
    };
    let uri = wallets(&state)?.social_start(&state.config.socials, &req.provider, &req.device_secret, return_url).await?;
    Ok(Json(UriReply { uri }))
}

/// A full-page login may only come back to a page on an origin the project names: its exact
/// origins and its own wildcard subdomains, never through '*' (a project open to every origin
/// would make the frame origin a redirector to anywhere, carrying the login's claim secret).
async fn allowed_return_url(state: &AppState, url: &str, project_id: Option<&str>) -> ApiResult<String> {
    let project = match project_id {
        Some(id) if sigil_core::project::is_project_id(id) => state.projects.find(&state.db, id).await?,
        _ => None,
    };
    let Some(project) = project else { return Err(ApiError::project_id_invalid()) };
    let parsed = url::Url::parse(url).map_err(|e| ApiError::invalid_param("returnUrl", e))?;
    let origin = parsed.origin().ascii_serialization();
    let named: Vec<_> = project.allowed_origins.iter().filter(|o| **o != sigil_core::origin::OriginPattern::Any).cloned().collect();
    if !matches!(parsed.scheme(), "http" | "https") || !sigil_core::origin::is_allowed(&named, &origin) {
        let why = if named.len() < project.allowed_origins.len() {
            format!("{origin} is not an origin the project names (a full-page login returns only to those, not through '*')")
        } else {
            format!("{origin} is not an allowed origin of the project")
        };
        return Err(ApiError::invalid_param("returnUrl", why));
    }
    Ok(parsed.to_string())
}

#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
pub struct CallbackParams {
    pub state: Option<String>,
    pub code: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

/// The provider sends the browser back here (GET, or a form POST for Apple). A popup shows
/// the outcome and the modal closes it; a full-page login goes back to the host page.
#[utoipa::path(get, path = "/wallet/v1/social/callback", tag = "wallet", params(CallbackParams),
    responses((status = 200, description = "Logged in", content_type = "text/html"), (status = 303, description = "Back to the host page"), (status = 400, description = "Refused, with the reason", content_type = "text/html")))]
pub async fn social_callback(State(state): State<AppState>, Query(q): Query<CallbackParams>) -> Response {
    callback(state, q).await
}

/// Apple's `response_mode=form_post`.
pub async fn social_callback_form(State(state): State<AppState>, axum::Form(q): axum::Form<CallbackParams>) -> Response {
    callback(state, q).await
}

async fn callback(state: AppState, q: CallbackParams) -> Response {
    let outcome = match wallets(&state) {
        Ok(service) => {
            service
                .social_callback(
                    &state.config.socials,
                    q.state.as_deref().unwrap_or_default(),
                    q.code.as_deref(),
                    q.error.as_deref(),
                    q.error_description.as_deref(),
                )
                .await
        }
        Err(e) => Err(e),
    };
    match outcome {
        Ok(returned) => match (returned.return_to, returned.failure) {
            (Some(to), _) => Redirect::to(&to).into_response(),
            (None, None) => page::login_returned(
                StatusCode::OK,
                &format!("Logged in with {}", returned.provider_label),
                "You can close this window.",
                &returned.state,
                returned.claim.as_deref(),
            ),
            (None, Some(failure)) => page::login_returned(StatusCode::BAD_REQUEST, "Login failed", &failure.message, &returned.state, None),
        },
        Err(e) => page::message(e.status, "Login failed", &e.message),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectSocial {
    /// The provider URI the login started with, the host page's return URL
    /// (`sigil_social=`, with `sigil_claim=`), or the bare state.
    pub uri: String,
    /// The device secret the login was started with.
    pub device_secret: String,
    /// The claim secret the callback gave the browser (a message to the frame from the login
    /// window); a full-page login's return URL carries it instead.
    pub claim: Option<String>,
}

/// How long one connect call waits for the person to finish at the provider.
fn claim_wait(state: &AppState) -> Duration {
    (state.config.settings.server.request_timeout / 2).clamp(Duration::from_secs(1), Duration::from_secs(20))
}

/// Connect social: the login's session, for the device that started it and the claim secret
/// its browser was given when the provider sent it back (`{"status":"pending"}` while the
/// person has not finished, `{"status":"returned"}` when the claim secret is needed).
#[utoipa::path(post, path = "/wallet/v1/social/connect", tag = "wallet", request_body = ConnectSocial,
    responses((status = 200, body = Claim), (status = 400, body = crate::error::ErrorBody, description = "Cancelled (login_cancelled), refused or not verified, with the reason")))]
pub async fn social_connect(State(state): State<AppState>, _: FromFrame, extract::Json(req): extract::Json<ConnectSocial>) -> ApiResult<Json<Claim>> {
    let login = state_of(&req.uri).ok_or_else(|| ApiError::invalid_param("uri", "it carries no login state"))?;
    let secret = req.claim.or_else(|| claim_of(&req.uri));
    let claim = wallets(&state)?.claim(&login, &req.device_secret, secret.as_deref(), claim_wait(&state)).await?;
    Ok(Json(claim))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FarcasterUri {
    pub device_secret: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FarcasterChannel {
    /// For the Farcaster app: shown as a QR code and a link.
    pub url: String,
    /// The frame connects with it.
    pub channel_token: String,
}

/// Get Farcaster URI: a new Sign In With Farcaster channel.
#[utoipa::path(post, path = "/wallet/v1/farcaster/uri", tag = "wallet", request_body = FarcasterUri, responses((status = 200, body = FarcasterChannel)))]
pub async fn farcaster_uri(
    State(state): State<AppState>,
    _: FromFrame,
    _: WriteBudget,
    extract::Json(req): extract::Json<FarcasterUri>,
) -> ApiResult<Json<FarcasterChannel>> {
    let (url, channel_token) = wallets(&state)?.farcaster_start(&req.device_secret, &state.config.settings.wallet.farcaster_app_url).await?;
    Ok(Json(FarcasterChannel { url, channel_token }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectFarcaster {
    pub channel_token: String,
    pub device_secret: String,
}

/// Connect Farcaster: the session once the Farcaster app signed in on the channel
/// (`{"status":"pending"}` while not yet, with `refused` when a message posted to it was
/// refused); its userName.
#[utoipa::path(post, path = "/wallet/v1/farcaster/connect", tag = "wallet", request_body = ConnectFarcaster,
    responses((status = 200, body = Claim), (status = 400, body = crate::error::ErrorBody)))]
pub async fn farcaster_connect(State(state): State<AppState>, _: FromFrame, extract::Json(req): extract::Json<ConnectFarcaster>) -> ApiResult<Json<Claim>> {
    let claim = wallets(&state)?.claim(&req.channel_token, &req.device_secret, None, claim_wait(&state)).await?;
    Ok(Json(claim))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Authenticated {
    pub user_name: String,
}

/// The Farcaster app posts the signed message to the channel (its token as the bearer).
#[utoipa::path(post, path = "/farcaster/v1/channel/authenticate", tag = "wallet", request_body = Authenticate,
    responses((status = 200, body = Authenticated), (status = 400, body = crate::error::ErrorBody, description = "Not signed by the fid's custody address, or not for this channel"), (status = 401, body = crate::error::ErrorBody)))]
pub async fn farcaster_authenticate(
    State(state): State<AppState>,
    headers: HeaderMap,
    _: WriteBudget,
    extract::Json(req): extract::Json<Authenticate>,
) -> ApiResult<Json<Authenticated>> {
    let token = crate::guards::bearer(&headers)?;
    let s = &state.config.settings.wallet;
    let registry = Registry { chain: &s.farcaster_chain, address: &s.farcaster_id_registry };
    let user_name = wallets(&state)?.farcaster_authenticate(&state.rpc, &registry, token, &req).await?;
    Ok(Json(Authenticated { user_name }))
}
