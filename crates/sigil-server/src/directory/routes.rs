//! GET /getWallets

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use sigil_core::caip::ChainId;
use sigil_core::wallet_id::is_explorer_id;
use utoipa::{IntoParams, ToSchema};

use super::snapshot::{WalletFilter, DEFAULT_ENTRIES};
use super::Wallet;
use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::query::{list, text, within, ProjectQuery};
use crate::AppState;

/// The body of GET /getWallets; the snapshot writes it from each wallet's stored JSON.
#[derive(Serialize, ToSchema)]
pub struct WalletsResponse {
    /// Number of wallets matching the filters (at most 100 with `search`).
    pub count: i64,
    pub data: Vec<Wallet>,
}

/// Query parameters of GET /getWallets (besides projectId, st, sv).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WalletsQuery {
    /// 1-based page number (1..=10000). Default 1.
    pub page: Option<u32>,
    /// Page size, 1..=100. Default 40.
    pub entries: Option<u32>,
    /// Comma-separated wallet ids: only these.
    pub include: Option<String>,
    /// Comma-separated wallet ids: not these.
    pub exclude: Option<String>,
    /// Comma-separated CAIP-2 ids: wallets supporting any of them.
    pub chains: Option<String>,
    /// Case-insensitive text in name or rdns; at most 100 results.
    pub search: Option<String>,
    /// `certified` or `none`.
    pub badge_type: Option<String>,
    /// Comma-separated EIP-6963 rdns names.
    pub rdns: Option<String>,
}

const MAX_IDS: usize = 500;

fn ids(name: &str, value: &Option<String>) -> ApiResult<Vec<String>> {
    let ids: Vec<String> = list(name, value, MAX_IDS)?.into_iter().map(|i| i.to_ascii_lowercase()).collect();
    if let Some(bad) = ids.iter().find(|i| !is_explorer_id(i)) {
        return Err(ApiError::invalid_param(name, format!("'{bad}' is not a wallet id (64 hex characters)")));
    }
    Ok(ids)
}

impl WalletsQuery {
    /// The checked filter, page and page size.
    pub fn filter(&self) -> ApiResult<(WalletFilter, u32, u32)> {
        let page = within("page", self.page, 1..=10_000, 1)?;
        let entries = within("entries", self.entries, 1..=100, DEFAULT_ENTRIES)?;
        let chains = list("chains", &self.chains, 100)?;
        for c in &chains {
            c.parse::<ChainId>().map_err(|e| ApiError::invalid_param("chains", e))?;
        }
        let rdns = list("rdns", &self.rdns, 100)?;
        if let Some(bad) = rdns.iter().find(|r| r.len() > 255 || !r.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))) {
            return Err(ApiError::invalid_param("rdns", format!("'{bad}' is not a reverse-DNS name")));
        }
        let search = text(&self.search).map(str::to_lowercase);
        if search.as_ref().is_some_and(|s| s.chars().count() > 100) {
            return Err(ApiError::invalid_param("search", "at most 100 characters"));
        }
        let badge_type = match text(&self.badge_type) {
            None => None,
            Some(b @ ("certified" | "none")) => Some(b.to_owned()),
            Some(other) => return Err(ApiError::invalid_param("badge_type", format!("expected 'certified' or 'none', got '{other}'"))),
        };
        let filter = WalletFilter { include: ids("include", &self.include)?, exclude: ids("exclude", &self.exclude)?, chains, rdns, search, badge_type };
        Ok((filter, page, entries))
    }
}

/// Lists wallets: ordered by `order` then name, stable across pages.
#[utoipa::path(get, path = "/getWallets", tag = "directory",
    params(ProjectQuery, WalletsQuery),
    responses((status = 200, body = WalletsResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn get_wallets(
    State(state): State<AppState>,
    Query(project): Query<ProjectQuery>,
    Query(query): Query<WalletsQuery>,
) -> ApiResult<impl IntoResponse> {
    project.sdk()?;
    let (filter, page, entries) = query.filter()?;
    let body = state.directory.current().page(&filter, page, entries);
    Ok(([(header::CONTENT_TYPE, "application/json")], body))
}
