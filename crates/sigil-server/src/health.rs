//! GET /health and GET /metrics.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `degraded` when the database does not answer.
    pub status: &'static str,
    /// `ok` or `unavailable`.
    pub database: &'static str,
    pub version: &'static str,
}

/// Liveness and database reachability.
#[utoipa::path(get, path = "/health", tag = "operations",
    responses((status = 200, body = Health), (status = 503, body = Health)))]
pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let version = env!("CARGO_PKG_VERSION");
    if crate::db::ping(&state.db).await {
        (StatusCode::OK, Json(Health { status: "ok", database: "ok", version }))
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(Health { status: "degraded", database: "unavailable", version }))
    }
}

/// Prometheus metrics: request counts and latency histograms per route, the relay's sockets
/// and mailbox size. Not served here when `--metrics-listen` gives them an address of their own.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text exposition format", content_type = "text/plain"),
        (status = 404, body = crate::error::ErrorBody, description = "Served on --metrics-listen instead")))]
pub async fn metrics(State(state): State<AppState>) -> axum::response::Response {
    if state.config.settings.server.metrics_listen.is_some() {
        return crate::error::ApiError::not_found(sigil_core::errors::NOT_FOUND).into_response();
    }
    render(&state).into_response()
}

/// The metrics text.
pub fn render(state: &AppState) -> impl IntoResponse {
    let mut text = state.metrics.render();
    text.push_str(&format!(
        "# HELP sigil_relay_sockets Open WalletConnect relay sockets.\n# TYPE sigil_relay_sockets gauge\nsigil_relay_sockets {}\n\
         # HELP sigil_relay_mailbox_bytes Bytes of live messages in the relay's mailbox.\n# TYPE sigil_relay_mailbox_bytes gauge\nsigil_relay_mailbox_bytes {}\n",
        state.relay.sockets(),
        state.relay.mailbox_bytes()
    ));
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text)
}

/// The metrics on an address of their own (`--metrics-listen`): only GET /metrics.
pub fn metrics_app(state: AppState) -> axum::Router {
    axum::Router::new().route("/metrics", axum::routing::get(|State(state): State<AppState>| async move { render(&state) })).with_state(state)
}

/// Operations routes, open to all.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(health)).routes(utoipa_axum::routes!(metrics))
}
