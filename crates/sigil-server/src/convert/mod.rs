//! Swaps: the six `/v1/convert/*` endpoints of spec section 7 in AppKit's shapes (tokens,
//! quotes, allowance, gas price, the approval and the swap transaction), answered from each
//! chain's swap source, chosen by the `swap` table of its chains entry
//! (`chains::SwapSource`): a Uniswap-V2-style router read on chain with `eth_call`
//! (uniswap_v2.rs): keyless, so any chain with such a router swaps, the dev chain included (its
//! router comes with the deployment); or an aggregator's HTTP API reached with an API key read
//! from the environment: 1inch (oneinch.rs), 0x (zerox.rs) or LI.FI (lifi.rs). Each kind is an
//! arm in `Source`'s methods below. An aggregator is asked within `AGGREGATOR_TIMEOUT` and read
//! up to `AGGREGATOR_MAX_BYTES`; its documented refusals are the API's typed failures (no route,
//! not enough liquidity, balance, allowance), and an aggregator that is down, slow or answers
//! what cannot be read is a 503 or 502, never a 500. Its key is sent in a header only, and
//! blotted out of anything it says that is passed on. No referrer or fee parameter is sent.
//!
//! Tokens are CAIP-10 ids (`eip155:<chain>:0x...`), the native coin as
//! `eip155:<chain>:0xeeee...eeee`; `from`, `to` and `userAddress` must be on one chain. Amounts
//! are whole numbers of the token's smallest unit. Approvals are for the exact amount unless
//! `amount=max` asks for an unlimited one; a token whose allowance must go back to 0 first
//! (USDT) says so. No fee is taken. Nothing is stored: what is read once of a router (its
//! factory and wrapped coin) and the pairs it finds are kept in memory.

pub mod lifi;
pub mod oneinch;
pub mod routes;
pub mod uniswap_v2;
pub mod zerox;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use alloy_primitives::{Address, U256};
use axum::http::StatusCode;
use sigil_core::caip::AccountId;
use sigil_core::errors;
use sigil_core::evm;
use sigil_core::evm::quantity;

use crate::chains::{AggregatorSource, ChainConfig, SwapSource, UniswapV2Source};
use crate::config::ConvertSettings;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::rpc::calls::{self, eth_call};
use crate::rpc::jsonrpc::{Call, Reply};
use crate::rpc::{Failure, Rpc};
use uniswap_v2::{Route, RouterInfo};

/// The native coin's placeholder address in token ids (AppKit's `NATIVE_TOKEN_ADDRESS`).
pub const NATIVE_ADDRESS: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
/// Slippage in percent when none is given (spec section 9), and the most accepted.
pub const DEFAULT_SLIPPAGE: f64 = 1.0;
pub const MAX_SLIPPAGE: f64 = 50.0;
/// A quote whose price impact is above this (percent) carries a `price_impact_high` issue.
pub const HIGH_PRICE_IMPACT: f64 = 15.0;
/// The gas a swap is given per hop when it is not estimated (`disableEstimate`): the first swap
/// through a pool in a block also writes its price accumulators (about 149,000 gas in all on
/// the dev chain), so a margin above that.
pub const GAS_PER_HOP: u64 = 200_000;
/// The gas a swap through an aggregator is given when neither the aggregator nor the chain
/// estimated it (`disableEstimate`): its routes may pass several pools.
pub const AGGREGATOR_GAS: u64 = 600_000;
/// How long an aggregator is waited for, connection included.
pub const AGGREGATOR_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer read from an aggregator.
pub const AGGREGATOR_MAX_BYTES: usize = 2 << 20;

/// The area's routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(routes::tokens))
        .routes(utoipa_axum::routes!(routes::quotes))
        .routes(utoipa_axum::routes!(routes::allowance))
        .routes(utoipa_axum::routes!(routes::gas_price))
        .routes(utoipa_axum::routes!(routes::build_approve))
        .routes(utoipa_axum::routes!(routes::build_transaction))
}

/// The area's service: its settings, what it keeps of the chains' routers, and the client of
/// the aggregators.
pub struct Convert {
    pub settings: ConvertSettings,
    /// Each router's factory and wrapped coin, by (chain, router).
    routers: Mutex<HashMap<(String, Address), RouterInfo>>,
    /// Pairs found, by (chain, factory, lower token, higher token).
    pairs: Mutex<HashMap<(String, Address, Address, Address), Address>>,
    /// The last spender each aggregator named, by (chain, its base URL): the allowance endpoint
    /// reads it without asking again.
    spenders: Mutex<HashMap<(String, String), Address>>,
    /// The best path found for a pair and an amount's order of magnitude, by (chain, router,
    /// token in, token out, the amount's bits), kept uniswap_v2::ROUTE_KEPT: a quote then asks
    /// that path only (its amounts are always read fresh), not every candidate.
    routes: crate::cache::TtlCache<(String, Address, Address, Address, usize), Vec<Address>>,
    /// Paths whose getAmountsOut answered what the V2 formula gives from the same reserves, by
    /// (chain, router, path), kept uniswap_v2::ROUTE_KEPT: their quotes read the reserves alone
    /// (uniswap_v2::amounts_out) until the router is asked again.
    reserve_priced: crate::cache::TtlCache<(String, Address, Vec<Address>), ()>,
    http: reqwest::Client,
}

impl Convert {
    pub fn new(settings: &ConvertSettings) -> Convert {
        let http = reqwest::Client::builder()
            .timeout(AGGREGATOR_TIMEOUT)
            .connect_timeout(AGGREGATOR_TIMEOUT)
            // A redirect would carry the API key's header elsewhere: none is followed.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Sigil/", env!("CARGO_PKG_VERSION"), " (swap)"))
            .build()
            .expect("the swap client builds");
        let routes = crate::cache::TtlCache::new(uniswap_v2::ROUTE_KEPT, uniswap_v2::ROUTES_MAX);
        Convert {
            settings: settings.clone(),
            routers: Default::default(),
            pairs: Default::default(),
            spenders: Default::default(),
            routes,
            reserve_priced: crate::cache::TtlCache::new(uniswap_v2::ROUTE_KEPT, uniswap_v2::ROUTES_MAX),
            http,
        }
    }

    fn known_spender(&self, chain: &str, source: &AggregatorSource) -> Option<Address> {
        self.spenders.lock().unwrap_or_else(|e| e.into_inner()).get(&(chain.to_owned(), source.url.clone())).copied()
    }

    fn remember_spender(&self, chain: &str, source: &AggregatorSource, spender: Address) {
        self.spenders.lock().unwrap_or_else(|e| e.into_inner()).insert((chain.to_owned(), source.url.clone()), spender);
    }
}

/// A token of a swap: the chain's native coin or an ERC-20 contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asset {
    Native,
    Erc20(Address),
}

impl Asset {
    /// The token id's address part: the placeholder for the native coin, else EIP-55.
    pub fn address(self) -> String {
        match self {
            Asset::Native => NATIVE_ADDRESS.to_owned(),
            Asset::Erc20(a) => a.to_checksum(None),
        }
    }
}

/// A token id of a request: its chain (CAIP-2) and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenId {
    pub chain: String,
    pub asset: Asset,
}

impl TokenId {
    pub fn caip10(&self) -> String {
        format!("{}:{}", self.chain, self.asset.address())
    }
}

/// Why a swap cannot be quoted or built, in words; the API answers 400 for what the user can
/// change (another token, amount or allowance) and 503 when the chain does not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    #[error("No route: no pool on this chain trades these two tokens, directly or through a base token")]
    NoRoute,
    #[error("Not enough liquidity: the pools that trade these two tokens are empty")]
    NotEnoughLiquidity,
    #[error("Not enough liquidity: the pools on the route give nothing for this amount; try a larger one")]
    AmountTooSmall,
    #[error("Insufficient balance: the account holds {have} of the token sold, less than the {need} to swap")]
    InsufficientBalance { have: U256, need: U256 },
    #[error("Insufficient allowance: the router may spend {have} of the account's token, less than the {need} to swap; approve it first (build-approve)")]
    InsufficientAllowance { have: U256, need: U256 },
    #[error("The swap would fail on chain now: {0}")]
    WouldFail(String),
    #[error("The swap router {0} of this chain does not answer as a Uniswap V2 router")]
    RouterUnreadable(String),
    #[error("{0}")]
    Upstream(Failure),
    /// An aggregator's documented refusal, in words (its own words after ours).
    #[error("{1}")]
    Refused(Refusal, String),
    /// The aggregator cannot be reached, is slow, busy or failing, or its key is not set: 503.
    #[error("{0}")]
    SourceDown(String),
    /// The aggregator answers what cannot be read, or refuses the server's key: 502.
    #[error("{0}")]
    SourceUnreadable(String),
}

/// What an aggregator's refusal means, as the API's typed failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NoRoute,
    Liquidity,
    Balance,
    Allowance,
    WouldFail,
    /// Anything else it refuses (a token it does not know, say): 400 with its words.
    Other,
}

impl Refusal {
    /// The refusal of `source` (its name) in words: ours first, then what it said (without the
    /// API key, and not too long).
    pub fn says(self, source: &str, said: &str, key: Option<&str>) -> SwapError {
        let ours = match self {
            Refusal::NoRoute => "No route".to_owned(),
            Refusal::Liquidity => "Not enough liquidity".to_owned(),
            Refusal::Balance => "Insufficient balance".to_owned(),
            Refusal::Allowance => "Insufficient allowance: approve it first (build-approve)".to_owned(),
            Refusal::WouldFail => "The swap would fail on chain now".to_owned(),
            Refusal::Other => format!("The swap source {source} refuses this swap"),
        };
        SwapError::Refused(self, format!("{ours}: {source} says: {}", scrub(said, key)))
    }
}

/// `text` with the API key blotted out, at most 300 characters.
pub fn scrub(text: &str, key: Option<&str>) -> String {
    let clean = match key.filter(|k| !k.is_empty()) {
        Some(key) => text.replace(key, "***"),
        None => text.to_owned(),
    };
    match clean.char_indices().nth(300) {
        Some((cut, _)) => format!("{}...", &clean[..cut]),
        None => clean,
    }
}

impl From<SwapError> for ApiError {
    fn from(e: SwapError) -> ApiError {
        let code = match &e {
            SwapError::NoRoute => ErrorCode::NoRoute,
            SwapError::NotEnoughLiquidity | SwapError::AmountTooSmall => ErrorCode::InsufficientLiquidity,
            SwapError::InsufficientBalance { .. } => ErrorCode::InsufficientBalance,
            SwapError::InsufficientAllowance { .. } => ErrorCode::InsufficientAllowance,
            SwapError::WouldFail(_) => ErrorCode::SwapWouldFail,
            SwapError::RouterUnreadable(_) => {
                return ApiError { cause: Some(e.to_string()), ..ApiError::new(StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, e.to_string()) }
            }
            SwapError::Upstream(f) => return crate::rpc::upstream_error(f.clone()),
            SwapError::Refused(refusal, _) => match refusal {
                Refusal::NoRoute => ErrorCode::NoRoute,
                Refusal::Liquidity => ErrorCode::InsufficientLiquidity,
                Refusal::Balance => ErrorCode::InsufficientBalance,
                Refusal::Allowance => ErrorCode::InsufficientAllowance,
                Refusal::WouldFail => ErrorCode::SwapWouldFail,
                Refusal::Other => ErrorCode::BadRequest,
            },
            SwapError::SourceDown(m) => {
                return ApiError { cause: Some(m.clone()), ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::UpstreamUnavailable, m.clone()) }
            }
            SwapError::SourceUnreadable(m) => {
                return ApiError { cause: Some(m.clone()), ..ApiError::new(StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, m.clone()) }
            }
        };
        ApiError::bad_request(code, e.to_string())
    }
}

/// A chain's swap source, as the routes use it.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    UniswapV2(&'a UniswapV2Source),
    OneInch(&'a AggregatorSource),
    ZeroX(&'a AggregatorSource),
    LiFi(&'a AggregatorSource),
}

/// A swap as an aggregator is asked for it.
#[derive(Debug, Clone)]
pub struct Trade {
    /// The chain's EIP-155 number, as text.
    pub chain_number: String,
    pub from: Asset,
    pub to: Asset,
    pub amount: U256,
    /// The account that swaps (and receives).
    pub user: Option<Address>,
    /// Percent.
    pub slippage: f64,
    /// Whether the swap's transaction is wanted (else a quote is enough).
    pub with_tx: bool,
    /// Whether the aggregator may check the account and estimate the gas (1inch's
    /// `disableEstimate` is its opposite).
    pub estimate: bool,
}

/// A swap transaction an aggregator built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwapCall {
    pub to: Address,
    pub data: String,
    pub value: U256,
    /// Its gas as the aggregator estimated it (None or 0: not estimated).
    pub gas: Option<U256>,
}

impl<'a> Source<'a> {
    pub fn of(chain: &'a ChainConfig) -> Option<Source<'a>> {
        match chain.swap.as_ref()? {
            SwapSource::UniswapV2(v2) => Some(Source::UniswapV2(v2)),
            SwapSource::OneInch(a) => Some(Source::OneInch(a)),
            SwapSource::ZeroX(a) => Some(Source::ZeroX(a)),
            SwapSource::LiFi(a) => Some(Source::LiFi(a)),
        }
    }

    /// Its name in quotes (`source`): its key in the chains file.
    pub fn name(self) -> &'static str {
        match self {
            Source::UniswapV2(_) => "uniswap_v2",
            Source::OneInch(_) => "oneinch",
            Source::ZeroX(_) => "zerox",
            Source::LiFi(_) => "lifi",
        }
    }

    /// The largest amount it can swap.
    pub fn max_amount(self) -> U256 {
        match self {
            Source::UniswapV2(_) => uniswap_v2::MAX_AMOUNT,
            Source::OneInch(_) | Source::ZeroX(_) | Source::LiFi(_) => U256::MAX,
        }
    }

    /// The contract a sold token is approved to, when it is known without asking: a router,
    /// or the spender an aggregator named last on this chain.
    pub fn known_spender(self, convert: &Convert, chain: &str) -> Option<Address> {
        match self {
            Source::UniswapV2(v2) => Some(parse_config_address(&v2.router)),
            Source::OneInch(a) | Source::ZeroX(a) | Source::LiFi(a) => convert.known_spender(chain, a),
        }
    }

    /// The contract `from` is approved to for swapping it for `to` (`amount` when known; else
    /// a nominal amount when the aggregator must be asked for a quote to name it).
    pub async fn spender(
        self,
        convert: &Convert,
        chain: &ChainConfig,
        from: Asset,
        to: Asset,
        amount: Option<U256>,
        user: Address,
    ) -> Result<Address, SwapError> {
        if let (None, Some(known)) = (amount, self.known_spender(convert, &chain.id)) {
            return Ok(known);
        }
        match self {
            Source::UniswapV2(v2) => Ok(parse_config_address(&v2.router)),
            Source::OneInch(a) => oneinch::spender(convert, a, &chain.id).await,
            Source::ZeroX(_) | Source::LiFi(_) => {
                let nominal = || {
                    let decimals = match from {
                        Asset::Native => chain.native.decimals,
                        Asset::Erc20(t) => chain.token(&t.to_checksum(None)).map_or(18, |t| t.decimals),
                    };
                    U256::from(10u64).pow(U256::from(decimals.min(30)))
                };
                let trade = Trade {
                    chain_number: chain_number(&chain.id),
                    from,
                    to,
                    amount: amount.unwrap_or_else(nominal),
                    user: Some(user),
                    slippage: DEFAULT_SLIPPAGE,
                    with_tx: false,
                    estimate: false,
                };
                let quote = self.aggregator_quote(convert, &chain.id, &trade).await?;
                quote.spender.ok_or_else(|| SwapError::SourceUnreadable(format!("{} names no contract to approve for this swap", self.name())))
            }
        }
    }

    /// Whether `token`'s allowance must go back to 0 before it is set to another amount.
    pub fn resets_allowance(self, token: Address) -> bool {
        match self {
            Source::UniswapV2(v2) => v2.reset_allowance.iter().any(|t| parse_config_address(t) == token),
            Source::OneInch(_) | Source::ZeroX(_) | Source::LiFi(_) => false,
        }
    }

    /// An aggregator's quote for `trade`.
    async fn aggregator_quote(self, convert: &Convert, chain: &str, trade: &Trade) -> Result<Quote, SwapError> {
        match self {
            Source::UniswapV2(_) => Err(SwapError::NoRoute),
            Source::OneInch(a) => oneinch::quote(convert, a, chain, trade).await,
            Source::ZeroX(a) => zerox::quote(convert, a, chain, trade).await,
            Source::LiFi(a) => lifi::quote(convert, a, chain, trade).await,
        }
    }

    /// The best quote for `trade` (selling `amount` of `from` for `to`), with its price impact
    /// where the source tells it, and from an aggregator the swap's transaction when asked.
    pub async fn quote(self, convert: &Convert, rpc: &Rpc, chain: &str, trade: &Trade) -> Result<Quote, SwapError> {
        Ok(self.quote_with(convert, rpc, chain, trade, &[]).await?.0)
    }

    /// A quote, and the answers to `riders`: calls the caller needs from the chain beside it (a
    /// balance and an allowance). An on-chain source asks them in the quote's own batch (one
    /// round trip to the node); an aggregator's quote runs beside them.
    pub async fn quote_with(
        self,
        convert: &Convert,
        rpc: &Rpc,
        chain: &str,
        trade: &Trade,
        riders: &[Call],
    ) -> Result<(Quote, Vec<Option<String>>), SwapError> {
        let (from, to, amount) = (trade.from, trade.to, trade.amount);
        match self {
            Source::UniswapV2(v2) => {
                let router = convert.router(rpc, chain, parse_config_address(&v2.router)).await?;
                let (a, b) = (uniswap_v2::pooled(from, &router), uniswap_v2::pooled(to, &router));
                if a == b {
                    return Err(SwapError::NoRoute);
                }
                let bases: Vec<Address> = v2.base_tokens.iter().map(|t| parse_config_address(t)).collect();
                let uniswap_v2::Found { route, reserves, riders } = convert.best_route(rpc, chain, &router, &bases, (a, b, amount), riders).await?;
                let price_impact = match reserves {
                    Some(reserves) => uniswap_v2::price_impact(&route, &reserves),
                    // The route's pairs are not known yet: found now (and kept), then read.
                    None => convert.price_impact(rpc, chain, &router, &route).await,
                };
                let quote = Quote {
                    amount_out: route.amount_out(),
                    amount_out_min: None,
                    price_impact,
                    path: route.path.clone(),
                    spender: Some(router.address),
                    plan: Plan::UniswapV2 { route, router },
                };
                Ok((quote, riders))
            }
            _ => {
                let beside = async {
                    match riders {
                        [] => Vec::new(),
                        _ => calls::batch(rpc, chain, riders).await.unwrap_or_else(|_| vec![None; riders.len()]),
                    }
                };
                let (quote, answers) = tokio::join!(self.aggregator_quote(convert, chain, trade), beside);
                Ok((quote?, answers))
            }
        }
    }
}

/// A quote: what it gives, the pools' price impact (percent) where known, the tokens it passes
/// through and the contract the token sold is approved to, with what builds its swap.
#[derive(Debug, Clone)]
pub struct Quote {
    pub amount_out: U256,
    /// The least it gives at the trade's slippage, when the source said it.
    pub amount_out_min: Option<U256>,
    pub price_impact: Option<f64>,
    /// The tokens the route passes through (an aggregator's: the two traded tokens).
    pub path: Vec<Address>,
    /// None when the source names none (an aggregator selling the native coin).
    pub spender: Option<Address>,
    pub plan: Plan,
}

/// What builds a quote's swap.
#[derive(Debug, Clone)]
pub enum Plan {
    /// The router's swap call along `route`, built here.
    UniswapV2 { route: Route, router: RouterInfo },
    /// The aggregator's own transaction (None: only a quote was asked).
    Aggregator(Option<SwapCall>),
}

impl Quote {
    pub fn amount_out(&self) -> U256 {
        self.amount_out
    }

    /// The least received at `slippage`: the source's own figure, else computed here.
    pub fn minimum_received(&self, slippage: f64) -> U256 {
        self.amount_out_min.unwrap_or_else(|| minimum_received(self.amount_out, slippage))
    }
}

/// The EIP-155 number of a CAIP-2 id (`eip155:1` -> `1`).
pub fn chain_number(chain: &str) -> String {
    chain.split_once(':').map_or(chain, |(_, n)| n).to_owned()
}

/// An aggregator's API key from the environment variable its entry names; `required`: an unset
/// or empty variable is a 503 naming the variable (never a key).
pub fn api_key(name: &str, source: &AggregatorSource, required: bool) -> Result<Option<String>, SwapError> {
    let Some(var) = &source.api_key_env else {
        return if required { Err(SwapError::SourceDown(format!("The swap source {name} has no API key configured (api_key_env)"))) } else { Ok(None) };
    };
    match std::env::var(var).ok().filter(|k| !k.is_empty()) {
        Some(key) => Ok(Some(key)),
        None if required => {
            Err(SwapError::SourceDown(format!("The swap source {name} is not available: the environment variable {var} holding its API key is not set")))
        }
        None => Ok(None),
    }
}

/// An aggregator's answer: its status and its JSON (None when it is not JSON).
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Option<serde_json::Value>,
}

impl Answer {
    /// A 2xx's JSON; other answers are left to the caller's `refusal`; a 429 or 5xx is down,
    /// a 401 or 403 (the key refused) unreadable, a 2xx that is not JSON unreadable.
    pub fn json(self, name: &str, refusal: impl FnOnce(u16, &serde_json::Value) -> Option<SwapError>) -> Result<serde_json::Value, SwapError> {
        match (self.status, self.body) {
            (429, _) => Err(SwapError::SourceDown(format!("The swap source {name} is busy (429): try again shortly"))),
            (s, _) if s >= 500 => Err(SwapError::SourceDown(format!("The swap source {name} is not available (it answered {s})"))),
            (401 | 403, _) => Err(SwapError::SourceUnreadable(format!("The swap source {name} refuses the server's API key ({})", self.status))),
            (200..=299, Some(body)) if body.is_object() => Ok(body),
            (200..=299, _) => Err(SwapError::SourceUnreadable(format!("The swap source {name} answered what is not a JSON object"))),
            (s, body) => Err(body
                .as_ref()
                .and_then(|b| refusal(s, b))
                .unwrap_or_else(|| SwapError::Refused(Refusal::Other, format!("The swap source {name} refuses this swap (it answered {s})")))),
        }
    }
}

impl Convert {
    /// GETs `url` with `query` and `headers` from an aggregator, within its timeout and size
    /// bounds. Transport failures are `SourceDown` without the URL.
    pub async fn aggregator_get(&self, name: &str, url: &str, query: &[(&str, String)], headers: &[(&str, &str)]) -> Result<Answer, SwapError> {
        let mut req = self.http.get(url).query(query).header(reqwest::header::ACCEPT, "application/json");
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let down = |e: reqwest::Error| {
            if e.is_timeout() {
                SwapError::SourceDown(format!("The swap source {name} did not answer within {} s", AGGREGATOR_TIMEOUT.as_secs()))
            } else {
                SwapError::SourceDown(format!("The swap source {name} cannot be reached"))
            }
        };
        let mut res = req.send().await.map_err(down)?;
        let status = res.status().as_u16();
        let too_large = || SwapError::SourceUnreadable(format!("The swap source {name} answered more than {AGGREGATOR_MAX_BYTES} bytes"));
        if res.content_length().is_some_and(|n| n > AGGREGATOR_MAX_BYTES as u64) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = res.chunk().await.map_err(down)? {
            if bytes.len() + chunk.len() > AGGREGATOR_MAX_BYTES {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(Answer { status, body: serde_json::from_slice(&bytes).ok() })
    }
}

/// A whole number an aggregator gives: decimal text, 0x-hex text or a JSON integer.
pub fn uint(v: &serde_json::Value) -> Option<U256> {
    match v {
        serde_json::Value::String(s) if s.starts_with("0x") => quantity(s),
        serde_json::Value::String(s) if !s.is_empty() && s.len() <= 78 && s.bytes().all(|b| b.is_ascii_digit()) => U256::from_str_radix(s, 10).ok(),
        serde_json::Value::Number(n) => n.as_u64().map(U256::from),
        _ => None,
    }
}

/// An address an aggregator gives.
pub fn address(v: &serde_json::Value) -> Option<Address> {
    v.as_str().and_then(evm::parse_address)
}

/// An aggregator's transaction from its fields (`gas_field` names its gas), or why it cannot be
/// read.
pub fn swap_call(name: &str, tx: &serde_json::Value, gas_field: &str) -> Result<SwapCall, SwapError> {
    let bad = |what: &str| SwapError::SourceUnreadable(format!("The swap source {name} answered a transaction without {what}"));
    let to = address(&tx["to"]).filter(|a| !a.is_zero()).ok_or_else(|| bad("a valid `to`"))?;
    let data = tx["data"]
        .as_str()
        .filter(|d| d.len() >= 10 && d.starts_with("0x") && d[2..].bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| bad("call data"))?;
    let value = match &tx["value"] {
        serde_json::Value::Null => U256::ZERO,
        v => uint(v).ok_or_else(|| bad("a readable `value`"))?,
    };
    Ok(SwapCall { to, data: data.to_ascii_lowercase(), value, gas: uint(&tx[gas_field]).filter(|g| !g.is_zero()) })
}

/// An address from the chains file (checked when it was loaded).
fn parse_config_address(text: &str) -> Address {
    evm::parse_address(text).unwrap_or_default()
}

/// The least that `amount` gives after `slippage` percent (rounded down).
pub fn minimum_received(amount: U256, slippage: f64) -> U256 {
    let basis_points = (slippage * 100.0).round().clamp(0.0, 10_000.0) as u64;
    let (keep, whole) = (U256::from(10_000 - basis_points), U256::from(10_000u64));
    // Exact below 2^242; a larger amount (from no pool of uint112 reserves) loses its last digits.
    amount.checked_mul(keep).map_or_else(|| amount / whole * keep, |n| n / whole)
}

/// A swap's chain with its source, or the spec's 'Network not supported for Swaps'.
pub fn swap_chain<'a>(rpc: &'a Rpc, chain: &str, message: &str) -> ApiResult<(&'a ChainConfig, Source<'a>)> {
    rpc.chains().get(chain).and_then(|c| Some((c, Source::of(c)?))).ok_or_else(|| ApiError::bad_request(ErrorCode::UnsupportedChain, message.to_owned()))
}

pub const UNSUPPORTED_SWAPS: &str = errors::NETWORK_NOT_SUPPORTED_FOR_SWAPS;
pub const UNSUPPORTED_GAS_PRICE: &str = errors::NETWORK_NOT_SUPPORTED_FOR_GAS_PRICE;

const TOKEN_FORMAT: &str = "expected a CAIP-10 token id, eip155:<chain id>:0x and 40 hex digits (the native coin: 0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee)";

/// A token id parameter: `eip155:<chain>:0x<40 hex>`, the placeholder address for the coin.
pub fn parse_token(name: &str, value: Option<&str>) -> ApiResult<TokenId> {
    let value = value.ok_or_else(|| ApiError::invalid_param(name, format!("required, {TOKEN_FORMAT}")))?;
    let id: AccountId = value.parse().map_err(|_| ApiError::invalid_param(name, TOKEN_FORMAT))?;
    if id.chain.namespace() != "eip155" {
        return Err(ApiError::invalid_param(name, format!("swaps are on EVM chains only; {TOKEN_FORMAT}")));
    }
    let address = evm::parse_address(&id.address).ok_or_else(|| ApiError::invalid_param(name, TOKEN_FORMAT))?;
    let asset = if address == parse_config_address(NATIVE_ADDRESS) {
        Asset::Native
    } else if address.is_zero() {
        return Err(ApiError::invalid_param(name, "the zero address is no token"));
    } else {
        Asset::Erc20(address)
    };
    Ok(TokenId { chain: id.chain.to_string(), asset })
}

/// The user's address: CAIP-10 on `chain`, or a bare `0x` address.
pub fn parse_user(name: &str, value: Option<&str>, chain: &str) -> ApiResult<Address> {
    let value = value.ok_or_else(|| ApiError::invalid_param(name, "required, a CAIP-10 account (eip155:<chain id>:0x...) or an 0x address"))?;
    let address = if value.contains(':') {
        let id: AccountId = value.parse().map_err(|e| ApiError::invalid_param(name, e))?;
        if id.chain.to_string() != chain {
            return Err(ApiError::invalid_param(name, format!("on {}, not on {chain}: the tokens and the account must be on one chain", id.chain)));
        }
        id.address
    } else {
        value.to_owned()
    };
    evm::parse_address(&address).ok_or_else(|| ApiError::invalid_param(name, "expected an EVM address, 0x and 40 hex digits"))
}

/// `from` and `to` on one chain, and not the same token.
pub fn same_chain(from: &TokenId, to: &TokenId) -> ApiResult<()> {
    if from.chain != to.chain {
        return Err(ApiError::bad_request(
            ErrorCode::InvalidParameter,
            format!("`from` and `to` chain IDs must have the same value (from is on {}, to on {})", from.chain, to.chain),
        ));
    }
    if from.asset == to.asset {
        return Err(ApiError::invalid_param("to", "the same token as 'from'"));
    }
    Ok(())
}

/// An amount parameter: a whole number of the token's smallest unit, above 0, at most `max`.
pub fn parse_amount(name: &str, value: Option<&str>, max: U256) -> ApiResult<U256> {
    let value =
        value.map(str::trim).filter(|v| !v.is_empty()).ok_or_else(|| ApiError::invalid_param(name, "required, a whole number of the token's smallest unit"))?;
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::invalid_param(name, "expected a whole number of the token's smallest unit in decimal digits (1 ETH is 1000000000000000000)"));
    }
    let too_large = || ApiError::invalid_param(name, format!("too large: at most {max} (a pool holds at most 2^112 - 1 of a token)"));
    if value.len() > 78 {
        return Err(too_large());
    }
    let amount = U256::from_str_radix(value, 10).map_err(|_| too_large())?;
    if amount.is_zero() {
        return Err(ApiError::invalid_param(name, "must be above 0"));
    }
    if amount > max {
        return Err(too_large());
    }
    Ok(amount)
}

/// A slippage in percent, from 0 to `MAX_SLIPPAGE`; `DEFAULT_SLIPPAGE` when absent.
pub fn check_slippage(name: &str, value: Option<f64>) -> ApiResult<f64> {
    match value {
        None => Ok(DEFAULT_SLIPPAGE),
        Some(s) if s.is_finite() && (0.0..=MAX_SLIPPAGE).contains(&s) => Ok(s),
        Some(s) => Err(ApiError::invalid_param(name, format!("expected a percentage from 0 to {MAX_SLIPPAGE}, got {s}"))),
    }
}

fn call(method: &str, params: String) -> Call {
    Call { id: "null".into(), method: method.into(), params: Some(params), notification: false, exact: false }
}

/// What `user` holds of `asset` and has allowed `spender` (the coin needs no allowance: None);
/// each None where the chain did not say.
pub async fn holdings(rpc: &Rpc, chain: &str, user: Address, asset: Asset, spender: Address) -> Result<(Option<U256>, Option<U256>), Failure> {
    let results = calls::batch(rpc, chain, &holdings_calls(user, asset, spender)).await?;
    Ok(read_holdings(asset, &results))
}

/// The calls of `holdings`: the balance, and for a token the allowance.
pub fn holdings_calls(user: Address, asset: Asset, spender: Address) -> Vec<Call> {
    match asset {
        Asset::Native => vec![call("eth_getBalance", format!(r#"["{user:#x}","latest"]"#))],
        Asset::Erc20(token) => {
            let token = format!("{token:#x}");
            vec![
                eth_call(&token, &evm::call_data(&evm::balanceOfCall { owner: user })),
                eth_call(&token, &evm::call_data(&evm::allowanceCall { owner: user, spender })),
            ]
        }
    }
}

/// The balance and allowance the answers to `holdings_calls` say.
pub fn read_holdings(asset: Asset, results: &[Option<String>]) -> (Option<U256>, Option<U256>) {
    let balance = match asset {
        Asset::Native => results.first().and_then(|r| r.as_deref()).and_then(quantity),
        Asset::Erc20(_) => results.first().and_then(|r| r.as_deref()).and_then(evm::decode_return::<evm::balanceOfCall>),
    };
    let allowance = results.get(1).and_then(|r| r.as_deref()).and_then(evm::decode_return::<evm::allowanceCall>);
    (balance, allowance)
}

/// What stands between a quote and its swap, as far as the chain tells: the balance, then the
/// allowance (the coin needs none).
pub fn shortfalls(asset: Asset, amount: U256, balance: Option<U256>, allowance: Option<U256>) -> Vec<SwapError> {
    let mut found = Vec::new();
    if let Some(have) = balance.filter(|b| *b < amount) {
        found.push(SwapError::InsufficientBalance { have, need: amount });
    }
    if let (Asset::Erc20(_), Some(have)) = (asset, allowance.filter(|a| *a < amount)) {
        found.push(SwapError::InsufficientAllowance { have, need: amount });
    }
    found
}

/// Gas prices in wei: standard, fast and instant. With EIP-1559, the next block's base fee
/// (1, 1.1 and 1.25 times) plus the median, 75th and 90th percentile tips of the last 5
/// blocks; else `eth_gasPrice` (1, 1.1 and 1.25 times).
pub async fn gas_prices(rpc: &std::sync::Arc<Rpc>, chain: &str) -> Result<[U256; 3], Failure> {
    if let Reply::Result(raw) = rpc.call(chain, "eth_feeHistory", Some(r#"["0x5","latest",[50,75,90]]"#)).await? {
        if let Some(prices) = fee_history_prices(&raw) {
            return Ok(prices);
        }
    }
    let gas_price = match rpc.call(chain, "eth_gasPrice", Some("[]")).await? {
        Reply::Result(raw) => serde_json::from_str::<String>(&raw).ok().as_deref().and_then(quantity),
        Reply::Error(_) => None,
    };
    let gas_price = gas_price.ok_or_else(|| Failure::AllDown(chain.to_owned()))?;
    Ok(scaled(gas_price, [U256::ZERO; 3]))
}

/// 1, 1.1 and 1.25 times `base`, each plus its tip.
fn scaled(base: U256, tips: [U256; 3]) -> [U256; 3] {
    let times = |numerator: u64, denominator: u64| base.saturating_mul(U256::from(numerator)) / U256::from(denominator);
    [base.saturating_add(tips[0]), times(11, 10).saturating_add(tips[1]), times(5, 4).saturating_add(tips[2])]
}

/// The prices from an `eth_feeHistory` answer, None when it has no base fee (no EIP-1559).
fn fee_history_prices(raw: &str) -> Option<[U256; 3]> {
    let history: serde_json::Value = serde_json::from_str(raw).ok()?;
    let base = history["baseFeePerGas"].as_array()?.last()?.as_str().and_then(quantity)?;
    let rewards = history["reward"].as_array().cloned().unwrap_or_default();
    let mut tips = [U256::ZERO; 3];
    for (i, tip) in tips.iter_mut().enumerate() {
        let values: Vec<U256> = rewards.iter().filter_map(|block| block.get(i)?.as_str().and_then(quantity)).collect();
        if !values.is_empty() {
            *tip = values.iter().fold(U256::ZERO, |sum, v| sum.saturating_add(*v)) / U256::from(values.len());
        }
    }
    Some(scaled(base, tips))
}

/// The gas `tx` needs, estimated by the chain, with a fifth more to spare; a revert is
/// `WouldFail` with the chain's reason in words.
pub async fn estimate_gas(rpc: &std::sync::Arc<Rpc>, chain: &str, tx: &serde_json::Value) -> Result<U256, SwapError> {
    let params = serde_json::json!([tx]).to_string();
    match rpc.call(chain, "eth_estimateGas", Some(&params)).await.map_err(SwapError::Upstream)? {
        Reply::Result(raw) => {
            let gas = serde_json::from_str::<String>(&raw)
                .ok()
                .as_deref()
                .and_then(quantity)
                .ok_or_else(|| SwapError::WouldFail("the chain gave no estimate".into()))?;
            Ok(gas.saturating_add(gas / U256::from(5u64)))
        }
        Reply::Error(raw) => Err(SwapError::WouldFail(revert_reason(&raw))),
    }
}

/// A node's error for a reverted call, in words.
fn revert_reason(error_json: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(error_json).unwrap_or_default();
    let message = v["message"].as_str().unwrap_or("reverted").to_owned();
    if message.contains("INSUFFICIENT_OUTPUT_AMOUNT") {
        "the price moved: the swap would give less than the minimum received; ask for a new quote".into()
    } else if message.contains("TRANSFER_FROM_FAILED") {
        "the router cannot take the tokens sold: the balance or the allowance is too low".into()
    } else if message.contains("EXPIRED") {
        "the swap's deadline has passed; build it again".into()
    } else if message.to_ascii_lowercase().contains("insufficient funds") {
        "the account cannot pay the amount and the gas".into()
    } else {
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_ids() {
        let native = parse_token("from", Some("eip155:1:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")).unwrap();
        assert_eq!(native, TokenId { chain: "eip155:1".into(), asset: Asset::Native });
        assert_eq!(native.caip10(), "eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
        let usdc = parse_token("to", Some("eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")).unwrap();
        assert_eq!(usdc.caip10(), "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48");
        for bad in [
            "",
            "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
            "eip155:1:0x12",
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:So11111111111111111111111111111111111111112",
            "eip155:1:0x0000000000000000000000000000000000000000",
            "eip155:1:abc:def",
        ] {
            let e = parse_token("from", Some(bad)).unwrap_err();
            assert_eq!((e.status, e.code), (StatusCode::BAD_REQUEST, ErrorCode::InvalidParameter), "{bad}");
        }
        assert!(parse_token("from", None).unwrap_err().message.contains("required"));
    }

    #[test]
    fn amounts_are_whole_positive_and_bounded() {
        let max = uniswap_v2::MAX_AMOUNT;
        assert_eq!(parse_amount("amount", Some("1000"), max).unwrap(), U256::from(1000));
        let (long, forty, over) = ("9".repeat(79), "9".repeat(40), max.saturating_add(U256::from(1)).to_string());
        for bad in ["0", "-1", "1.5", "1e18", "0x10", "abc", "", " ", long.as_str(), forty.as_str(), over.as_str()] {
            let e = parse_amount("amount", Some(bad), max).unwrap_err();
            assert_eq!((e.status, e.code), (StatusCode::BAD_REQUEST, ErrorCode::InvalidParameter), "{bad}");
        }
        assert_eq!(parse_amount("amount", Some(&max.to_string()), max).unwrap(), max);
    }

    #[test]
    fn users_on_the_chain_only() {
        let a = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
        assert_eq!(parse_user("userAddress", Some(a), "eip155:1").unwrap(), evm::parse_address(a).unwrap());
        assert_eq!(parse_user("userAddress", Some(&format!("eip155:1:{a}")), "eip155:1").unwrap(), evm::parse_address(a).unwrap());
        assert!(parse_user("userAddress", Some(&format!("eip155:10:{a}")), "eip155:1").unwrap_err().message.contains("one chain"));
        assert!(parse_user("userAddress", Some("0x12"), "eip155:1").is_err());
    }

    #[test]
    fn slippage_and_minimum_received() {
        assert_eq!(check_slippage("slippage", None).unwrap(), 1.0);
        assert!(check_slippage("slippage", Some(50.5)).is_err());
        assert!(check_slippage("slippage", Some(-1.0)).is_err());
        assert!(check_slippage("slippage", Some(f64::NAN)).is_err());
        assert_eq!(minimum_received(U256::from(1000), 1.0), U256::from(990));
        assert_eq!(minimum_received(U256::from(1000), 0.5), U256::from(995));
        assert_eq!(minimum_received(U256::from(999), 0.0), U256::from(999));
        assert_eq!(minimum_received(U256::MAX, 1.0), U256::MAX / U256::from(10_000u64) * U256::from(9_900u64));
    }

    #[test]
    fn gas_prices_from_fee_history() {
        let raw =
            r#"{"oldestBlock":"0x1","baseFeePerGas":["0x64","0x64","0xc8"],"reward":[["0xa","0x14","0x1e"],["0x14","0x1e","0x28"]],"gasUsedRatio":[0.1,0.2]}"#;
        assert_eq!(fee_history_prices(raw), Some([U256::from(215), U256::from(245), U256::from(285)]));
        assert_eq!(fee_history_prices(r#"{"oldestBlock":"0x1","reward":[]}"#), None);
        // A node's nonsense never overflows.
        let huge = format!(r#"{{"baseFeePerGas":["{:#x}"],"reward":[["{:#x}","0x1","0x1"]]}}"#, U256::MAX, U256::MAX);
        assert_eq!(fee_history_prices(&huge).map(|p| p[0]), Some(U256::MAX));
    }

    #[test]
    fn errors_are_words_and_400s() {
        let e = ApiError::from(SwapError::InsufficientAllowance { have: U256::from(1), need: U256::from(2) });
        assert_eq!((e.status, e.code), (StatusCode::BAD_REQUEST, ErrorCode::InsufficientAllowance));
        assert!(e.message.starts_with("Insufficient allowance"), "{}", e.message);
        assert_eq!(
            revert_reason(r#"{"code":3,"message":"execution reverted: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"}"#).split(':').next(),
            Some("the price moved")
        );
        let e = ApiError::from(SwapError::Upstream(Failure::AllDown("eip155:1".into())));
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
    }
}
