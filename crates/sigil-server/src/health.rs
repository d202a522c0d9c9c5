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

/// Prometheus metrics: request counts and latency histograms per route.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text exposition format", content_type = "text/plain")))]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics.render())
}

/// Operations routes, open to all.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(health)).routes(utoipa_axum::routes!(metrics))
}
