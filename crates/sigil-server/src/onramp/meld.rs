//! Meld: one API over many onramp providers, called with `Authorization: BASIC <key>`. A
//! purchase is a widget session (`POST /crypto/session/widget`), always with the country (without
//! it Meld opens on a provider that may not serve the buyer); a quote is its best crypto quote
//! (`POST /payments/crypto/quote`); a purchase's status is read from its transactions by the
//! session id given as `externalCustomerId`. Meld serves most countries: its offer is the sample
//! payment currencies and a built-in list of what it sells (ETH, USDC, SOL).

use serde_json::{json, Value};

use super::{provider_json, Amount, Offer, ProviderError, PurchaseCurrency, PurchaseNetwork, Quote, QuoteAsk};

pub struct Meld {
    key: String,
    api: String,
}

/// Countries Meld does not serve (sanctioned): every other one is served.
pub const NOT_SERVED: &[&str] = &["CU", "IR", "KP", "SY", "RU", "BY"];

impl Meld {
    pub fn new(key: &str, api: &str) -> Meld {
        Meld { key: key.to_owned(), api: api.trim_end_matches('/').to_owned() }
    }

    fn post(&self, http: &reqwest::Client, path: &str, body: &Value) -> reqwest::RequestBuilder {
        http.post(format!("{}{path}", self.api)).header(reqwest::header::AUTHORIZATION, format!("BASIC {}", self.key)).json(body)
    }

    pub fn serves(country: &str) -> bool {
        !NOT_SERVED.contains(&country)
    }

    /// What Meld offers: the sample payment currencies, ETH and USDC on Ethereum, SOL.
    pub fn offer() -> Offer {
        let network = |name: &str, display: &str, chain: &str, contract: &str| PurchaseNetwork {
            name: name.into(),
            display_name: display.into(),
            chain_id: chain.into(),
            contract_address: contract.into(),
        };
        let mut purchase = super::sample_purchase_currencies();
        purchase.insert(
            0,
            PurchaseCurrency { id: "ETH".into(), name: "Ether".into(), symbol: "ETH".into(), networks: vec![network("ethereum", "Ethereum", "1", "")] },
        );
        purchase.push(PurchaseCurrency {
            id: "SOL".into(),
            name: "Solana".into(),
            symbol: "SOL".into(),
            networks: vec![network("solana", "Solana", "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "")],
        });
        Offer { payment: super::sample_payment_currencies(), purchase }
    }

    /// Meld's best quote (the most of the asset for the amount).
    pub async fn quote(&self, http: &reqwest::Client, ask: &QuoteAsk) -> Result<Quote, ProviderError> {
        let body = json!({
            "countryCode": ask.country,
            "sourceAmount": super::format_fiat(ask.amount),
            "sourceCurrencyCode": ask.payment_currency,
            "destinationCurrencyCode": ask.purchase_currency,
            "paymentMethodType": meld_method(&ask.payment_method),
        });
        let answer = provider_json(self.post(http, "/payments/crypto/quote", &body).send().await).await?;
        let number = |v: &Value, k: &str| v.get(k).and_then(|n| n.as_f64().or_else(|| n.as_str().and_then(|s| s.parse().ok()))).unwrap_or(0.0);
        let best = answer["quotes"]
            .as_array()
            .and_then(|q| q.iter().max_by(|a, b| number(a, "destinationAmount").total_cmp(&number(b, "destinationAmount"))))
            .ok_or_else(|| ProviderError::Refused(format!("no provider quotes {} for {} in {}", ask.purchase_currency, ask.payment_currency, ask.country)))?;
        let fiat = |v: f64| Amount::new(format!("{v:.2}"), ask.payment_currency.clone());
        let total = number(best, "sourceAmount");
        let network_fee = number(best, "networkFee");
        let fee = number(best, "transactionFee");
        let subtotal = best.get("sourceAmountWithoutFees").map_or(total - network_fee - fee, |_| number(best, "sourceAmountWithoutFees"));
        Ok(Quote {
            quote_id: best.get("serviceProvider").and_then(Value::as_str).map_or_else(String::new, |p| format!("meld-{p}")),
            payment_total: fiat(total),
            payment_subtotal: fiat(subtotal),
            purchase_amount: Amount::new(super::crypto_amount(number(best, "destinationAmount"), 18), ask.purchase_currency.clone()),
            coinbase_fee: fiat(fee),
            network_fee: fiat(network_fee),
        })
    }

    /// A widget session for one purchase: the URL the buyer opens.
    #[allow(clippy::too_many_arguments)]
    pub async fn widget(
        &self,
        http: &reqwest::Client,
        session_id: &str,
        address: &str,
        country: &str,
        fiat_currency: &str,
        fiat_amount: &str,
        asset: &str,
        redirect_url: Option<&str>,
    ) -> Result<String, ProviderError> {
        let mut data = json!({
            "walletAddress": address,
            "countryCode": country,
            "sourceCurrencyCode": fiat_currency,
            "sourceAmount": fiat_amount,
            "destinationCurrencyCode": asset,
        });
        if let Some(r) = redirect_url {
            data["redirectUrl"] = r.into();
        }
        let body = json!({"sessionData": data, "sessionType": "BUY", "externalCustomerId": session_id});
        let answer = provider_json(self.post(http, "/crypto/session/widget", &body).send().await).await?;
        answer["widgetUrl"].as_str().map(str::to_owned).ok_or_else(|| ProviderError::Unreachable("the answer has no widgetUrl".into()))
    }

    /// The status of the purchase made under `session_id` (`GET /payments/transactions`):
    /// (status, tx hash), None when Meld has none yet.
    pub async fn transaction(&self, http: &reqwest::Client, session_id: &str) -> Result<Option<(String, Option<String>)>, ProviderError> {
        let url = format!("{}/payments/transactions", self.api);
        let req = http.get(url).query(&[("externalCustomerIds", session_id)]).header(reqwest::header::AUTHORIZATION, format!("BASIC {}", self.key));
        let answer = provider_json(req.send().await).await?;
        let Some(tx) = answer["transactions"].as_array().and_then(|t| t.first()) else { return Ok(None) };
        let status = match tx["status"].as_str().unwrap_or("") {
            "SETTLED" | "COMPLETED" => super::store::COMPLETED,
            "FAILED" | "DECLINED" | "CANCELLED" | "ERROR" | "REFUNDED" => super::store::FAILED,
            _ => super::store::PENDING,
        };
        let hash = tx.pointer("/cryptoDetails/blockchainTransactionId").and_then(Value::as_str).filter(|h| !h.is_empty()).map(str::to_owned);
        Ok(Some((status.to_owned(), hash)))
    }
}

/// Meld's payment method type for ours.
fn meld_method(method: &str) -> &'static str {
    match method.to_ascii_lowercase().as_str() {
        "ach_bank_account" => "ACH",
        "apple_pay" => "APPLE_PAY",
        "google_pay" => "GOOGLE_PAY",
        _ => "CREDIT_DEBIT_CARD",
    }
}
