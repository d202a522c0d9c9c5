//! The wallet directory: wallets imported from a JSON file, listed with filters and paging, and
//! their logos (real bytes where the data has one, a generated SVG otherwise).

pub mod images;
pub mod import;
pub mod routes;
pub mod snapshot;
pub mod store;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One way a wallet is injected into pages (e.g. eip155 / isMetaMask).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
pub struct Injected {
    pub namespace: String,
    pub injected_id: String,
}

/// A wallet as the directory API returns it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ToSchema)]
pub struct Wallet {
    /// Explorer id (64 hex).
    pub id: String,
    pub name: String,
    /// Id for GET /getWalletImage/{id}.
    pub image_id: String,
    /// Absolute URL of the logo (append projectId, st, sv).
    #[serde(default)]
    pub image_url: String,
    /// EIP-6963 reverse DNS name.
    pub rdns: Option<String>,
    pub homepage: Option<String>,
    pub mobile_link: Option<String>,
    pub desktop_link: Option<String>,
    pub webapp_link: Option<String>,
    pub app_store: Option<String>,
    pub play_store: Option<String>,
    pub chrome_store: Option<String>,
    pub injected: Vec<Injected>,
    /// CAIP-2 ids of supported chains.
    pub chains: Vec<String>,
    /// Directory ranking, lower first; null sorts last.
    pub order: Option<i64>,
}

/// GET /getWallets, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::get_wallets))
}

/// The image routes: public, with no project id, so `image_url` loads as-is in any `<img>`.
pub fn image_router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(images::wallet_image))
        .routes(utoipa_axum::routes!(images::asset_image))
        .routes(utoipa_axum::routes!(images::currency_image))
        .routes(utoipa_axum::routes!(images::token_image))
}
