//! GET /v1/account/{address}/balance and POST /v1/fungible/price

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use sigil_core::amount;
use sigil_core::caip::{AccountId, ChainId};
use utoipa::{IntoParams, ToSchema};

use super::prices;
use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::families::Family;
use crate::guards::UpstreamBudget;
use crate::projects::Project;
use crate::query::text;
use crate::AppState;

/// Balances are cached this long unless forceUpdate is set (spec: portfolio cache 30 s).
pub const BALANCE_TTL: Duration = Duration::from_secs(30);
pub const CACHE_MAX: usize = 10_000;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Quantity {
    /// Token decimals, as a string.
    pub decimals: String,
    /// Exact amount in whole tokens, as a decimal string.
    pub numeric: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenBalance {
    pub name: String,
    pub symbol: String,
    /// CAIP-2 chain id.
    pub chain_id: String,
    /// The token as a CAIP-10 id (`eip155:1:0xA0b8…`, `solana:…:<mint>`); null for the native
    /// currency.
    pub address: Option<String>,
    /// Fiat value of the quantity (0 on testnets and without a price).
    pub value: f64,
    /// Fiat price of one token (0 on testnets and without a price).
    pub price: f64,
    pub quantity: Quantity,
    pub icon_url: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BalanceResponse {
    pub balances: Vec<TokenBalance>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BalanceQuery {
    /// CAIP-2 chain id; an unsupported chain gives an empty list.
    #[serde(rename = "chainId")]
    #[param(rename = "chainId", required = true)]
    pub chain_id: Option<String>,
    /// Fiat currency; `usd`.
    pub currency: Option<String>,
    /// Skip the 30 s cache: `true`, or the CAIP-10 ids of the tokens just traded, comma-separated
    /// (the AppKit client's form after a swap; the whole answer is read again); `false` or empty:
    /// the cache may answer.
    #[serde(rename = "forceUpdate")]
    #[param(rename = "forceUpdate")]
    pub force_update: Option<String>,
}

impl BalanceQuery {
    /// Whether the cache is skipped.
    pub fn forced(&self) -> bool {
        text(&self.force_update).is_some_and(|v| !v.eq_ignore_ascii_case("false") && v != "0")
    }
}

/// Recent balance answers by (chain, address, currency).
pub type BalanceCache = crate::cache::TtlCache<(String, String, String), Vec<TokenBalance>>;

fn currency(value: &Option<String>) -> ApiResult<String> {
    match text(value).map(str::to_ascii_lowercase).as_deref() {
        None | Some("usd") => Ok("usd".into()),
        Some(other) => Err(ApiError::invalid_param("currency", format!("'{other}' is not supported; use usd"))),
    }
}

/// A token's icon (balances, prices, history): the one configured for it, else this server's
/// generated image for its listed symbol, when `token` (an address or mint; None: the chain's
/// coin) is the coin or in the chain's token list. Any other token gets "" (no icon): its
/// symbol is whatever its deployer chose, and a token calling itself USDC is not USDC.
pub(crate) fn token_icon(state: &AppState, chain: &ChainConfig, token: Option<&str>) -> String {
    let symbol = match token.map(|t| chain.token(t)) {
        None => &chain.native.symbol,
        Some(Some(listed)) => match &listed.icon {
            Some(icon) => return icon.clone(),
            None => &listed.symbol,
        },
        Some(None) => return String::new(),
    };
    format!("{}/public/getTokenImage/{}", state.config.public_url, path_segment(symbol))
}

/// `text` percent-encoded as one URL path segment (RFC 3986 unreserved characters kept).
fn path_segment(text: &str) -> String {
    text.bytes().map(|b| if b.is_ascii_alphanumeric() || b"-._~".contains(&b) { char::from(b).to_string() } else { format!("%{b:02X}") }).collect()
}

/// This server's image URLs get the asking project's id (image routes are behind the project
/// gate too). Done on the way out: cached answers are shared by every project.
pub(crate) fn for_project(state: &AppState, project: &Project, icon_url: &mut String) {
    if icon_url.starts_with(&format!("{}/public/", state.config.public_url)) {
        icon_url.push_str(&format!("?projectId={}", project.id));
    }
}

fn balance_response(state: &AppState, project: &Project, mut balances: Vec<TokenBalance>) -> Json<BalanceResponse> {
    balances.iter_mut().for_each(|b| for_project(state, project, &mut b.icon_url));
    Json(BalanceResponse { balances })
}

/// Native balance and every held token, as the chain's family reads them: ERC-20s (configured)
/// on EVM chains, SPL tokens on Solana, the address's confirmed and unconfirmed coins on Bitcoin.
#[utoipa::path(get, path = "/v1/account/{address}/balance", tag = "blockchain",
    params(("address" = String, Path, description = "The account's address as its chain writes it (EVM: 40 hex, optional 0x; Solana: base58; Bitcoin)"), BalanceQuery, crate::query::ProjectQuery),
    responses((status = 200, body = BalanceResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 503, body = crate::error::ErrorBody, description = "The chain's upstreams are down")))]
pub async fn balance(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    _: UpstreamBudget,
    Path(address): Path<String>,
    Query(query): Query<BalanceQuery>,
) -> ApiResult<Json<BalanceResponse>> {
    let chain_id = text(&query.chain_id).ok_or_else(|| ApiError::invalid_param("chainId", "required, e.g. eip155:1"))?;
    let parsed: ChainId = chain_id.parse().map_err(|e| ApiError::invalid_param("chainId", e))?;
    let currency = currency(&query.currency)?;
    let force = query.forced();
    let family = parsed.known_namespace().and_then(Family::of_namespace);
    let owner = match family {
        Some(family) => family.check_address(&address).map_err(|expected| ApiError::invalid_param("address", format!("expected {expected}")))?,
        None => address.clone(),
    };
    let chains = state.rpc.chains();
    // Balances are read by the chain's family; an unconfigured chain has none to show.
    let (Some(family), Some(chain)) = (family, chains.get(chain_id)) else {
        return Ok(Json(BalanceResponse { balances: Vec::new() }));
    };
    let key = (chain.id.clone(), owner.clone(), currency);
    if !force {
        if let Some(hit) = state.balance_cache.get(&key) {
            return Ok(balance_response(&state, &project, hit));
        }
    }
    let held = family.holdings(&state.rpc, chain, &owner).await?;
    let mut balances = Vec::new();
    for h in held {
        let numeric = amount::format_units(&h.integer, h.decimals);
        let price = if chain.testnet { 0.0 } else { prices::usd_price(&state.rpc, chains, chain, h.token.as_deref(), &h.symbol).await.unwrap_or(0.0) };
        let value = numeric.parse::<f64>().unwrap_or(0.0) * price;
        balances.push(TokenBalance {
            icon_url: h.icon.clone().unwrap_or_else(|| token_icon(&state, chain, h.token.as_deref())),
            name: h.name,
            symbol: h.symbol,
            chain_id: chain.id.clone(),
            // CAIP-10, as the AppKit client keeps only tokens of the active chain's id.
            address: h.token.map(|t| format!("{}:{t}", chain.id)),
            value,
            price,
            quantity: Quantity { decimals: h.decimals.to_string(), numeric },
        });
    }
    state.balance_cache.put(key, balances.clone());
    Ok(balance_response(&state, &project, balances))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PriceRequest {
    /// Fiat currency; `usd`.
    pub currency: String,
    /// CAIP-10 token ids, e.g. eip155:1:0xA0b8...; the chain's native currency is
    /// eip155:N:native (or, as the AppKit client writes it, eip155:N:0xeeee…eeee).
    pub addresses: Vec<String>,
    /// The project, when the query has none (the AppKit client names it here only).
    #[serde(rename = "projectId")]
    pub project_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FungiblePrice {
    pub name: String,
    pub symbol: String,
    pub icon_url: String,
    pub price: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PriceResponse {
    pub fungibles: Vec<FungiblePrice>,
}

/// Prices of tokens, by CAIP-10 id; unknown tokens are left out.
#[utoipa::path(post, path = "/v1/fungible/price", tag = "blockchain",
    params(crate::query::ProjectQuery),
    request_body = PriceRequest,
    responses((status = 200, body = PriceResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn price(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    _: UpstreamBudget,
    crate::extract::Json(req): crate::extract::Json<PriceRequest>,
) -> ApiResult<Json<PriceResponse>> {
    if !req.currency.eq_ignore_ascii_case("usd") {
        return Err(ApiError::invalid_param("currency", format!("'{}' is not supported; use usd", req.currency)));
    }
    if req.addresses.len() > 100 {
        return Err(ApiError::invalid_param("addresses", "at most 100"));
    }
    let chains = state.rpc.chains();
    let mut fungibles = Vec::new();
    for caip in &req.addresses {
        let id: AccountId = caip.parse().map_err(|e| ApiError::invalid_param("addresses", e))?;
        let Some(chain) = chains.get(&id.chain.to_string()) else { continue };
        let native =
            id.address.eq_ignore_ascii_case("native") || (id.chain.namespace() == "eip155" && id.address.eq_ignore_ascii_case(crate::convert::NATIVE_ADDRESS));
        let (token, name, symbol) = if native {
            (None, chain.native.name.clone(), chain.native.symbol.clone())
        } else {
            let Some(t) = chain.token(&id.address) else { continue };
            (Some(t.address.as_str()), t.name.clone(), t.symbol.clone())
        };
        let Some(price) = prices::usd_price(&state.rpc, chains, chain, token, &symbol).await else { continue };
        let mut icon_url = token_icon(&state, chain, token);
        for_project(&state, &project, &mut icon_url);
        fungibles.push(FungiblePrice { icon_url, name, symbol, price });
    }
    Ok(Json(PriceResponse { fungibles }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn force_update_forms() {
        let forced = |v: Option<&str>| super::BalanceQuery { force_update: v.map(str::to_owned), ..Default::default() }.forced();
        assert!(
            forced(Some("true")) && forced(Some("eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee,eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"))
        );
        assert!(!forced(None) && !forced(Some("")) && !forced(Some("false")) && !forced(Some("0")));
    }

    #[test]
    fn a_symbol_is_one_encoded_path_segment() {
        assert_eq!(super::path_segment("USDC.e"), "USDC.e");
        assert_eq!(super::path_segment("../a?b#c d"), "..%2Fa%3Fb%23c%20d");
        assert_eq!(super::path_segment("Ab…"), "Ab%E2%80%A6");
    }
}
