//! The six swap endpoints, in AppKit's shapes with Sigil's additions (the minimum received,
//! the price impact, the route, typed issues, exact approvals and the allowance reset):
//! GET /v1/convert/tokens, /quotes, /allowance, /gas-price, /build-approve and
//! POST /v1/convert/build-transaction.

use std::sync::Arc;

use alloy_primitives::U256;
use axum::extract::State;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use sigil_core::caip::ChainId;
use utoipa::{IntoParams, ToSchema};

use super::{
    chain_number, check_slippage, estimate_gas, gas_prices, holdings, holdings_calls, parse_amount, parse_token, parse_user, read_holdings, same_chain,
    shortfalls, swap_chain, Asset, Plan, SwapError, TokenId, Trade, AGGREGATOR_GAS, GAS_PER_HOP, HIGH_PRICE_IMPACT, NATIVE_ADDRESS, UNSUPPORTED_GAS_PRICE,
    UNSUPPORTED_SWAPS,
};
use crate::account::routes::{for_project, token_icon};
use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::guards::UpstreamBudget;
use crate::projects::Project;
use crate::query::text;
use crate::rpc::upstream_error;
use crate::AppState;

fn chain_param(value: &Option<String>) -> ApiResult<String> {
    let value = text(value).ok_or_else(|| ApiError::invalid_param("chainId", "required, e.g. eip155:1"))?;
    let id: ChainId = value.parse().map_err(|e| ApiError::invalid_param("chainId", e))?;
    Ok(id.to_string())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChainQuery {
    /// CAIP-2 id of an EVM chain with a swap source, e.g. eip155:1.
    #[serde(rename = "chainId")]
    #[param(rename = "chainId", required = true)]
    pub chain_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokensResponse {
    pub tokens: Vec<SwapToken>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SwapToken {
    pub name: String,
    pub symbol: String,
    /// CAIP-10; the native coin is eip155:<chain>:0xeeee...eeee.
    pub address: String,
    pub decimals: u8,
    /// An image URL ("" when the token has none).
    pub logo_uri: String,
}

/// The tokens to swap on a chain: its native coin first, then its listed tokens. A chain with
/// no swap source answers 'Network not supported for Swaps'.
#[utoipa::path(get, path = "/v1/convert/tokens", tag = "blockchain",
    params(ChainQuery, crate::query::ProjectQuery),
    responses((status = 200, body = TokensResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn tokens(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    Query(query): Query<ChainQuery>,
) -> ApiResult<Json<TokensResponse>> {
    let chain_id = chain_param(&query.chain_id)?;
    let (chain, _) = swap_chain(&state.rpc, &chain_id, UNSUPPORTED_SWAPS)?;
    let icon = |token: Option<&str>| {
        let mut url = token_icon(&state, chain, token);
        for_project(&state, &project, &mut url);
        url
    };
    let native = SwapToken {
        name: chain.native.name.clone(),
        symbol: chain.native.symbol.clone(),
        address: format!("{}:{NATIVE_ADDRESS}", chain.id),
        decimals: chain.native.decimals,
        logo_uri: icon(None),
    };
    let listed = chain.tokens.iter().map(|t| SwapToken {
        name: t.name.clone(),
        symbol: t.symbol.clone(),
        address: format!("{}:{}", chain.id, sigil_core::evm::checksummed(&t.address)),
        decimals: t.decimals,
        logo_uri: icon(Some(&t.address)),
    });
    Ok(Json(TokensResponse { tokens: std::iter::once(native).chain(listed).collect() }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QuotesQuery {
    /// How much of `from` to sell, a whole number of its smallest unit.
    #[param(required = true)]
    pub amount: Option<String>,
    /// The account that would swap (CAIP-10 or 0x): its balance and allowance are checked.
    #[serde(rename = "userAddress")]
    #[param(rename = "userAddress")]
    pub user_address: Option<String>,
    /// The token sold, CAIP-10.
    #[param(required = true)]
    pub from: Option<String>,
    /// The token bought, CAIP-10, on the same chain.
    #[param(required = true)]
    pub to: Option<String>,
    /// Accepted as AppKit sends it (wei); a quote from pools does not depend on it.
    #[serde(rename = "gasPrice")]
    #[param(rename = "gasPrice")]
    pub gas_price: Option<String>,
    /// Percent (0 to 50, default 1): the minimum received is the quote less this.
    pub slippage: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QuotesResponse {
    pub quotes: Vec<SwapQuote>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SwapQuote {
    /// Always null (AppKit's shape).
    pub id: Option<String>,
    pub from_amount: String,
    /// The token sold, CAIP-10.
    pub from_account: String,
    pub to_amount: String,
    /// The token bought, CAIP-10.
    pub to_account: String,
    /// The least received at `slippage`.
    pub to_amount_min: String,
    /// Percent.
    pub slippage: f64,
    /// Percent, the pools' fee left out: how much below the pools' current price this amount
    /// trades; null when the reserves cannot be read.
    pub price_impact: Option<f64>,
    /// The tokens the route passes through, as the pools hold them (the native coin as its
    /// wrapped token), CAIP-10; from an aggregator, the two tokens traded.
    pub route: Vec<String>,
    /// The quote's source, its key in the chains file: `uniswap_v2`, `oneinch`, `zerox` or `lifi`.
    pub source: &'static str,
    /// The contract the sold token is approved to (the router), CAIP-10; null when the source
    /// names none (an aggregator selling the native coin, which needs no approval).
    pub spender: Option<String>,
    /// What stands in the way of this swap as far as the chain says; empty when nothing.
    pub issues: Vec<Issue>,
}

/// Something to fix before a quote can be swapped, typed and in words.
#[derive(Debug, Serialize, ToSchema)]
pub struct Issue {
    /// `insufficient_balance`, `insufficient_allowance` or `price_impact_high`.
    pub code: &'static str,
    pub message: String,
}

fn is_wei(value: &str) -> bool {
    !value.is_empty() && value.len() <= 78 && value.bytes().all(|b| b.is_ascii_digit())
}

/// The best quote from the chain's swap source for selling `amount` of `from` for `to` (one
/// in `quotes`), with the minimum received at `slippage`, the price impact, the route and,
/// given `userAddress`, the balance and allowance issues. No pool for the pair: 400
/// `no_route`; empty pools or nothing out for the amount: 400 `insufficient_liquidity`.
#[utoipa::path(get, path = "/v1/convert/quotes", tag = "blockchain",
    params(QuotesQuery, crate::query::ProjectQuery),
    responses((status = 200, body = QuotesResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
pub async fn quotes(State(state): State<AppState>, _: UpstreamBudget, Query(query): Query<QuotesQuery>) -> ApiResult<Json<QuotesResponse>> {
    let (from, to) = (parse_token("from", text(&query.from))?, parse_token("to", text(&query.to))?);
    same_chain(&from, &to)?;
    let (chain, source) = swap_chain(&state.rpc, &from.chain, UNSUPPORTED_SWAPS)?;
    let amount = parse_amount("amount", text(&query.amount), source.max_amount())?;
    let user = text(&query.user_address).map(|u| parse_user("userAddress", Some(u), &chain.id)).transpose()?;
    if text(&query.gas_price).is_some_and(|g| !is_wei(g)) {
        return Err(ApiError::invalid_param("gasPrice", "expected wei in decimal digits"));
    }
    let slippage = check_slippage("slippage", query.slippage)?;
    let known = source.known_spender(&state.convert, &chain.id);
    let sold = from.asset;
    // The balance and allowance ride with the quote's own chain calls (one round trip).
    let riders = match (user, known) {
        (Some(user), Some(spender)) => holdings_calls(user, sold, spender),
        (Some(user), None) if sold == Asset::Native => holdings_calls(user, sold, Default::default()),
        _ => Vec::new(),
    };
    let trade = Trade { chain_number: chain_number(&chain.id), from: from.asset, to: to.asset, amount, user, slippage, with_tx: false, estimate: false };
    let (quote, answers) = source.quote_with(&state.convert, &state.rpc, &chain.id, &trade, &riders).await?;
    let (balance, allowance) = match (user, quote.spender) {
        (None, _) => Default::default(),
        // A spender learned only now (an aggregator's first answer on this chain): read after it.
        (Some(user), Some(spender)) if known.is_none() => holdings(&state.rpc, &chain.id, user, sold, spender).await.unwrap_or_default(),
        _ if riders.is_empty() => Default::default(),
        _ => read_holdings(sold, &answers),
    };
    let mut issues: Vec<Issue> = shortfalls(from.asset, amount, balance, allowance)
        .into_iter()
        .map(|e| Issue {
            code: match e {
                SwapError::InsufficientBalance { .. } => "insufficient_balance",
                _ => "insufficient_allowance",
            },
            message: e.to_string(),
        })
        .collect();
    if let Some(impact) = quote.price_impact.filter(|i| *i > HIGH_PRICE_IMPACT) {
        issues.push(Issue {
            code: "price_impact_high",
            message: format!("High price impact: this amount trades {impact}% below the pools' price; a smaller amount loses less"),
        });
    }
    let out = quote.amount_out();
    Ok(Json(QuotesResponse {
        quotes: vec![SwapQuote {
            id: None,
            from_amount: amount.to_string(),
            from_account: from.caip10(),
            to_amount: out.to_string(),
            to_account: to.caip10(),
            to_amount_min: quote.minimum_received(slippage).to_string(),
            slippage,
            price_impact: quote.price_impact,
            route: quote.path.iter().map(|a| format!("{}:{}", chain.id, a.to_checksum(None))).collect(),
            source: source.name(),
            spender: quote.spender.map(|s| format!("{}:{}", chain.id, s.to_checksum(None))),
            issues,
        }],
    }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AllowanceQuery {
    /// The token, CAIP-10.
    #[serde(rename = "tokenAddress")]
    #[param(rename = "tokenAddress", required = true)]
    pub token_address: Option<String>,
    /// The owner, CAIP-10 on the token's chain or 0x.
    #[serde(rename = "userAddress")]
    #[param(rename = "userAddress", required = true)]
    pub user_address: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AllowanceResponse {
    /// What the chain's swap spender may move of the owner's token, in its smallest unit (the
    /// native coin needs no allowance: the largest uint256).
    pub allowance: String,
    /// The spender (the router), CAIP-10.
    pub spender: String,
}

/// What the chain's swap router may spend of an account's token.
#[utoipa::path(get, path = "/v1/convert/allowance", tag = "blockchain",
    params(AllowanceQuery, crate::query::ProjectQuery),
    responses((status = 200, body = AllowanceResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
pub async fn allowance(State(state): State<AppState>, _: UpstreamBudget, Query(query): Query<AllowanceQuery>) -> ApiResult<Json<AllowanceResponse>> {
    let token = parse_token("tokenAddress", text(&query.token_address))?;
    let (chain, source) = swap_chain(&state.rpc, &token.chain, UNSUPPORTED_SWAPS)?;
    let user = parse_user("userAddress", text(&query.user_address), &chain.id)?;
    // What the token is swapped for does not change the spender of a router or of 1inch; an
    // aggregator not yet asked on this chain is asked for a quote of it against the coin.
    let spender = match token.asset {
        Asset::Native => source.known_spender(&state.convert, &chain.id).unwrap_or_default(),
        asset => source.spender(&state.convert, chain, asset, Asset::Native, None, user).await?,
    };
    let allowance = match token.asset {
        Asset::Native => U256::MAX,
        asset => {
            let (_, allowance) = holdings(&state.rpc, &chain.id, user, asset, spender).await.map_err(upstream_error)?;
            allowance.ok_or_else(|| ApiError::invalid_param("tokenAddress", "the chain answers no allowance for it: not an ERC-20 token"))?
        }
    };
    Ok(Json(AllowanceResponse { allowance: allowance.to_string(), spender: format!("{}:{}", chain.id, spender.to_checksum(None)) }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GasPriceResponse {
    /// Wei per gas, in decimal digits (with EIP-1559: a max fee per gas).
    pub standard: String,
    pub fast: String,
    pub instant: String,
}

/// Gas prices on a chain with a swap source; others answer 'Network not supported for Gas Price'.
#[utoipa::path(get, path = "/v1/convert/gas-price", tag = "blockchain",
    params(ChainQuery, crate::query::ProjectQuery),
    responses((status = 200, body = GasPriceResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
pub async fn gas_price(State(state): State<AppState>, _: UpstreamBudget, Query(query): Query<ChainQuery>) -> ApiResult<Json<GasPriceResponse>> {
    let chain_id = chain_param(&query.chain_id)?;
    let (chain, _) = swap_chain(&state.rpc, &chain_id, UNSUPPORTED_GAS_PRICE)?;
    let [standard, fast, instant] = gas_prices(&state.rpc, &chain.id).await.map_err(upstream_error)?;
    Ok(Json(GasPriceResponse { standard: standard.to_string(), fast: fast.to_string(), instant: instant.to_string() }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BuildApproveQuery {
    /// The owner, CAIP-10 or 0x.
    #[serde(rename = "userAddress")]
    #[param(rename = "userAddress", required = true)]
    pub user_address: Option<String>,
    /// The token to approve (the one sold), CAIP-10.
    #[param(required = true)]
    pub from: Option<String>,
    /// The token bought, CAIP-10, on the same chain.
    #[param(required = true)]
    pub to: Option<String>,
    /// The exact amount to allow, in the token's smallest unit (the swap's amount), or `max`
    /// for an unlimited allowance.
    #[param(required = true)]
    pub amount: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ApproveTx {
    /// The token sold, CAIP-10 (AppKit's client sends the approval to `tx.from`; it is the
    /// token's contract, as `to` is).
    pub from: String,
    /// The token's contract, CAIP-10: where the approval goes.
    pub to: String,
    pub data: String,
    /// Always "0".
    pub value: String,
    pub eip155: ApproveTxEip155,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApproveTxEip155 {
    /// Wei per gas (the standard gas price).
    pub gas_price: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApproveResponse {
    /// `approve(spender, amount)` on the token.
    pub tx: ApproveTx,
    /// The router, CAIP-10.
    pub spender: String,
    /// The allowance `tx` sets, in the token's smallest unit.
    pub amount: String,
    /// Whether `amount` is unlimited (asked with amount=max).
    pub unlimited: bool,
    /// The token refuses to change a non-zero allowance to another non-zero one (USDT) and
    /// the account's allowance is not 0 (or could not be read): send `resetTx` (an approval
    /// of 0) first, then `tx`.
    pub reset_first: bool,
    pub reset_tx: Option<ApproveTx>,
}

/// The approval a swap needs: `approve(router, amount)` on the token sold, for the exact amount
/// (`amount=max`: unlimited), and for a token whose allowance must go back to 0 before it
/// changes (USDT), the reset to send first when the account's allowance is not 0.
#[utoipa::path(get, path = "/v1/convert/build-approve", tag = "blockchain",
    params(BuildApproveQuery, crate::query::ProjectQuery),
    responses((status = 200, body = ApproveResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
pub async fn build_approve(State(state): State<AppState>, _: UpstreamBudget, Query(query): Query<BuildApproveQuery>) -> ApiResult<Json<ApproveResponse>> {
    let (from, to) = (parse_token("from", text(&query.from))?, parse_token("to", text(&query.to))?);
    same_chain(&from, &to)?;
    let (chain, source) = swap_chain(&state.rpc, &from.chain, UNSUPPORTED_SWAPS)?;
    let Asset::Erc20(token) = from.asset else {
        return Err(ApiError::invalid_param("from", "the native coin needs no approval"));
    };
    let user = parse_user("userAddress", text(&query.user_address), &chain.id)?;
    let (amount, unlimited) = match text(&query.amount) {
        Some(max) if max.eq_ignore_ascii_case("max") => (U256::MAX, true),
        None => {
            return Err(ApiError::invalid_param(
                "amount",
                "required: the exact amount to allow in the token's smallest unit, or max for an unlimited allowance",
            ))
        }
        given => (parse_amount("amount", given, source.max_amount())?, false),
    };
    let spender = source.spender(&state.convert, chain, from.asset, to.asset, (!unlimited).then_some(amount), user).await?;
    let resets = source.resets_allowance(token);
    let current = async {
        match resets {
            true => holdings(&state.rpc, &chain.id, user, from.asset, spender).await.ok().and_then(|(_, allowance)| allowance),
            false => None,
        }
    };
    let (prices, current) = tokio::join!(gas_prices(&state.rpc, &chain.id), current);
    let gas_price = prices.map_err(upstream_error)?[0].to_string();
    let approve = |amount: U256| ApproveTx {
        from: from.caip10(),
        to: from.caip10(),
        data: super::uniswap_v2::approve_data(spender, amount),
        value: "0".into(),
        eip155: ApproveTxEip155 { gas_price: gas_price.clone() },
    };
    let reset_first = resets && current.is_none_or(|c| !c.is_zero() && c != amount);
    Ok(Json(ApproveResponse {
        tx: approve(amount),
        spender: format!("{}:{}", chain.id, spender.to_checksum(None)),
        amount: amount.to_string(),
        unlimited,
        reset_first,
        reset_tx: reset_first.then(|| approve(U256::ZERO)),
    }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuildTransactionRequest {
    /// How much of `from` to sell, a whole number of its smallest unit (a string, or a JSON number).
    #[schema(value_type = String)]
    pub amount: Option<serde_json::Value>,
    pub eip155: Option<Eip155Options>,
    /// The token sold, CAIP-10.
    pub from: Option<String>,
    /// The token bought, CAIP-10, on the same chain.
    pub to: Option<String>,
    /// The account that swaps and receives, CAIP-10 or 0x.
    pub user_address: Option<String>,
    /// true: no gas estimate and no balance or allowance check (the approval may not be mined
    /// yet, as in a batch of approve and swap); the gas is then a fixed amount per hop.
    pub disable_estimate: Option<bool>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct Eip155Options {
    /// Percent (0 to 50, default 1).
    #[schema(value_type = f64)]
    pub slippage: Option<serde_json::Value>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransactionResponse {
    pub tx: SwapTx,
    /// The quote the transaction was built from.
    pub to_amount: String,
    /// The least the swap gives, or it reverts.
    pub to_amount_min: String,
    pub slippage: f64,
    /// Unix seconds after which the swap reverts (null: an aggregator's transaction, which
    /// carries its own).
    pub deadline: Option<u64>,
    /// Whether `tx.eip155.gas` was estimated, by the chain or by the aggregator (false:
    /// disableEstimate, and a fixed amount).
    pub gas_estimated: bool,
    /// As in the quote, CAIP-10.
    pub route: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SwapTx {
    /// The account, CAIP-10.
    pub from: String,
    /// The router, CAIP-10.
    pub to: String,
    pub data: String,
    /// The amount bought (AppKit's shape).
    pub amount: String,
    /// Wei to send with the transaction, only when selling the native coin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    pub eip155: SwapTxEip155,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SwapTxEip155 {
    pub gas: String,
    pub gas_price: String,
}

fn amount_text(value: &Option<serde_json::Value>) -> ApiResult<Option<String>> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
        Some(serde_json::Value::Number(n)) if n.is_u64() => Ok(Some(n.to_string())),
        Some(_) => Err(ApiError::invalid_param("amount", "expected a whole number of the token's smallest unit, as a string")),
    }
}

fn slippage_value(value: Option<&serde_json::Value>) -> ApiResult<Option<f64>> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => Ok(n.as_f64()),
        Some(serde_json::Value::String(s)) => s.trim().parse().map(Some).map_err(|_| ApiError::invalid_param("eip155.slippage", "expected a percentage")),
        Some(_) => Err(ApiError::invalid_param("eip155.slippage", "expected a percentage")),
    }
}

/// The swap transaction: on the chain's router, `swapExactETHForTokens`,
/// `swapExactTokensForETH` or `swapExactTokensForTokens` of `amount` along the best route, the
/// minimum received at `eip155.slippage` (default 1 %), a deadline, `value` only when selling
/// the native coin, and the gas estimated by the chain (after a balance and allowance check)
/// unless `disableEstimate`.
#[utoipa::path(post, path = "/v1/convert/build-transaction", tag = "blockchain",
    params(crate::query::ProjectQuery),
    request_body = BuildTransactionRequest,
    responses((status = 200, body = TransactionResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
pub async fn build_transaction(
    State(state): State<AppState>,
    _: UpstreamBudget,
    crate::extract::Json(req): crate::extract::Json<BuildTransactionRequest>,
) -> ApiResult<Json<TransactionResponse>> {
    let (from, to): (TokenId, TokenId) = (parse_token("from", req.from.as_deref().map(str::trim))?, parse_token("to", req.to.as_deref().map(str::trim))?);
    same_chain(&from, &to)?;
    let (chain, source) = swap_chain(&state.rpc, &from.chain, UNSUPPORTED_SWAPS)?;
    let amount = parse_amount("amount", amount_text(&req.amount)?.as_deref(), source.max_amount())?;
    let user = parse_user("userAddress", req.user_address.as_deref().map(str::trim), &chain.id)?;
    let slippage = check_slippage("eip155.slippage", slippage_value(req.eip155.as_ref().and_then(|e| e.slippage.as_ref()))?)?;
    let estimate = !req.disable_estimate.unwrap_or(false);
    let known = source.known_spender(&state.convert, &chain.id);
    let (rpc, chain_id, sold) = (&state.rpc, chain.id.as_str(), from.asset);
    let checks = |spender: Option<alloy_primitives::Address>| async move {
        match (estimate, spender) {
            (true, Some(spender)) => holdings(rpc, chain_id, user, sold, spender).await.map(Some),
            (true, None) if sold == Asset::Native => holdings(rpc, chain_id, user, sold, Default::default()).await.map(Some),
            _ => Ok(None),
        }
    };
    let trade = Trade { chain_number: chain_number(&chain.id), from: from.asset, to: to.asset, amount, user: Some(user), slippage, with_tx: true, estimate };
    let (quote, prices, early) = tokio::join!(source.quote(&state.convert, &state.rpc, &chain.id, &trade), gas_prices(&state.rpc, &chain.id), checks(known));
    let quote = quote?;
    let gas_price = prices.map_err(upstream_error)?[0];
    let held = if known.is_none() && quote.spender.is_some() { checks(quote.spender).await } else { early };
    if let Some((balance, allowance)) = held.map_err(upstream_error)? {
        if let Some(shortfall) = shortfalls(from.asset, amount, balance, allowance).into_iter().next() {
            return Err(shortfall.into());
        }
    }
    let min = quote.minimum_received(slippage);
    let (to_address, data, value, deadline, gas) = match &quote.plan {
        Plan::UniswapV2 { route, router } => {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            let deadline = (now + state.convert.settings.deadline).as_secs();
            let (data, value) = super::uniswap_v2::swap_call(from.asset, to.asset, route, min, user, U256::from(deadline));
            (router.address, data, value, Some(deadline), (!estimate).then(|| U256::from(GAS_PER_HOP * (route.path.len() as u64 - 1))))
        }
        Plan::Aggregator(tx) => {
            let tx = tx.as_ref().ok_or_else(|| SwapError::SourceUnreadable(format!("The swap source {} answered no transaction", source.name())))?;
            let value = (from.asset == Asset::Native || !tx.value.is_zero()).then_some(tx.value);
            let gas = tx.gas.or_else(|| (!estimate).then_some(U256::from(AGGREGATOR_GAS)));
            (tx.to, tx.data.clone(), value, None, gas)
        }
    };
    let gas_estimated = estimate || matches!(&quote.plan, Plan::Aggregator(Some(tx)) if tx.gas.is_some());
    let gas = match gas {
        Some(gas) => gas,
        None => {
            let call = serde_json::json!({
                "from": format!("{user:#x}"),
                "to": format!("{to_address:#x}"),
                "data": data,
                "value": format!("{:#x}", value.unwrap_or_default()),
            });
            estimate_gas(&state.rpc, &chain.id, &call).await?
        }
    };
    Ok(Json(TransactionResponse {
        tx: SwapTx {
            from: format!("{}:{}", chain.id, user.to_checksum(None)),
            to: format!("{}:{}", chain.id, to_address.to_checksum(None)),
            data,
            amount: quote.amount_out().to_string(),
            value: value.map(|v| v.to_string()),
            eip155: SwapTxEip155 { gas: gas.to_string(), gas_price: gas_price.to_string() },
        },
        to_amount: quote.amount_out().to_string(),
        to_amount_min: min.to_string(),
        slippage,
        deadline,
        gas_estimated,
        route: quote.path.iter().map(|a| format!("{}:{}", chain.id, a.to_checksum(None))).collect(),
    }))
}
