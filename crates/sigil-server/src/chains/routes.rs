//! GET /v1/supported-chains

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;

#[derive(Serialize, ToSchema)]
pub struct SupportedChains {
    /// CAIP-2 ids served over HTTP JSON-RPC (POST /v1?chainId=...).
    pub http: Vec<String>,
    /// CAIP-2 ids with a WebSocket upstream.
    pub ws: Vec<String>,
}

/// The chains this server proxies.
#[utoipa::path(get, path = "/v1/supported-chains", tag = "blockchain",
    params(crate::query::ProjectQuery),
    responses((status = 200, body = SupportedChains), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn supported_chains(State(state): State<AppState>) -> Json<SupportedChains> {
    let chains = &state.rpc.chains().by_id;
    Json(SupportedChains { http: chains.keys().cloned().collect(), ws: chains.values().filter(|c| !c.ws.is_empty()).map(|c| c.id.clone()).collect() })
}
