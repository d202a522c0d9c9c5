//! Buying crypto with a card or bank (spec sections 3, 7 and 9; the modal's onramp): what can be
//! bought where (`GET /v1/onramp/options`), a quote (`POST /v1/onramp/quote`), the URL of a
//! purchase at a provider (`POST /v1/generators/onrampurl`) and how that purchase went
//! (`GET /v1/onramp/sessions/{id}`). Providers are turned on by settings (`OnrampSettings`):
//! Coinbase (coinbase.rs: a CDP secret-key JWT, a session token bound to the one destination
//! address and the buyer's IP), Meld (meld.rs: its widget session) and the sandbox (sandbox.rs:
//! a provider played by this server, which sells a dev chain's coin from a configured key, so
//! a whole purchase runs offline). Their URLs and credentials stay on the server: no answer,
//! error text or log line carries them.
//!
//! Each purchase started is a stored session (store.rs) under a random 128-bit id that is also
//! the provider's partner reference. Options fall back to the built-in sample list, and quotes
//! to a mock quote, both marked `sample: true`, when no provider is on or every provider fails;
//! bad input is a 400 that says what is wrong (the limits of a payment method included).

pub mod coinbase;
pub mod meld;
pub mod routes;
pub mod sandbox;
pub mod store;

use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::chains::Chains;
use crate::config::OnrampSettings;
use crate::error::{ApiError, ApiResult, ErrorCode};

/// The area's routes under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(routes::options))
        .routes(utoipa_axum::routes!(routes::quote))
        .routes(utoipa_axum::routes!(routes::generate_url))
        .routes(utoipa_axum::routes!(routes::session))
}

/// The sandbox provider's page, outside the project gate (a buyer's browser opens it).
pub fn sandbox_router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::sandbox_page, routes::sandbox_action))
}

/// The country when neither the request nor its Accept-Language names one.
pub const DEFAULT_COUNTRY: &str = "US";
/// The payment method when a quote names none.
pub const DEFAULT_PAYMENT_METHOD: &str = "card";

/// The providers Sigil knows, in the order they are offered (the first enabled one quotes when
/// a request names none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Coinbase,
    Meld,
    Sandbox,
}

impl Provider {
    pub const ALL: [Provider; 3] = [Provider::Coinbase, Provider::Meld, Provider::Sandbox];

    pub fn name(self) -> &'static str {
        match self {
            Provider::Coinbase => "coinbase",
            Provider::Meld => "meld",
            Provider::Sandbox => "sandbox",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Provider::Coinbase => "Coinbase",
            Provider::Meld => "Meld.io",
            Provider::Sandbox => "Sigil sandbox",
        }
    }

    pub fn supported_chains(self) -> &'static [&'static str] {
        match self {
            Provider::Coinbase | Provider::Sandbox => &["eip155"],
            Provider::Meld => &["eip155", "solana"],
        }
    }

    /// A request's provider name: 400 naming the known ones otherwise.
    pub fn parse(name: &str) -> ApiResult<Provider> {
        Provider::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| ApiError::invalid_param("provider", format!("unknown provider '{name}': one of {}", Provider::ALL.map(Provider::name).join(", "))))
    }
}

/// A provider's call that did not work; its text names no URL and no credential.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// Not reachable, too slow, or an answer that is not what its API documents.
    #[error("{0}")]
    Unreachable(String),
    /// The provider refused the request (4xx), with its message.
    #[error("{0}")]
    Refused(String),
}

impl ProviderError {
    /// A transport error without its URL.
    pub fn transport(e: reqwest::Error) -> ProviderError {
        ProviderError::Unreachable(if e.is_timeout() { "timed out".into() } else { e.without_url().to_string() })
    }
}

/// Reads a provider's answer: JSON on success, `Refused` with its message on a 4xx.
pub async fn provider_json(res: Result<reqwest::Response, reqwest::Error>) -> Result<serde_json::Value, ProviderError> {
    let res = res.map_err(ProviderError::transport)?;
    let status = res.status();
    let body = res.bytes().await.map_err(ProviderError::transport)?;
    let json: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    if status.is_client_error() {
        let message = ["message", "error", "errorMessage", "code"].iter().find_map(|k| json.get(*k).and_then(|v| v.as_str())).unwrap_or("refused");
        return Err(ProviderError::Refused(message.chars().take(200).collect()));
    }
    if !status.is_success() {
        return Err(ProviderError::Unreachable(format!("answered {}", status.as_u16())));
    }
    if json.is_null() {
        return Err(ProviderError::Unreachable("the answer is not JSON".into()));
    }
    Ok(json)
}

/// A payment method's limits in one fiat currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MethodLimit {
    /// card, ach_bank_account, apple_pay, ...
    pub id: String,
    pub min: String,
    pub max: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PaymentCurrency {
    /// ISO 4217 code.
    pub id: String,
    pub payment_method_limits: Vec<MethodLimit>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PurchaseNetwork {
    pub name: String,
    pub display_name: String,
    /// The EVM chain id in decimal; Solana: its CAIP-2 reference.
    pub chain_id: String,
    /// "" for a chain's native coin.
    pub contract_address: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PurchaseCurrency {
    pub id: String,
    pub name: String,
    pub symbol: String,
    pub networks: Vec<PurchaseNetwork>,
}

/// What one provider offers in a country.
#[derive(Debug, Clone, Default)]
pub struct Offer {
    pub payment: Vec<PaymentCurrency>,
    pub purchase: Vec<PurchaseCurrency>,
}

impl Offer {
    /// The limits of `method` for `currency`, or a 400 saying what is offered.
    pub fn limits(&self, provider: Provider, currency: &str, method: &str) -> ApiResult<(u64, u64)> {
        let Some(c) = self.payment.iter().find(|c| c.id.eq_ignore_ascii_case(currency)) else {
            let ids: Vec<&str> = self.payment.iter().map(|c| c.id.as_str()).collect();
            return Err(ApiError::invalid_param("paymentCurrency", format!("{currency} is not offered by {}: one of {}", provider.name(), ids.join(", "))));
        };
        let Some(l) = c.payment_method_limits.iter().find(|l| l.id.eq_ignore_ascii_case(method)) else {
            let ids: Vec<&str> = c.payment_method_limits.iter().map(|l| l.id.as_str()).collect();
            return Err(ApiError::invalid_param("paymentMethod", format!("{method} is not offered for {currency}: one of {}", ids.join(", "))));
        };
        let min = parse_fiat(&l.min).unwrap_or(0);
        let max = parse_fiat(&l.max).unwrap_or(u64::MAX);
        Ok((min, max))
    }

    /// `amount` (cents) within the limits of `method` for `currency`.
    pub fn check_amount(&self, provider: Provider, currency: &str, method: &str, amount: u64) -> ApiResult<()> {
        let (min, max) = self.limits(provider, currency, method)?;
        if amount < min || amount > max {
            return Err(ApiError::invalid_param(
                "amount",
                format!(
                    "Amount must be between {} and {} {} for {}",
                    format_fiat(min),
                    format_fiat(max),
                    currency.to_ascii_uppercase(),
                    method.to_ascii_lowercase()
                ),
            ));
        }
        Ok(())
    }
}

/// The sample payment currencies (spec section 9): card 10.00-7500.00 and ach_bank_account
/// 10.00-25000.00, in USD and EUR.
pub fn sample_payment_currencies() -> Vec<PaymentCurrency> {
    ["USD", "EUR"]
        .into_iter()
        .map(|id| PaymentCurrency {
            id: id.into(),
            payment_method_limits: vec![
                MethodLimit { id: "card".into(), min: "10.00".into(), max: "7500.00".into() },
                MethodLimit { id: "ach_bank_account".into(), min: "10.00".into(), max: "25000.00".into() },
            ],
        })
        .collect()
}

/// The sample purchase currencies: USDC on Ethereum mainnet and Polygon.
pub fn sample_purchase_currencies() -> Vec<PurchaseCurrency> {
    vec![PurchaseCurrency {
        id: "USDC".into(),
        name: "USD Coin".into(),
        symbol: "USDC".into(),
        networks: vec![
            PurchaseNetwork {
                name: "ethereum".into(),
                display_name: "Ethereum".into(),
                chain_id: "1".into(),
                contract_address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".into(),
            },
            PurchaseNetwork {
                name: "polygon".into(),
                display_name: "Polygon".into(),
                chain_id: "137".into(),
                contract_address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359".into(),
            },
        ],
    }]
}

/// Merges `more` into `into`: currencies by id, their limits and networks by id and name
/// (the first provider's entry wins).
pub fn merge(into: &mut Offer, more: Offer) {
    for c in more.payment {
        match into.payment.iter_mut().find(|p| p.id.eq_ignore_ascii_case(&c.id)) {
            Some(p) => {
                for l in c.payment_method_limits {
                    if !p.payment_method_limits.iter().any(|m| m.id == l.id) {
                        p.payment_method_limits.push(l);
                    }
                }
            }
            None => into.payment.push(c),
        }
    }
    for c in more.purchase {
        match into.purchase.iter_mut().find(|p| p.id.eq_ignore_ascii_case(&c.id)) {
            Some(p) => {
                for n in c.networks {
                    if !p.networks.iter().any(|m| m.name == n.name) {
                        p.networks.push(n);
                    }
                }
            }
            None => into.purchase.push(c),
        }
    }
}

/// The area's service: the enabled providers and the HTTP client they are called with.
pub struct Onramp {
    pub settings: OnrampSettings,
    pub http: reqwest::Client,
    pub sandbox: Option<sandbox::Sandbox>,
    pub coinbase: Option<coinbase::Coinbase>,
    pub meld: Option<meld::Meld>,
    /// Coinbase's buy options by country, kept `OFFER_TTL` (failures are not kept).
    pub coinbase_offers: crate::cache::TtlCache<String, Offer>,
}

/// How long a provider's buy options for a country are kept.
pub const OFFER_TTL: Duration = Duration::from_secs(300);

impl Onramp {
    /// The providers the settings turn on (they were checked when the configuration was read;
    /// a provider whose settings cannot be used stays off, logged without its secret).
    pub fn new(settings: &OnrampSettings, chains: &Chains) -> Onramp {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout.min(Duration::from_secs(5)))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent("sigil")
            .build()
            .unwrap_or_default();
        let sandbox = settings.sandbox_key.as_ref().and_then(|key| match sandbox::Sandbox::new(key.expose(), &settings.sandbox_chain, chains) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::error!(error = %e, "the onramp sandbox is off");
                None
            }
        });
        let coinbase = match (&settings.coinbase_key_name, &settings.coinbase_key_secret) {
            (Some(name), Some(secret)) => match coinbase::KeySecret::parse(secret.expose()) {
                Ok(key) => Some(coinbase::Coinbase::new(name, key, &settings.coinbase_api_url, &settings.coinbase_pay_url)),
                Err(e) => {
                    tracing::error!(error = %e, "Coinbase onramp is off");
                    None
                }
            },
            _ => None,
        };
        let meld = settings.meld_key.as_ref().map(|key| meld::Meld::new(key.expose(), &settings.meld_api_url));
        let coinbase_offers = crate::cache::TtlCache::new(OFFER_TTL, 300);
        Onramp { settings: settings.clone(), http, sandbox, coinbase, meld, coinbase_offers }
    }

    /// Coinbase's buy options for `country`, from the cache or asked.
    pub async fn coinbase_offer(&self, country: &str) -> Result<Offer, ProviderError> {
        let Some(cb) = &self.coinbase else { return Ok(Offer::default()) };
        if let Some(offer) = self.coinbase_offers.get(country) {
            return Ok(offer);
        }
        let offer = cb.options(&self.http, country).await?;
        self.coinbase_offers.put(country.to_owned(), offer.clone());
        Ok(offer)
    }

    pub fn enabled(&self, provider: Provider) -> bool {
        match provider {
            Provider::Coinbase => self.coinbase.is_some(),
            Provider::Meld => self.meld.is_some(),
            Provider::Sandbox => self.sandbox.is_some(),
        }
    }

    /// The enabled providers, in order.
    pub fn providers(&self) -> Vec<Provider> {
        Provider::ALL.into_iter().filter(|p| self.enabled(*p)).collect()
    }

    /// The provider a request names (400 when unknown or not on), else the first one on (None:
    /// no provider is on).
    pub fn choose(&self, name: Option<&str>) -> ApiResult<Option<Provider>> {
        match name.map(str::trim).filter(|n| !n.is_empty()) {
            Some(name) => {
                let p = Provider::parse(name)?;
                if !self.enabled(p) {
                    return Err(ApiError::invalid_param("provider", format!("provider '{name}' is not enabled on this server")));
                }
                Ok(Some(p))
            }
            None => Ok(self.providers().into_iter().next()),
        }
    }
}

/// The request's country: `explicit` (ISO 3166-1 alpha-2, any case; else 400), else the region
/// of the first Accept-Language tag that has one (`fr-CA` is CA), else US.
pub fn country(explicit: Option<&str>, headers: &HeaderMap) -> ApiResult<String> {
    if let Some(c) = explicit.map(str::trim).filter(|c| !c.is_empty()) {
        if c.len() == 2 && c.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Ok(c.to_ascii_uppercase());
        }
        return Err(ApiError::invalid_param("country", "expected an ISO 3166-1 alpha-2 code such as US or FR"));
    }
    let accept = headers.get(axum::http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    for tag in accept.split(',') {
        let tag = tag.split(';').next().unwrap_or("").trim();
        if let Some(region) = tag.split(['-', '_']).skip(1).find(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_alphabetic())) {
            return Ok(region.to_ascii_uppercase());
        }
    }
    Ok(DEFAULT_COUNTRY.into())
}

/// A fiat amount in hundredths: digits with at most two decimals ("100", "100.5", "100.00").
pub fn parse_fiat(text: &str) -> Option<u64> {
    let text = text.trim();
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() || whole.len() > 12 || frac.len() > 2 || !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let frac = format!("{frac:0<2}");
    Some(whole.parse::<u64>().ok()? * 100 + frac.parse::<u64>().ok()?)
}

/// Hundredths as a decimal with two digits after the point.
pub fn format_fiat(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// A request's fiat amount: a JSON string or number, two decimals at most, above 0.
pub fn fiat_param(name: &str, value: &serde_json::Value) -> ApiResult<u64> {
    let text = match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => return Err(ApiError::invalid_param(name, "required, a decimal amount such as 100.00")),
    };
    match parse_fiat(&text) {
        Some(0) => Err(ApiError::invalid_param(name, "must be above 0")),
        Some(cents) => Ok(cents),
        None => Err(ApiError::invalid_param(name, "expected a decimal amount with at most two decimals, such as 100.00")),
    }
}

/// `value` rounded to 6 significant digits and at most `decimals` decimals, without trailing
/// zeros ("0.03936").
pub fn crypto_amount(value: f64, decimals: u8) -> String {
    if !value.is_finite() || value <= 0.0 {
        return "0".into();
    }
    let magnitude = value.log10().floor() as i32;
    let digits = (5 - magnitude).clamp(0, i32::from(decimals)) as usize;
    let text = format!("{value:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

/// A decimal amount in the smallest unit of a token with `decimals` decimals.
pub fn to_units(amount: &str, decimals: u8) -> Option<alloy_primitives::U256> {
    let (whole, frac) = amount.split_once('.').unwrap_or((amount, ""));
    if whole.is_empty() || frac.len() > usize::from(decimals) || !whole.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{whole}{frac:0<width$}", width = usize::from(decimals));
    alloy_primitives::U256::from_str_radix(&digits, 10).ok()
}

/// An amount of a currency, as quotes and sessions give it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Amount {
    pub amount: String,
    pub currency: String,
}

impl Amount {
    pub fn new(amount: impl Into<String>, currency: impl Into<String>) -> Amount {
        Amount { amount: amount.into(), currency: currency.into() }
    }
}

/// What a quote asks, checked.
#[derive(Debug, Clone)]
pub struct QuoteAsk {
    pub purchase_currency: String,
    pub payment_currency: String,
    /// Hundredths of the payment currency.
    pub amount: u64,
    /// As sent: CAIP-2 or a provider's network name; None: the asset's default.
    pub network: Option<String>,
    pub payment_method: String,
    pub country: String,
}

/// A quote in the API's shape (before `provider` and `sample` are added).
#[derive(Debug, Clone)]
pub struct Quote {
    pub quote_id: String,
    pub payment_total: Amount,
    pub payment_subtotal: Amount,
    pub purchase_amount: Amount,
    pub coinbase_fee: Amount,
    pub network_fee: Amount,
}

/// The sandbox's fee (and the mock quote's): 1.5 % of the amount paid, in basis points.
pub const FEE_BASIS_POINTS: u64 = 150;
/// The network fee the sandbox (and the mock quote) adds, in hundredths of the payment
/// currency: 0.10.
pub const NETWORK_FEE_CENTS: u64 = 10;

/// Splits a payment (hundredths) into (fee, network fee, what buys the asset), rounding the fee
/// half up.
pub fn split_payment(amount: u64) -> (u64, u64, u64) {
    let fee = (amount * FEE_BASIS_POINTS + 5_000) / 10_000;
    let network = NETWORK_FEE_CENTS.min(amount.saturating_sub(fee));
    (fee, network, amount - fee - network)
}

/// A quote made here: the fee split above at `price` (payment currency per unit of the asset).
pub fn computed_quote(ask: &QuoteAsk, price: f64, decimals: u8, quote_id: String) -> Quote {
    let (fee, network, net) = split_payment(ask.amount);
    let fiat = |cents| Amount::new(format_fiat(cents), ask.payment_currency.clone());
    Quote {
        quote_id,
        payment_total: fiat(ask.amount),
        payment_subtotal: fiat(net),
        purchase_amount: Amount::new(crypto_amount(net as f64 / 100.0 / price, decimals), ask.purchase_currency.clone()),
        coinbase_fee: fiat(fee),
        network_fee: fiat(network),
    }
}

/// US dollars per unit of a fiat currency for the sandbox and the mock quote (fixed: they are
/// no market): USD 1, EUR 1.10.
pub fn usd_per(currency: &str) -> Option<f64> {
    match currency.to_ascii_uppercase().as_str() {
        "USD" => Some(1.0),
        "EUR" => Some(1.10),
        _ => None,
    }
}

/// The fixed USD prices of the mock quote: stablecoins 1, ETH 3000, SOL 150, anything else 1.
pub fn sample_usd_price(symbol: &str) -> f64 {
    match symbol.to_ascii_uppercase().as_str() {
        "ETH" | "WETH" => 3000.0,
        "SOL" => 150.0,
        "BTC" => 90000.0,
        _ => 1.0,
    }
}

/// The spec's mock quote (a provider failed or none is on): the sandbox's fee split at the
/// sample prices.
pub fn mock_quote(ask: &QuoteAsk) -> Quote {
    let price = sample_usd_price(&ask.purchase_currency) / usd_per(&ask.payment_currency).unwrap_or(1.0);
    computed_quote(ask, price, 18, format!("mock-{}", uuid::Uuid::new_v4().simple()))
}

/// A new session id: 128 random bits as 32 hex digits.
pub fn new_session_id() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

/// True for what `new_session_id` makes.
pub fn is_session_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A provider's failure while starting a purchase: 502 naming the provider, never its URL.
pub fn upstream(provider: Provider, e: &ProviderError) -> ApiError {
    match e {
        ProviderError::Refused(why) => ApiError::bad_request(ErrorCode::BadRequest, format!("{} refused the request: {why}", provider.label())),
        ProviderError::Unreachable(why) => ApiError {
            cause: Some(format!("{}: {why}", provider.name())),
            ..ApiError::new(StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, format!("{} is not answering now; try again later", provider.label()))
        },
    }
}

/// The CAIP-2 id of a Coinbase network name, and back (spec section 9: Coinbase pay chains).
pub const COINBASE_NETWORKS: &[(&str, &str)] = &[
    ("eip155:1", "ethereum"),
    ("eip155:42161", "arbitrum"),
    ("eip155:137", "polygon"),
    ("eip155:80094", "berachain"),
    ("eip155:43114", "avalanche-c-chain"),
    ("eip155:10", "optimism"),
    ("eip155:42220", "celo"),
    ("eip155:8453", "base"),
];

/// A network as a request names it (CAIP-2, or a Coinbase network name) as CAIP-2.
pub fn network_caip2(network: &str) -> Option<String> {
    if network.contains(':') {
        return network.parse::<sigil_core::caip::ChainId>().ok().map(|c| c.to_string());
    }
    COINBASE_NETWORKS.iter().find(|(_, name)| name.eq_ignore_ascii_case(network)).map(|(id, _)| (*id).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fiat_amounts() {
        assert_eq!(parse_fiat("100"), Some(10_000));
        assert_eq!(parse_fiat("100.5"), Some(10_050));
        assert_eq!(parse_fiat("7500.00"), Some(750_000));
        for bad in ["", "1.234", "-1", "1e3", "abc", ".5", "1,00"] {
            assert!(parse_fiat(bad).is_none(), "{bad}");
        }
        assert_eq!(format_fiat(9_840), "98.40");
    }

    #[test]
    fn quote_arithmetic() {
        assert_eq!(split_payment(10_000), (150, 10, 9_840));
        assert_eq!(crypto_amount(98.40 / 2500.0, 18), "0.03936");
        assert_eq!(crypto_amount(1234.5678, 6), "1234.57");
        assert_eq!(crypto_amount(98.4, 6), "98.4");
        assert_eq!(to_units("0.03936", 18).unwrap().to_string(), "39360000000000000");
        assert_eq!(to_units("98.4", 6).unwrap().to_string(), "98400000");
        assert!(to_units("1.1234567", 6).is_none());
    }

    #[test]
    fn countries() {
        let mut h = HeaderMap::new();
        assert_eq!(country(None, &h).unwrap(), "US");
        h.insert(axum::http::header::ACCEPT_LANGUAGE, "fr-CA,fr;q=0.9".parse().unwrap());
        assert_eq!(country(None, &h).unwrap(), "CA");
        assert_eq!(country(Some("de"), &h).unwrap(), "DE");
        assert!(country(Some("DEU"), &h).is_err());
        h.insert(axum::http::header::ACCEPT_LANGUAGE, "en;q=1, pt-br".parse().unwrap());
        assert_eq!(country(None, &h).unwrap(), "BR");
    }

    #[test]
    fn session_ids_are_128_bits() {
        let a = new_session_id();
        assert!(is_session_id(&a) && a != new_session_id());
    }
}
