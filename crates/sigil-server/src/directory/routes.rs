//! GET /getWallets

use axum::extract::State;
use axum::http::Uri;
use axum::Json;
use serde::Serialize;
use sigil_core::caip::ChainId;
use sigil_core::wallet_id::is_explorer_id;
use utoipa::{IntoParams, ToSchema};

use super::store::{self, WalletFilter};
use super::Wallet;
use crate::error::{ApiError, ApiResult};
use crate::query::Params;
use crate::AppState;

#[derive(Serialize, ToSchema)]
pub struct WalletsResponse {
    /// Number of wallets matching the filters (at most 100 with `search`).
    pub count: i64,
    pub data: Vec<Wallet>,
}

/// Query parameters of GET /getWallets (besides projectId, st, sv).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // documentation only: parsed by hand to name bad parameters
pub struct WalletsQuery {
    /// 1-based page number (1..=10000). Default 1.
    page: Option<u32>,
    /// Page size, 1..=100. Default 40.
    entries: Option<u32>,
    /// Comma-separated wallet ids: only these.
    include: Option<String>,
    /// Comma-separated wallet ids: not these.
    exclude: Option<String>,
    /// Comma-separated CAIP-2 ids: wallets supporting any of them.
    chains: Option<String>,
    /// Case-insensitive text in name or rdns; at most 100 results.
    search: Option<String>,
    /// `certified` or `none`.
    badge_type: Option<String>,
    /// Comma-separated EIP-6963 rdns names.
    rdns: Option<String>,
}

const MAX_IDS: usize = 500;

fn ids(params: &Params, name: &str) -> ApiResult<Vec<String>> {
    let ids = params.list(name, MAX_IDS)?;
    let ids: Vec<String> = ids.into_iter().map(|i| i.to_ascii_lowercase()).collect();
    if let Some(bad) = ids.iter().find(|i| !is_explorer_id(i)) {
        return Err(ApiError::invalid_param(name, format!("'{bad}' is not a wallet id (64 hex characters)")));
    }
    Ok(ids)
}

/// Parses and validates the query into a filter, a page and a page size.
pub fn parse_query(params: &Params) -> ApiResult<(WalletFilter, u32, u32)> {
    params.sdk()?;
    let page = params.int_in("page", 1..=10_000, 1)?;
    let entries = params.int_in("entries", 1..=100, 40)?;
    let chains = params.list("chains", 100)?;
    for c in &chains {
        c.parse::<ChainId>().map_err(|e| ApiError::invalid_param("chains", e))?;
    }
    let rdns = params.list("rdns", 100)?;
    if let Some(bad) = rdns.iter().find(|r| r.len() > 255 || !r.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))) {
        return Err(ApiError::invalid_param("rdns", format!("'{bad}' is not a reverse-DNS name")));
    }
    let search = params.text("search").map(str::to_lowercase);
    if search.as_ref().is_some_and(|s| s.chars().count() > 100) {
        return Err(ApiError::invalid_param("search", "at most 100 characters"));
    }
    let badge_type = match params.text("badge_type") {
        None => None,
        Some(b @ ("certified" | "none")) => Some(b.to_owned()),
        Some(other) => return Err(ApiError::invalid_param("badge_type", format!("expected 'certified' or 'none', got '{other}'"))),
    };
    let filter = WalletFilter { include: ids(params, "include")?, exclude: ids(params, "exclude")?, chains, rdns, search, badge_type };
    Ok((filter, page, entries))
}

/// Lists wallets: ordered by `order` then name, stable across pages.
#[utoipa::path(get, path = "/getWallets", tag = "directory",
    params(crate::query::ProjectQuery, WalletsQuery),
    responses((status = 200, body = WalletsResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn get_wallets(State(state): State<AppState>, uri: Uri) -> ApiResult<Json<WalletsResponse>> {
    let (filter, page, entries) = parse_query(&Params::from_uri(&uri))?;
    let (count, mut data) = store::list(&state.db, &filter, page, entries).await?;
    for w in &mut data {
        w.image_url = format!("{}/getWalletImage/{}", state.config.public_url, w.image_id);
    }
    Ok(Json(WalletsResponse { count, data }))
}
