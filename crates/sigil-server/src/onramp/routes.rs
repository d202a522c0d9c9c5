//! The onramp endpoints: GET /v1/onramp/options, POST /v1/onramp/quote,
//! POST /v1/generators/onrampurl and GET /v1/onramp/sessions/{sessionId} under the project
//! gate, and the sandbox provider's page, GET and POST /onramp/sandbox/{sessionId}, outside it.

use std::sync::{Arc, LazyLock};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::{Extension, Json};
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use super::sandbox::{Sandbox, SESSION_TTL};
use super::store::{self, Session};
use super::{
    coinbase, computed_quote, country, fiat_param, format_fiat, mock_quote, network_caip2, new_session_id, sample_payment_currencies,
    sample_purchase_currencies, to_units, upstream, usd_per, Amount, Offer, PaymentCurrency, Provider, ProviderError, PurchaseCurrency, Quote, QuoteAsk,
    DEFAULT_PAYMENT_METHOD,
};
use crate::db::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::extract::{self, Query};
use crate::guards::{ClientAddr, WriteBudget};
use crate::projects::Project;
use crate::wallet::page::escape;
use crate::AppState;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OptionsQuery {
    /// ISO 3166-1 alpha-2; else the region of Accept-Language; else US.
    pub country: Option<String>,
}

/// A provider that serves the country.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderInfo {
    pub name: String,
    pub label: String,
    pub fee_range: String,
    pub url: String,
    pub supported_chains: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptionsResponse {
    pub country: String,
    pub providers: Vec<ProviderInfo>,
    pub payment_currencies: Vec<PaymentCurrency>,
    pub purchase_currencies: Vec<PurchaseCurrency>,
    /// True when this is the built-in sample list (no provider on, or none answered).
    pub sample: bool,
}

impl AppState {
    fn sandbox_chain(&self) -> Option<(&Sandbox, &crate::chains::ChainConfig)> {
        let sandbox = self.onramp.sandbox.as_ref()?;
        Some((sandbox, self.config.chains.get(&sandbox.chain)?))
    }
}

/// What `provider` offers in `country`: None when it does not serve it.
async fn offer(state: &AppState, provider: Provider, country: &str) -> Result<Option<Offer>, ProviderError> {
    match provider {
        Provider::Sandbox => match state.sandbox_chain() {
            Some((sandbox, chain)) => Ok(Some(sandbox.offer(&state.rpc, chain).await)),
            None => Ok(None),
        },
        Provider::Meld => Ok(super::meld::Meld::serves(country).then(super::meld::Meld::offer)),
        Provider::Coinbase => {
            let offer = state.onramp.coinbase_offer(country).await?;
            Ok((!offer.payment.is_empty() && !offer.purchase.is_empty()).then_some(offer))
        }
    }
}

fn provider_info(state: &AppState, p: Provider) -> ProviderInfo {
    let url = match p {
        Provider::Coinbase => "https://www.coinbase.com".to_owned(),
        Provider::Meld => "https://meldcrypto.com".to_owned(),
        Provider::Sandbox => format!("{}/onramp/sandbox", state.config.public_url),
    };
    ProviderInfo {
        name: p.name().into(),
        label: p.label().into(),
        fee_range: "1-2%".into(),
        url,
        supported_chains: p.supported_chains().iter().map(|c| (*c).to_owned()).collect(),
    }
}

/// What can be bought in the country and how to pay, from the enabled providers that serve it
/// (the union of their lists); the built-in sample list (`sample: true`) when none is on or
/// none answered.
#[utoipa::path(get, path = "/v1/onramp/options", tag = "blockchain",
    params(OptionsQuery, crate::query::ProjectQuery),
    responses((status = 200, body = OptionsResponse), (status = 400, body = crate::error::ErrorBody)))]
pub async fn options(State(state): State<AppState>, headers: HeaderMap, Query(query): Query<OptionsQuery>) -> ApiResult<Json<OptionsResponse>> {
    let country = country(query.country.as_deref(), &headers)?;
    let mut merged = Offer::default();
    let mut providers = Vec::new();
    let mut answered = false;
    for p in state.onramp.providers() {
        match offer(&state, p, &country).await {
            Ok(Some(o)) => {
                answered = true;
                providers.push(provider_info(&state, p));
                super::merge(&mut merged, o);
            }
            Ok(None) => answered = true,
            Err(e) => tracing::warn!(provider = p.name(), error = %e, "onramp provider options failed"),
        }
    }
    if providers.is_empty() && !answered {
        return Ok(Json(OptionsResponse {
            country,
            providers,
            payment_currencies: sample_payment_currencies(),
            purchase_currencies: sample_purchase_currencies(),
            sample: true,
        }));
    }
    Ok(Json(OptionsResponse { country, providers, payment_currencies: merged.payment, purchase_currencies: merged.purchase, sample: false }))
}

#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct QuoteRequest {
    /// coinbase, meld or sandbox; the first enabled one when absent.
    pub provider: Option<String>,
    /// The asset's id or symbol, e.g. ETH, USDC.
    pub purchase_currency: Option<String>,
    /// ISO 4217, e.g. USD.
    pub payment_currency: Option<String>,
    /// The fiat amount, a decimal string (a number is accepted), e.g. "100.00".
    #[schema(value_type = String)]
    pub amount: Value,
    /// CAIP-2 (eip155:8453) or a provider's network name (base).
    pub network: Option<String>,
    /// card (default), ach_bank_account, ...
    pub payment_method: Option<String>,
    /// ISO 3166-1 alpha-2; else from Accept-Language; else US.
    pub country: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteResponse {
    pub provider: String,
    pub quote_id: String,
    pub payment_total: Amount,
    pub payment_subtotal: Amount,
    pub purchase_amount: Amount,
    pub coinbase_fee: Amount,
    pub network_fee: Amount,
    /// True for the mock quote (the provider did not answer, or none is on).
    pub sample: bool,
}

fn quote_response(provider: &str, q: Quote, sample: bool) -> Json<QuoteResponse> {
    Json(QuoteResponse {
        provider: provider.into(),
        quote_id: q.quote_id,
        payment_total: q.payment_total,
        payment_subtotal: q.payment_subtotal,
        purchase_amount: q.purchase_amount,
        coinbase_fee: q.coinbase_fee,
        network_fee: q.network_fee,
        sample,
    })
}

fn required<'a>(name: &str, value: &'a Option<String>, example: &str) -> ApiResult<&'a str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty()).ok_or_else(|| ApiError::invalid_param(name, format!("required, e.g. {example}")))
}

fn fiat_currency(value: &Option<String>) -> ApiResult<String> {
    let c = value.as_deref().map(str::trim).filter(|c| !c.is_empty()).unwrap_or("USD");
    if c.len() != 3 || !c.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ApiError::invalid_param("paymentCurrency", "expected an ISO 4217 code such as USD"));
    }
    Ok(c.to_ascii_uppercase())
}

fn payment_method(value: &Option<String>) -> String {
    value.as_deref().map(str::trim).filter(|m| !m.is_empty()).unwrap_or(DEFAULT_PAYMENT_METHOD).to_ascii_lowercase()
}

/// The asset `symbol` in a provider's offer, on `network` when one is named: 400 otherwise.
fn offered(provider: Provider, offer: &Offer, symbol: &str, network: Option<&str>) -> ApiResult<()> {
    let Some(c) = offer.purchase.iter().find(|c| c.id.eq_ignore_ascii_case(symbol) || c.symbol.eq_ignore_ascii_case(symbol)) else {
        let ids: Vec<&str> = offer.purchase.iter().map(|c| c.symbol.as_str()).collect();
        return Err(ApiError::invalid_param("purchaseCurrency", format!("{symbol} is not sold by {}: one of {}", provider.name(), ids.join(", "))));
    };
    if let Some(network) = network {
        let caip2 = network_caip2(network);
        let found = c.networks.iter().any(|n| {
            n.name.eq_ignore_ascii_case(network)
                || caip2.as_deref().is_some_and(|id| id == format!("eip155:{}", n.chain_id) || id == format!("solana:{}", n.chain_id))
        });
        if !found {
            let names: Vec<&str> = c.networks.iter().map(|n| n.name.as_str()).collect();
            return Err(ApiError::invalid_param("network", format!("{symbol} is not sold on {network} by {}: on {}", provider.name(), names.join(", "))));
        }
    }
    Ok(())
}

/// The sandbox's quote: its fee split at the asset's price in the payment currency.
async fn sandbox_quote(state: &AppState, ask: &QuoteAsk) -> ApiResult<Quote> {
    let (sandbox, chain) = state.sandbox_chain().ok_or_else(|| ApiError::invalid_param("provider", "provider 'sandbox' is not enabled on this server"))?;
    let offer = sandbox.offer(&state.rpc, chain).await;
    offered(Provider::Sandbox, &offer, &ask.purchase_currency, ask.network.as_deref())?;
    offer.check_amount(Provider::Sandbox, &ask.payment_currency, &ask.payment_method, ask.amount)?;
    let asset = Sandbox::asset(chain, &ask.purchase_currency).expect("offered");
    let price = Sandbox::usd_price(&state.rpc, &state.config.chains, chain, &asset).await / usd_per(&ask.payment_currency).unwrap_or(1.0);
    let ask = QuoteAsk { purchase_currency: asset.symbol.clone(), ..ask.clone() };
    Ok(computed_quote(&ask, price, asset.decimals, format!("sandbox-{}", uuid::Uuid::new_v4().simple())))
}

/// A quote for buying `purchaseCurrency` with `amount` of `paymentCurrency`: from the named
/// provider, else the first enabled one. Bad input is a 400 that says why (the payment
/// method's limits included); a provider that does not answer gives the mock quote
/// (`sample: true`).
#[utoipa::path(post, path = "/v1/onramp/quote", tag = "blockchain",
    params(crate::query::ProjectQuery), request_body = QuoteRequest,
    responses((status = 200, body = QuoteResponse), (status = 400, body = crate::error::ErrorBody)))]
pub async fn quote(State(state): State<AppState>, headers: HeaderMap, extract::Json(req): extract::Json<QuoteRequest>) -> ApiResult<Json<QuoteResponse>> {
    let provider = state.onramp.choose(req.provider.as_deref())?;
    let ask = QuoteAsk {
        purchase_currency: required("purchaseCurrency", &req.purchase_currency, "ETH")?.to_owned(),
        payment_currency: fiat_currency(&req.payment_currency)?,
        amount: fiat_param("amount", &req.amount)?,
        network: req.network.as_deref().map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned),
        payment_method: payment_method(&req.payment_method),
        country: country(req.country.as_deref(), &headers)?,
    };
    let Some(provider) = provider else {
        sample_payment_currencies_check(&ask)?;
        return Ok(quote_response("sample", mock_quote(&ask), true));
    };
    let mock = |e: ProviderError| -> ApiResult<Json<QuoteResponse>> {
        match e {
            ProviderError::Refused(_) => Err(upstream(provider, &e)),
            ProviderError::Unreachable(why) => {
                tracing::warn!(provider = provider.name(), error = %why, "onramp quote failed; answering the mock quote");
                Ok(quote_response(provider.name(), mock_quote(&ask), true))
            }
        }
    };
    match provider {
        Provider::Sandbox => Ok(quote_response(provider.name(), sandbox_quote(&state, &ask).await?, false)),
        Provider::Meld => {
            let meld = state.onramp.meld.as_ref().expect("enabled");
            if !super::meld::Meld::serves(&ask.country) {
                return Err(ApiError::invalid_param("country", format!("Meld does not serve {}", ask.country)));
            }
            let offer = super::meld::Meld::offer();
            offer.check_amount(provider, &ask.payment_currency, &ask.payment_method, ask.amount)?;
            match meld.quote(&state.onramp.http, &ask).await {
                Ok(q) => Ok(quote_response(provider.name(), q, false)),
                Err(e) => mock(e),
            }
        }
        Provider::Coinbase => {
            let cb = state.onramp.coinbase.as_ref().expect("enabled");
            let offer = match state.onramp.coinbase_offer(&ask.country).await {
                Ok(o) => o,
                Err(e) => return mock(e),
            };
            if offer.payment.is_empty() {
                return Err(ApiError::invalid_param("country", format!("Coinbase does not serve {}", ask.country)));
            }
            offered(provider, &offer, &ask.purchase_currency, ask.network.as_deref())?;
            offer.check_amount(provider, &ask.payment_currency, &ask.payment_method, ask.amount)?;
            match cb.quote(&state.onramp.http, &ask).await {
                Ok(q) => Ok(quote_response(provider.name(), q, false)),
                Err(e) => mock(e),
            }
        }
    }
}

/// The mock quote's input against the sample lists' limits.
fn sample_payment_currencies_check(ask: &QuoteAsk) -> ApiResult<()> {
    let offer = Offer { payment: sample_payment_currencies(), purchase: Vec::new() };
    offer
        .check_amount(Provider::Sandbox, &ask.payment_currency, &ask.payment_method, ask.amount)
        .map_err(|e| ApiError { message: e.message.replace("offered by sandbox", "offered"), ..e })
}

#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct DestinationWallet {
    pub address: String,
    /// CAIP-2 ids (or Coinbase network names).
    pub blockchains: Vec<String>,
    /// Asset symbols, e.g. ETH.
    pub assets: Vec<String>,
}

#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct OnrampUrlRequest {
    pub provider: Option<String>,
    /// Exactly one.
    pub destination_wallets: Vec<DestinationWallet>,
    /// CAIP-2 (or a Coinbase network name); else the wallet's first blockchain.
    pub default_network: Option<String>,
    pub partner_user_id: Option<String>,
    pub default_experience: Option<String>,
    #[schema(value_type = Option<String>)]
    pub preset_crypto_amount: Value,
    #[schema(value_type = Option<String>)]
    pub preset_fiat_amount: Value,
    pub fiat_currency: Option<String>,
    pub payment_method: Option<String>,
    pub country: Option<String>,
    pub redirect_url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OnrampUrlResponse {
    pub url: String,
    pub session_id: String,
}

/// The destination address checked for its chain's family: EVM (any case, stored EIP-55) or
/// Solana (base58 of 32 bytes).
fn destination(address: &str, network: &str) -> ApiResult<String> {
    let bad = |why: &str| ApiError::invalid_param("destinationWallets", format!("the address is not {why}"));
    if network.starts_with("eip155:") {
        let a = sigil_core::evm::parse_address(address.trim()).ok_or_else(|| bad("an EVM address (0x and 40 hex digits)"))?;
        Ok(a.to_checksum(None))
    } else if network.starts_with("solana:") {
        crate::families::solana::check_address(address.trim()).map_err(|_| bad("a Solana address (base58 of a 32-byte public key)"))
    } else {
        Err(ApiError::invalid_param("defaultNetwork", format!("{network} is not an EVM or Solana network")))
    }
}

fn optional_fiat(name: &str, value: &Value) -> ApiResult<Option<u64>> {
    if value.is_null() {
        return Ok(None);
    }
    fiat_param(name, value).map(Some)
}

fn optional_crypto(value: &Value) -> ApiResult<Option<f64>> {
    let text = match value {
        Value::Null => return Ok(None),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err(ApiError::invalid_param("presetCryptoAmount", "expected a decimal amount")),
    };
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && !text.contains(['e', 'E']) => Ok(Some(v)),
        _ => Err(ApiError::invalid_param("presetCryptoAmount", "expected a decimal amount above 0")),
    }
}

/// The fiat amount a sandbox purchase of `crypto` costs at `price` with its fees, rounded up.
fn fiat_for(crypto: f64, price: f64) -> u64 {
    let net = (crypto * price * 100.0 - 1e-6).ceil();
    let gross = (net + super::NETWORK_FEE_CENTS as f64) * 10_000.0 / (10_000 - super::FEE_BASIS_POINTS) as f64;
    gross.ceil().min(1e13) as u64
}

/// A purchase at a provider for the one destination wallet: the URL the buyer opens and the
/// stored session's id (`partnerUserRef` at Coinbase, `externalCustomerId` at Meld).
#[utoipa::path(post, path = "/v1/generators/onrampurl", tag = "blockchain",
    params(crate::query::ProjectQuery), request_body = OnrampUrlRequest,
    responses((status = 200, body = OnrampUrlResponse), (status = 400, body = crate::error::ErrorBody), (status = 502, body = crate::error::ErrorBody)))]
pub async fn generate_url(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    ClientAddr(client): ClientAddr,
    _: WriteBudget,
    headers: HeaderMap,
    extract::Json(req): extract::Json<OnrampUrlRequest>,
) -> ApiResult<Json<OnrampUrlResponse>> {
    let provider =
        state.onramp.choose(req.provider.as_deref())?.ok_or_else(|| ApiError::invalid_param("provider", "no onramp provider is enabled on this server"))?;
    let [wallet] = req.destination_wallets.as_slice() else {
        return Err(ApiError::invalid_param("destinationWallets", format!("exactly one destination wallet is needed, got {}", req.destination_wallets.len())));
    };
    let network_text = req.default_network.as_deref().map(str::trim).filter(|n| !n.is_empty()).or_else(|| wallet.blockchains.first().map(String::as_str));
    let network = match (network_text, provider) {
        (Some(n), _) => {
            network_caip2(n).ok_or_else(|| ApiError::invalid_param("defaultNetwork", format!("'{n}' is not a CAIP-2 network id such as eip155:1")))?
        }
        (None, Provider::Sandbox) => state.onramp.sandbox.as_ref().map(|s| s.chain.clone()).unwrap_or_default(),
        (None, _) => "eip155:1".to_owned(),
    };
    let namespace = network.split(':').next().unwrap_or("");
    if !provider.supported_chains().contains(&namespace) {
        return Err(ApiError::invalid_param(
            "defaultNetwork",
            format!("{} serves {} networks only", provider.name(), provider.supported_chains().join(" and ")),
        ));
    }
    let address = destination(&wallet.address, &network)?;
    let fiat_currency = fiat_currency(&req.fiat_currency).map_err(|_| ApiError::invalid_param("fiatCurrency", "expected an ISO 4217 code such as USD"))?;
    let method = payment_method(&req.payment_method);
    let country = country(req.country.as_deref(), &headers)?;
    let preset_fiat = optional_fiat("presetFiatAmount", &req.preset_fiat_amount)?;
    let preset_crypto = optional_crypto(&req.preset_crypto_amount)?;
    let redirect = match req.redirect_url.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => match url::Url::parse(r) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some() => Some(u.to_string()),
            _ => return Err(ApiError::invalid_param("redirectUrl", "expected an http(s) URL")),
        },
        None => None,
    };
    let id = new_session_id();
    let now = now_ms();
    let mut session = Session {
        id: id.clone(),
        project_id: project.id.clone(),
        provider: provider.name().into(),
        address: address.clone(),
        network: network.clone(),
        asset: wallet.assets.first().map(|a| a.trim().to_owned()).unwrap_or_default(),
        fiat_amount: preset_fiat.map(format_fiat).unwrap_or_default(),
        fiat_currency: fiat_currency.clone(),
        purchase_amount: None,
        status: store::PENDING.into(),
        tx_hash: None,
        failure: None,
        created_at: now,
        updated_at: now,
    };
    let url = match provider {
        Provider::Sandbox => {
            let (sandbox, chain) = state.sandbox_chain().ok_or_else(|| ApiError::invalid_param("provider", "provider 'sandbox' is not enabled"))?;
            if network != sandbox.chain {
                return Err(ApiError::invalid_param("defaultNetwork", format!("the sandbox sells on {} only", sandbox.chain)));
            }
            let symbol = if session.asset.is_empty() { chain.native.symbol.clone() } else { session.asset.clone() };
            let offer = sandbox.offer(&state.rpc, chain).await;
            offered(provider, &offer, &symbol, None).map_err(|e| ApiError { message: e.message.replace("'purchaseCurrency'", "'destinationWallets'"), ..e })?;
            let asset = Sandbox::asset(chain, &symbol).expect("offered");
            let price = Sandbox::usd_price(&state.rpc, &state.config.chains, chain, &asset).await / usd_per(&fiat_currency).unwrap_or(1.0);
            let fiat = preset_fiat.unwrap_or_else(|| preset_crypto.map_or(10_000, |c| fiat_for(c, price)));
            offer
                .check_amount(provider, &fiat_currency, &method, fiat)
                .map_err(|e| ApiError { message: e.message.replace("'amount'", "'presetFiatAmount'"), ..e })?;
            let ask = QuoteAsk {
                purchase_currency: asset.symbol.clone(),
                payment_currency: fiat_currency.clone(),
                amount: fiat,
                network: None,
                payment_method: method.clone(),
                country: country.clone(),
            };
            let quote = computed_quote(&ask, price, asset.decimals, String::new());
            session.asset = asset.symbol;
            session.fiat_amount = format_fiat(fiat);
            session.purchase_amount = Some(quote.purchase_amount.amount);
            format!("{}/onramp/sandbox/{id}", state.config.public_url)
        }
        Provider::Coinbase => {
            let cb = state.onramp.coinbase.as_ref().expect("enabled");
            let cb_network = coinbase::network_name(&network);
            let token = cb
                .session_token(&state.onramp.http, &address, std::slice::from_ref(&cb_network), &wallet.assets, &client.to_string())
                .await
                .map_err(|e| upstream(provider, &e))?;
            let mut params = vec![("sessionToken", token), ("defaultNetwork", cb_network)];
            if let Some(asset) = wallet.assets.first() {
                params.push(("defaultAsset", asset.clone()));
            }
            if let Some(f) = preset_fiat {
                params.push(("presetFiatAmount", format_fiat(f)));
            } else if preset_crypto.is_some() {
                let text = match &req.preset_crypto_amount {
                    Value::String(s) => s.trim().to_owned(),
                    other => other.to_string(),
                };
                params.push(("presetCryptoAmount", text));
            }
            params.push(("fiatCurrency", fiat_currency.clone()));
            if let Some(e) = req.default_experience.as_deref().filter(|e| matches!(*e, "buy" | "send")) {
                params.push(("defaultExperience", e.to_owned()));
            }
            params.push(("defaultPaymentMethod", method.to_ascii_uppercase()));
            params.push(("partnerUserRef", id.clone()));
            if let Some(r) = &redirect {
                params.push(("redirectUrl", r.clone()));
            }
            cb.buy_url(&params)
        }
        Provider::Meld => {
            let meld = state.onramp.meld.as_ref().expect("enabled");
            let asset = if session.asset.is_empty() { if namespace == "solana" { "SOL" } else { "ETH" }.to_owned() } else { session.asset.clone() };
            let fiat = format_fiat(preset_fiat.unwrap_or(10_000));
            let url = meld
                .widget(&state.onramp.http, &id, &address, &country, &fiat_currency, &fiat, &asset, redirect.as_deref())
                .await
                .map_err(|e| upstream(provider, &e))?;
            session.asset = asset;
            session.fiat_amount = fiat;
            url
        }
    };
    session.insert(&state.db).await?;
    Ok(Json(OnrampUrlResponse { url, session_id: id }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionResponse {
    pub session_id: String,
    pub provider: String,
    /// pending, completed or failed.
    pub status: String,
    pub tx_hash: Option<String>,
    /// CAIP-2.
    pub network: String,
    pub address: String,
    pub purchase_amount: Option<Amount>,
}

/// How a purchase went: the sandbox's from its table; Coinbase's and Meld's asked of them while
/// pending, and stored once final (a provider that does not answer leaves it pending).
#[utoipa::path(get, path = "/v1/onramp/sessions/{sessionId}", tag = "blockchain",
    params(("sessionId" = String, Path, description = "The session id from /v1/generators/onrampurl"), crate::query::ProjectQuery),
    responses((status = 200, body = SessionResponse), (status = 404, body = crate::error::ErrorBody)))]
pub async fn session(State(state): State<AppState>, Extension(project): Extension<Arc<Project>>, Path(id): Path<String>) -> ApiResult<Json<SessionResponse>> {
    let unknown = || ApiError::not_found("Unknown onramp session");
    if !super::is_session_id(&id) {
        return Err(unknown());
    }
    let mut s = Session::get(&state.db, &id).await?.filter(|s| s.project_id == project.id).ok_or_else(unknown)?;
    if s.status == store::PENDING {
        let found = match s.provider.as_str() {
            "coinbase" => match &state.onramp.coinbase {
                Some(cb) => cb.transaction(&state.onramp.http, &id).await.map(|t| t.map(|(st, h, a)| (st, h, a.map(|a| a.amount)))),
                None => Ok(None),
            },
            "meld" => match &state.onramp.meld {
                Some(m) => m.transaction(&state.onramp.http, &id).await.map(|t| t.map(|(st, h)| (st, h, None))),
                None => Ok(None),
            },
            _ => Ok(None),
        };
        match found {
            Ok(Some((status, hash, amount))) if status != store::PENDING => {
                let failure = (status == store::FAILED).then_some("the provider reports the purchase failed");
                Session::finish(&state.db, &id, &status, hash.as_deref(), amount.as_deref(), failure, now_ms()).await?;
                s = Session::get(&state.db, &id).await?.ok_or_else(unknown)?;
            }
            Ok(Some((_, Some(hash), _))) => s.tx_hash = Some(hash),
            Ok(_) => {}
            Err(e) => tracing::warn!(provider = %s.provider, error = %e, "onramp status not available"),
        }
    }
    let status = if s.status == store::PAYING { store::PENDING.to_owned() } else { s.status.clone() };
    let purchase_amount = s.purchase_amount.clone().map(|a| Amount::new(a, s.asset.clone()));
    Ok(Json(SessionResponse { session_id: s.id, provider: s.provider, status, tx_hash: s.tx_hash, network: s.network, address: s.address, purchase_amount }))
}

// The sandboxes' pages: the onramp's provider here, pay's exchange (pay/routes.rs).

const STYLE: &str = ":root{color-scheme:light dark}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;\
font:15px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#15171a}@media(prefers-color-scheme:dark){body{background:#101214;color:#e8eaed}\
section{background:#1b1e21!important}}section{max-width:420px;width:100%;margin:16px;padding:28px 24px;border-radius:20px;background:#fff;\
box-shadow:0 1px 3px rgba(0,0,0,.15)}h1{font-size:20px;margin:0 0 16px}dl{margin:0 0 20px}dt{font-size:13px;opacity:.7}dd{margin:0 0 10px;\
font-weight:600;overflow-wrap:anywhere}form{display:flex;gap:10px}button{flex:1;padding:12px;border:0;border-radius:12px;font:inherit;\
font-weight:600;cursor:pointer;background:#2f6bf0;color:#fff}button[value=decline],button[value=cancel]{background:#8a8f98}p{overflow-wrap:anywhere}";

static STYLE_HASH: LazyLock<String> = LazyLock::new(|| format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE))));

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    sandbox_document(status, "Sigil sandbox provider", title, body)
}

/// A sandbox's page, `site` naming it in the title: the one style (its hash in the CSP), no
/// script, not cached, sent nowhere as a referrer.
pub(crate) fn sandbox_document(status: StatusCode, site: &str, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content=\"width=device-width,initial-scale=1\">\
         <title>{t} - {site}</title><style>{STYLE}</style><body><section><h1>{t}</h1>{body}</section>",
        t = escape(title),
        site = escape(site)
    );
    let mut res = (status, Html(html)).into_response();
    let policy = format!("default-src 'none'; style-src {}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'", *STYLE_HASH);
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_str(&policy).expect("ASCII"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    res
}

fn text_page(status: StatusCode, title: &str, text: &str) -> Response {
    page(status, title, &format!("<p>{}</p>", escape(text)))
}

async fn sandbox_session(state: &AppState, id: &str) -> Result<Session, Response> {
    let unknown = || text_page(StatusCode::NOT_FOUND, "Purchase not found", "This sandbox purchase does not exist.");
    if !super::is_session_id(id) {
        return Err(unknown());
    }
    match Session::get(&state.db, id).await {
        Ok(Some(s)) if s.provider == Provider::Sandbox.name() => Ok(s),
        Ok(_) => Err(unknown()),
        Err(e) => {
            tracing::error!(error = %e, "onramp session unreadable");
            Err(text_page(StatusCode::SERVICE_UNAVAILABLE, "Try again", "The sandbox cannot read this purchase now."))
        }
    }
}

fn expired(s: &Session, now: i64) -> bool {
    s.created_at <= now - SESSION_TTL.as_millis() as i64
}

/// The page for a session that cannot be paid or declined any more (`acting`: a Pay or Decline
/// came for it).
fn settled_page(s: &Session, now: i64, acting: bool) -> Response {
    match s.status.as_str() {
        store::COMPLETED if !acting => done_page(s.tx_hash.as_deref().unwrap_or("")),
        store::COMPLETED => page(
            StatusCode::CONFLICT,
            "This purchase is already completed",
            &format!("<dl><dt>Transaction</dt><dd>{}</dd></dl>", escape(s.tx_hash.as_deref().unwrap_or(""))),
        ),
        store::PAYING => text_page(StatusCode::CONFLICT, "This purchase is already completed", "The payment is being sent."),
        store::FAILED if s.failure.as_deref() == Some("declined") => text_page(StatusCode::CONFLICT, "Payment declined", "This purchase was declined."),
        store::FAILED => text_page(StatusCode::CONFLICT, "Payment failed", s.failure.as_deref().unwrap_or("This purchase failed.")),
        _ if expired(s, now) => text_page(StatusCode::GONE, "This purchase has expired", "Start a new purchase from the wallet."),
        _ => text_page(StatusCode::CONFLICT, "This purchase is already completed", "Nothing more to do."),
    }
}

fn done_page(hash: &str) -> Response {
    page(StatusCode::OK, "Payment complete", &format!("<dl><dt>Transaction</dt><dd>{}</dd></dl><p>You can close this window.</p>", escape(hash)))
}

/// The sandbox provider's checkout page: what is paid and bought, where it goes, Pay and
/// Decline.
#[utoipa::path(get, path = "/onramp/sandbox/{sessionId}", tag = "blockchain",
    params(("sessionId" = String, Path, description = "A sandbox session id")),
    responses((status = 200, description = "The sandbox checkout page", content_type = "text/html"), (status = 404, description = "Unknown purchase", content_type = "text/html")))]
pub async fn sandbox_page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let s = match sandbox_session(&state, &id).await {
        Ok(s) => s,
        Err(page) => return page,
    };
    let now = now_ms();
    if s.status != store::PENDING || expired(&s, now) {
        return settled_page(&s, now, false);
    }
    let network = state.config.chains.get(&s.network).map_or(s.network.clone(), |c| c.name.clone());
    let body = format!(
        "<dl><dt>You pay</dt><dd>{} {}</dd><dt>You receive</dt><dd>{} {} on {}</dd><dt>To</dt><dd>{}</dd></dl>\
         <form method=post action=\"/onramp/sandbox/{}\"><button name=action value=pay>Pay</button><button name=action value=decline>Decline</button></form>",
        escape(&s.fiat_amount),
        escape(&s.fiat_currency),
        escape(s.purchase_amount.as_deref().unwrap_or("")),
        escape(&s.asset),
        escape(&network),
        escape(&s.address),
        escape(&s.id),
    );
    page(StatusCode::OK, "Sigil sandbox provider", &body)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SandboxAction {
    /// pay or decline.
    pub action: String,
}

/// The sandbox checkout's buttons: `pay` sends the bought amount to the address (once, however
/// many requests come) and waits for it to be mined; `decline` ends the purchase as failed.
#[utoipa::path(post, path = "/onramp/sandbox/{sessionId}", tag = "blockchain",
    params(("sessionId" = String, Path, description = "A sandbox session id")),
    request_body(content = SandboxAction, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "The outcome page", content_type = "text/html"), (status = 404, description = "Unknown purchase", content_type = "text/html")))]
pub async fn sandbox_action(State(state): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let s = match sandbox_session(&state, &id).await {
        Ok(s) => s,
        Err(page) => return page,
    };
    let action = serde_urlencoded::from_bytes::<SandboxAction>(&body).map(|a| a.action).unwrap_or_default();
    let now = now_ms();
    match action.as_str() {
        "decline" => match Session::decline(&state.db, &id, now).await {
            Ok(true) => text_page(StatusCode::OK, "Payment declined", "Nothing was paid. You can close this window."),
            Ok(false) => settled_page(&Session::get(&state.db, &id).await.ok().flatten().unwrap_or(s), now, true),
            Err(e) => {
                tracing::error!(error = %e, "onramp session not updated");
                text_page(StatusCode::SERVICE_UNAVAILABLE, "Try again", "The sandbox cannot record this now.")
            }
        },
        "pay" => pay(&state, s, now).await,
        _ => text_page(StatusCode::BAD_REQUEST, "Unknown action", "Choose Pay or Decline."),
    }
}

async fn pay(state: &AppState, s: Session, now: i64) -> Response {
    let not_before = now - SESSION_TTL.as_millis() as i64;
    match Session::start_paying(&state.db, &s.id, not_before, now).await {
        Ok(true) => {}
        Ok(false) => return settled_page(&Session::get(&state.db, &s.id).await.ok().flatten().unwrap_or(s), now, true),
        Err(e) => {
            tracing::error!(error = %e, "onramp session not updated");
            return text_page(StatusCode::SERVICE_UNAVAILABLE, "Try again", "The sandbox cannot record this now.");
        }
    }
    // The send and its outcome run as their own task: a request given up (the client gone, the
    // request timeout) never leaves a session paying with its transfer unrecorded.
    let task = {
        let state = state.clone();
        let s = s.clone();
        tokio::spawn(async move { send_and_record(&state, &s).await })
    };
    let outcome = task.await.unwrap_or_else(|_| Err("the sandbox failed while sending".to_owned()));
    match outcome {
        Ok(hash) => done_page(&hash),
        Err(why) => text_page(StatusCode::BAD_GATEWAY, "Payment failed", &why),
    }
}

/// Sends a paying session's amount and records the outcome.
async fn send_and_record(state: &AppState, s: &Session) -> Result<String, String> {
    let outcome = match state.sandbox_chain() {
        None => Err("the sandbox provider is off".to_owned()),
        Some((sandbox, chain)) => match (Sandbox::asset(chain, &s.asset), s.purchase_amount.as_deref()) {
            (Some(asset), Some(amount)) => match to_units(amount, asset.decimals) {
                Some(units) => sandbox.send(&state.rpc, &asset, &s.address, units).await,
                None => Err("the purchase amount is not readable".to_owned()),
            },
            _ => Err(format!("the sandbox does not sell {}", s.asset)),
        },
    };
    let finished = match &outcome {
        Ok(hash) => Session::finish(&state.db, &s.id, store::COMPLETED, Some(hash), None, None, now_ms()).await,
        Err(why) => {
            tracing::warn!(session = %s.id, reason = %why, "sandbox payment failed");
            Session::finish(&state.db, &s.id, store::FAILED, None, None, Some(why), now_ms()).await
        }
    };
    if let Err(e) = finished {
        tracing::error!(error = %e, "onramp session outcome not stored");
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::super::parse_fiat;
    use super::*;

    #[test]
    fn fiat_for_a_crypto_amount_covers_the_fees() {
        let fiat = fiat_for(0.03936, 2500.0);
        assert_eq!(fiat, 10_000);
        assert_eq!(parse_fiat(&format_fiat(fiat)), Some(fiat));
    }
}
