//! Account data: balances (what a chain family says an account holds, with fiat values) and prices.

pub mod prices;
pub mod routes;

/// Balance and price routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::balance)).routes(utoipa_axum::routes!(routes::price))
}
