//! Account data: balances (native and configured ERC-20 tokens, with fiat values) and prices.

pub mod bitcoin;
pub mod evm;
pub mod prices;
pub mod routes;
pub mod solana;

/// Balance and price routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::balance)).routes(utoipa_axum::routes!(routes::price))
}
