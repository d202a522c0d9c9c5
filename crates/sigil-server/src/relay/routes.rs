//! GET /relay: the WebSocket handshake. The project and the client's JWT are checked before
//! the socket serves anything; a refusal is a close frame with the relay protocol's code 3000
//! and a reason, the only answer a browser's WebSocket can read.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use sigil_core::origin::is_allowed;
use sigil_core::relay_auth::{self, AuthError};
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::WebSocketStream;
use utoipa::IntoParams;

use crate::error::{ApiError, ErrorCode};
use crate::guards::ClientAddr;
use crate::listener::ConnectionPlace;
use crate::AppState;

/// Where the relay is served: a relay URL is this path on the server's address.
pub const PATH: &str = "/relay";

/// The query WalletConnect clients open the socket with.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RelayQuery {
    /// The client's EdDSA JWT (or `Authorization: Bearer`).
    pub auth: Option<String>,
    /// The project, from `sigil project add`.
    #[serde(rename = "projectId")]
    #[param(rename = "projectId", required = true)]
    pub project_id: Option<String>,
    /// The client's user agent, e.g. wc-2/js-2.21.8/browser.
    pub ua: Option<String>,
}

/// Why a handshake is refused: the close code and its reason.
type Refusal = (u16, String);

fn auth_refusal(e: AuthError) -> Refusal {
    let why = match e {
        AuthError::Expired => "JWT validation error: JWT Token is expired".to_owned(),
        AuthError::NotYetValid => "JWT validation error: JWT Token is not yet valid".to_owned(),
        AuthError::Missing => "JWT is missing".to_owned(),
        other => format!("JWT validation error: {other}"),
    };
    (3000, format!("Authorization error: {why}"))
}

/// The audiences a token may name: the URLs this relay is reached at.
fn audiences(state: &AppState, headers: &HeaderMap) -> Vec<String> {
    let mut out = state.relay.settings.audiences.clone();
    if let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) {
        out.push(format!("ws://{host}{PATH}"));
        out.push(format!("wss://{host}{PATH}"));
    }
    out
}

/// The client's id (its JWT issuer), or the refusal.
async fn admit(state: &AppState, query: &RelayQuery, headers: &HeaderMap) -> Result<String, Refusal> {
    let refuse = |why: &str| (3000, format!("Authorization error: {why}"));
    let Some(project_id) = query.project_id.as_deref().filter(|p| !p.is_empty()) else { return Err(refuse("Project ID is missing")) };
    let project = match state.projects.find(&state.db, project_id).await {
        Ok(Some(project)) => project,
        Ok(None) => return Err(refuse("Invalid Project ID")),
        Err(e) => {
            tracing::error!(error = %e, "relay handshake: reading the project failed");
            return Err((1011, "The relay cannot check the project right now".into()));
        }
    };
    // Browsers name the page; a page outside the project's origins may not use its relay.
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
        if !is_allowed(&project.allowed_origins, origin) {
            return Err(refuse(&format!("Origin {origin} is not allowed for this project")));
        }
    }
    let bearer = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    let token = query.auth.as_deref().or(bearer).unwrap_or("");
    let now = crate::db::now_ms() / 1000;
    relay_auth::verify(token, &audiences(state, headers), now).map(|claims| claims.iss).map_err(auth_refusal)
}

/// The WalletConnect relay (WebSocket, JSON-RPC `irn_*` and `wc_proposeSession` /
/// `wc_approveSession`). Refusals close the socket with 3000 and a reason.
#[utoipa::path(get, path = "/relay", tag = "relay", params(RelayQuery),
    responses((status = 101, description = "Switching to the WebSocket relay protocol"),
        (status = 400, body = crate::error::ErrorBody, description = "Not a WebSocket handshake")))]
pub async fn connect(State(state): State<AppState>, ClientAddr(address): ClientAddr, request: Request) -> Response {
    let headers = request.headers();
    let upgrade = headers.get(header::UPGRADE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    let Some(key) = headers.get(header::SEC_WEBSOCKET_KEY).filter(|_| upgrade) else {
        return ApiError::bad_request(ErrorCode::BadRequest, "This is the WalletConnect relay: open it as a WebSocket").into_response();
    };
    let accept = derive_accept_key(key.as_bytes());
    let query: RelayQuery = crate::extract::parse_query(request.uri().query().unwrap_or("")).unwrap_or_default();
    let verdict = admit(&state, &query, headers).await;
    let slot = state.relay.admit(address);
    // An admitted socket keeps its connection's place in the listener's descriptor budget for
    // as long as it is open: relay sockets and HTTP connections share one budget.
    let place = match (&verdict, &slot) {
        (Ok(_), Ok(_)) => request.extensions().get::<ConnectionPlace>().and_then(ConnectionPlace::take),
        _ => None,
    };
    let relay = state.relay.clone();
    let max_frame = relay.settings.max_message_bytes * 2 + 64 * 1024;
    let on_upgrade = hyper::upgrade::on(request);
    tokio::spawn(async move {
        let Ok(upgraded) = on_upgrade.await else { return };
        // Small buffers: most sockets sit idle, and ten thousand of them must fit.
        let config = WebSocketConfig::default()
            .read_buffer_size(4 * 1024)
            .write_buffer_size(0)
            .max_write_buffer_size(max_frame * 4)
            .max_message_size(Some(max_frame))
            .max_frame_size(Some(max_frame));
        let ws = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config)).await;
        match (verdict, slot) {
            (Ok(client), Ok(_slot)) => super::socket::serve(relay, ws, client, address).await,
            (Ok(_), Err(why)) => super::socket::refuse(ws, 1013, why.into()).await,
            (Err((code, reason)), _) => super::socket::refuse(ws, code, reason).await,
        }
        drop(place);
    });
    let mut res = Response::new(Body::empty());
    *res.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = res.headers_mut();
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    h.insert(header::SEC_WEBSOCKET_ACCEPT, HeaderValue::from_str(&accept).expect("base64 is a header value"));
    res
}

/// The relay and Verify routes: open (the relay checks its project itself).
pub fn router() -> utoipa_axum::router::OpenApiRouter<AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(connect))
        .routes(utoipa_axum::routes!(super::verify::public_key))
        .routes(utoipa_axum::routes!(super::verify::attestation))
}
