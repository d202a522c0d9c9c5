//! Social login and Farcaster routes, on the frame origin: the frame starts and claims a
//! login; the provider's callback and the Farcaster app's authenticate call come from outside.

use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::farcaster::{Authenticate, Registry};
use super::login::{state_of, Claim};
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
    pub device_id: String,
    /// For a full-page login (popups blocked): the host page to come back to. It must be on
    /// one of the project's allowed origins.
    pub return_url: Option<String>,
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
    let uri = wallets(&state)?.social_start(&state.config.socials, &req.provider, &req.device_id, return_url).await?;
    Ok(Json(UriReply { uri }))
}

/// A full-page login may only come back to a page of the project's allowed origins.
async fn allowed_return_url(state: &AppState, url: &str, project_id: Option<&str>) -> ApiResult<String> {
    let project = match project_id {
        Some(id) if sigil_core::project::is_project_id(id) => state.projects.find(&state.db, id).await?,
        _ => None,
    };
    let Some(project) = project else { return Err(ApiError::project_id_invalid()) };
    let parsed = url::Url::parse(url).map_err(|e| ApiError::invalid_param("returnUrl", e))?;
    let origin = parsed.origin().ascii_serialization();
    if !matches!(parsed.scheme(), "http" | "https") || !sigil_core::origin::is_allowed(&project.allowed_origins, &origin) {
        return Err(ApiError::invalid_param("returnUrl", format!("{origin} is not an allowed origin of the project")));
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
            (None, None) => page(StatusCode::OK, &format!("Logged in with {}", returned.provider_label), "You can close this window."),
            (None, Some(failure)) => page(StatusCode::BAD_REQUEST, "Login failed", &failure),
        },
        Err(e) => page(e.status, "Login failed", &e.message),
    }
}

/// A small page for the popup (no script; the text is escaped: a provider's error text comes
/// from the URL).
fn page(status: StatusCode, title: &str, text: &str) -> Response {
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;");
    let body = format!(
        "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\"><title>{t}</title>\
         <body style=\"font:16px system-ui,sans-serif;margin:3em auto;max-width:28em;text-align:center\"><h1 style=\"font-size:1.25em\">{t}</h1><p id=message>{m}</p>",
        t = escape(title),
        m = escape(text)
    );
    let mut res = (status, Html(body)).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    res
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectSocial {
    /// The provider URI the login started with, the host page's return URL
    /// (`sigil_social=`), or the bare state.
    pub uri: String,
    pub device_id: String,
}

/// How long one connect call waits for the person to finish at the provider.
fn claim_wait(state: &AppState) -> Duration {
    Duration::from_secs(20.min(state.config.settings.request_timeout / 2).max(1))
}

/// Connect social: the login's session once the provider sent the person back
/// (`{"status":"pending"}` while not yet: ask again).
#[utoipa::path(post, path = "/wallet/v1/social/connect", tag = "wallet", request_body = ConnectSocial,
    responses((status = 200, body = Claim), (status = 400, body = crate::error::ErrorBody, description = "Cancelled, refused or not verified, with the reason")))]
pub async fn social_connect(State(state): State<AppState>, _: FromFrame, extract::Json(req): extract::Json<ConnectSocial>) -> ApiResult<Response> {
    let login = state_of(&req.uri).ok_or_else(|| ApiError::invalid_param("uri", "it carries no login state"))?;
    let claim = wallets(&state)?.claim(&login, &req.device_id, claim_wait(&state)).await?;
    Ok(no_store(Json(claim)))
}

fn no_store(reply: impl IntoResponse) -> Response {
    let mut res = reply.into_response();
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FarcasterUri {
    pub device_id: String,
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
    let (url, channel_token) = wallets(&state)?.farcaster_start(&req.device_id, &state.config.settings.farcaster_app_url).await?;
    Ok(Json(FarcasterChannel { url, channel_token }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectFarcaster {
    pub channel_token: String,
    pub device_id: String,
}

/// Connect Farcaster: the session once the Farcaster app signed in on the channel
/// (`{"status":"pending"}` while not yet); its userName.
#[utoipa::path(post, path = "/wallet/v1/farcaster/connect", tag = "wallet", request_body = ConnectFarcaster,
    responses((status = 200, body = Claim), (status = 400, body = crate::error::ErrorBody)))]
pub async fn farcaster_connect(State(state): State<AppState>, _: FromFrame, extract::Json(req): extract::Json<ConnectFarcaster>) -> ApiResult<Response> {
    let claim = wallets(&state)?.claim(&req.channel_token, &req.device_id, claim_wait(&state)).await?;
    Ok(no_store(Json(claim)))
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
    let s = &state.config.settings;
    let registry = Registry { chain: &s.farcaster_chain, address: &s.farcaster_id_registry };
    let user_name = wallets(&state)?.farcaster_authenticate(&state.rpc, &registry, token, &req).await?;
    Ok(Json(Authenticated { user_name }))
}
