//! Coinbase Onramp (CDP): every call carries a JWT made from a CDP secret API key, ES256 (a PEM
//! EC key) or EdDSA (a base64 Ed25519 key), with `sub` and `kid` the key's name, `iss` "cdp",
//! two minutes of life, a random `nonce` in its header and `uri` the call ("POST host/path").
//! The calls: buy options for a country, a buy quote, a session token bound to the one
//! destination address and the buyer's IP, and a partner user's transactions (a purchase's
//! status). Answers are read tolerantly (snake or camel case, amounts as `value` or `amount`).

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::{json, Value};

use super::{provider_json, Amount, MethodLimit, Offer, PaymentCurrency, ProviderError, PurchaseCurrency, PurchaseNetwork, Quote, QuoteAsk, COINBASE_NETWORKS};

/// How long a call's JWT lives.
pub const JWT_SECONDS: u64 = 120;

/// A CDP secret API key's secret.
pub enum KeySecret {
    Es256(p256::ecdsa::SigningKey),
    Ed25519(ed25519_dalek::SigningKey),
}

impl KeySecret {
    /// A PEM EC private key (SEC1 or PKCS#8; `\n` written as two characters is read as a line
    /// break, as environment variables often carry it), else a base64 Ed25519 key (64 bytes:
    /// seed and public key, or the 32-byte seed).
    pub fn parse(secret: &str) -> Result<KeySecret, &'static str> {
        let secret = secret.trim().replace("\\n", "\n");
        if secret.starts_with("-----BEGIN") {
            use p256::pkcs8::DecodePrivateKey;
            if let Ok(key) = p256::SecretKey::from_sec1_pem(&secret) {
                return Ok(KeySecret::Es256(key.into()));
            }
            return p256::ecdsa::SigningKey::from_pkcs8_pem(&secret).map(KeySecret::Es256).map_err(|_| "the PEM is not a P-256 EC private key");
        }
        let bytes = STANDARD.decode(secret.as_bytes()).map_err(|_| "expected a PEM EC private key or a base64 Ed25519 key")?;
        let seed: [u8; 32] = match bytes.len() {
            64 | 32 => bytes[..32].try_into().expect("32 bytes"),
            _ => return Err("a base64 Ed25519 key must be 32 or 64 bytes"),
        };
        Ok(KeySecret::Ed25519(ed25519_dalek::SigningKey::from_bytes(&seed)))
    }

    fn alg(&self) -> &'static str {
        match self {
            KeySecret::Es256(_) => "ES256",
            KeySecret::Ed25519(_) => "EdDSA",
        }
    }

    fn sign(&self, message: &[u8]) -> Vec<u8> {
        match self {
            KeySecret::Es256(key) => {
                use p256::ecdsa::signature::Signer;
                let signature: p256::ecdsa::Signature = key.sign(message);
                signature.to_bytes().to_vec()
            }
            KeySecret::Ed25519(key) => {
                use ed25519_dalek::Signer;
                key.sign(message).to_bytes().to_vec()
            }
        }
    }
}

pub struct Coinbase {
    key_name: String,
    key: KeySecret,
    api: url::Url,
    pay: String,
}

impl Coinbase {
    pub fn new(key_name: &str, key: KeySecret, api: &str, pay: &str) -> Coinbase {
        Coinbase {
            key_name: key_name.to_owned(),
            key,
            api: url::Url::parse(api).unwrap_or_else(|_| url::Url::parse("https://api.developer.coinbase.com").expect("a URL")),
            pay: pay.trim_end_matches('/').to_owned(),
        }
    }

    /// The URL of `path` on the API, and the JWT for calling it with `method`.
    pub fn endpoint(&self, method: &str, path: &str) -> (url::Url, String) {
        let mut url = self.api.clone();
        let base = url.path().trim_end_matches('/').to_owned();
        url.set_path(&format!("{base}{path}"));
        let host = match url.port() {
            Some(port) => format!("{}:{port}", url.host_str().unwrap_or("")),
            None => url.host_str().unwrap_or("").to_owned(),
        };
        let uri = format!("{method} {host}{}", url.path());
        (url, self.jwt(&uri))
    }

    /// A JWT for one call (`uri` is "METHOD host/path").
    pub fn jwt(&self, uri: &str) -> String {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_secs();
        let header = json!({"alg": self.key.alg(), "kid": self.key_name, "typ": "JWT", "nonce": hex::encode(rand::random::<[u8; 16]>())});
        let claims = json!({"sub": self.key_name, "iss": "cdp", "nbf": now, "exp": now + JWT_SECONDS, "uri": uri});
        let signed = format!("{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), URL_SAFE_NO_PAD.encode(claims.to_string()));
        let signature = URL_SAFE_NO_PAD.encode(self.key.sign(signed.as_bytes()));
        format!("{signed}.{signature}")
    }

    /// What Coinbase offers in `country` (`GET /onramp/v1/buy/options`); an empty offer when
    /// it does not serve the country.
    pub async fn options(&self, http: &reqwest::Client, country: &str) -> Result<Offer, ProviderError> {
        let (mut url, jwt) = self.endpoint("GET", "/onramp/v1/buy/options");
        url.query_pairs_mut().append_pair("country", country);
        let answer = provider_json(http.get(url).bearer_auth(jwt).send().await).await?;
        Ok(parse_options(&answer))
    }

    /// A buy quote (`POST /onramp/v1/buy/quote`).
    pub async fn quote(&self, http: &reqwest::Client, ask: &QuoteAsk) -> Result<Quote, ProviderError> {
        let (url, jwt) = self.endpoint("POST", "/onramp/v1/buy/quote");
        let mut body = json!({
            "purchase_currency": ask.purchase_currency,
            "payment_amount": super::format_fiat(ask.amount),
            "payment_currency": ask.payment_currency,
            "payment_method": ask.payment_method.to_ascii_uppercase(),
            "country": ask.country,
        });
        if let Some(network) = &ask.network {
            body["purchase_network"] = network_name(network).into();
        }
        let answer = provider_json(http.post(url).bearer_auth(jwt).json(&body).send().await).await?;
        let amount = |keys: &[&str]| -> Result<Amount, ProviderError> {
            let v =
                keys.iter().map(|k| &answer[*k]).find(|v| v.is_object()).ok_or_else(|| ProviderError::Unreachable(format!("the quote has no {}", keys[0])))?;
            let value = v.get("value").or_else(|| v.get("amount")).and_then(Value::as_str).unwrap_or("0");
            Ok(Amount::new(value, v.get("currency").and_then(Value::as_str).unwrap_or("")))
        };
        Ok(Quote {
            quote_id: answer.get("quote_id").or_else(|| answer.get("quoteId")).and_then(Value::as_str).unwrap_or("").to_owned(),
            payment_total: amount(&["payment_total", "paymentTotal"])?,
            payment_subtotal: amount(&["payment_subtotal", "paymentSubtotal", "paymentSubTotal"])?,
            purchase_amount: amount(&["purchase_amount", "purchaseAmount"])?,
            coinbase_fee: amount(&["coinbase_fee", "coinbaseFee"])?,
            network_fee: amount(&["network_fee", "networkFee"])?,
        })
    }

    /// A single-use session token for buying into `address` on `networks` (Coinbase names),
    /// from `client_ip` (`POST /onramp/v1/token`).
    pub async fn session_token(
        &self,
        http: &reqwest::Client,
        address: &str,
        networks: &[String],
        assets: &[String],
        client_ip: &str,
    ) -> Result<String, ProviderError> {
        let (url, jwt) = self.endpoint("POST", "/onramp/v1/token");
        let mut body = json!({"addresses": [{"address": address, "blockchains": networks}], "clientIp": client_ip});
        if !assets.is_empty() {
            body["assets"] = json!(assets);
        }
        let answer = provider_json(http.post(url).bearer_auth(jwt).json(&body).send().await).await?;
        answer["token"].as_str().map(str::to_owned).ok_or_else(|| ProviderError::Unreachable("the answer has no token".into()))
    }

    /// The buyer's page for a session token (`/buy/select-asset`).
    pub fn buy_url(&self, params: &[(&str, String)]) -> String {
        let mut url = url::Url::parse(&format!("{}/buy/select-asset", self.pay))
            .unwrap_or_else(|_| url::Url::parse("https://pay.coinbase.com/buy/select-asset").expect("a URL"));
        for (k, v) in params {
            url.query_pairs_mut().append_pair(k, v);
        }
        url.to_string()
    }

    /// The latest transaction of a partner user (`GET /onramp/v1/buy/user/{ref}/transactions`):
    /// (status, tx hash, purchase amount), None when there is none yet.
    pub async fn transaction(&self, http: &reqwest::Client, partner_ref: &str) -> Result<Option<(String, Option<String>, Option<Amount>)>, ProviderError> {
        let (url, jwt) = self.endpoint("GET", &format!("/onramp/v1/buy/user/{partner_ref}/transactions"));
        let answer = provider_json(http.get(url).bearer_auth(jwt).send().await).await?;
        let Some(tx) = answer["transactions"].as_array().and_then(|t| t.first()) else { return Ok(None) };
        let status = match tx["status"].as_str().unwrap_or("") {
            "ONRAMP_TRANSACTION_STATUS_SUCCESS" => super::store::COMPLETED,
            "ONRAMP_TRANSACTION_STATUS_FAILED" => super::store::FAILED,
            _ => super::store::PENDING,
        };
        let hash = tx.get("tx_hash").or_else(|| tx.get("txHash")).and_then(Value::as_str).filter(|h| !h.is_empty()).map(str::to_owned);
        let amount = tx.get("purchase_amount").or_else(|| tx.get("purchaseAmount")).and_then(|a| {
            let value = a.get("value").or_else(|| a.get("amount")).and_then(Value::as_str)?;
            Some(Amount::new(value, a.get("currency").and_then(Value::as_str).unwrap_or("")))
        });
        Ok(Some((status.to_owned(), hash, amount)))
    }
}

/// The Coinbase name of a network given as CAIP-2 (or already a name); Ethereum when unknown.
pub fn network_name(network: &str) -> String {
    if !network.contains(':') {
        return network.to_ascii_lowercase();
    }
    COINBASE_NETWORKS.iter().find(|(id, _)| *id == network).map_or("ethereum", |(_, name)| name).to_owned()
}

fn text<'a>(v: &'a Value, keys: &[&str]) -> &'a str {
    keys.iter().find_map(|k| v.get(*k).and_then(Value::as_str)).unwrap_or("")
}

/// Coinbase's buy options in the API's shape (limits' ids in lower case).
pub fn parse_options(answer: &Value) -> Offer {
    let list = |keys: &[&str]| keys.iter().find_map(|k| answer.get(*k).and_then(Value::as_array)).cloned().unwrap_or_default();
    let payment = list(&["payment_currencies", "paymentCurrencies"])
        .iter()
        .map(|c| PaymentCurrency {
            id: text(c, &["id"]).to_owned(),
            payment_method_limits: ["limits", "payment_method_limits", "paymentMethodLimits"]
                .iter()
                .find_map(|k| c.get(*k).and_then(Value::as_array))
                .into_iter()
                .flatten()
                .map(|l| MethodLimit { id: text(l, &["id"]).to_ascii_lowercase(), min: text(l, &["min"]).to_owned(), max: text(l, &["max"]).to_owned() })
                .collect(),
        })
        .filter(|c| !c.id.is_empty())
        .collect();
    let purchase = list(&["purchase_currencies", "purchaseCurrencies"])
        .iter()
        .map(|c| PurchaseCurrency {
            id: text(c, &["id"]).to_owned(),
            name: text(c, &["name"]).to_owned(),
            symbol: text(c, &["symbol"]).to_owned(),
            networks: c
                .get("networks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|n| PurchaseNetwork {
                    name: text(n, &["name"]).to_owned(),
                    display_name: text(n, &["display_name", "displayName"]).to_owned(),
                    chain_id: n.get("chain_id").or_else(|| n.get("chainId")).map_or(String::new(), |v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)),
                    contract_address: text(n, &["contract_address", "contractAddress"]).to_owned(),
                })
                .collect(),
        })
        .filter(|c| !c.id.is_empty())
        .collect();
    Offer { payment, purchase }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jwts_verify() {
        let key = p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).unwrap();
        let verifying = *key.verifying_key();
        let cb = Coinbase::new("organizations/o/apiKeys/k", KeySecret::Es256(key), "http://127.0.0.1:9/base", "https://pay.example");
        let (url, jwt) = cb.endpoint("POST", "/onramp/v1/token");
        assert_eq!(url.as_str(), "http://127.0.0.1:9/base/onramp/v1/token");
        let parts: Vec<&str> = jwt.split('.').collect();
        let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["uri"], "POST 127.0.0.1:9/base/onramp/v1/token");
        assert_eq!(claims["iss"], "cdp");
        use p256::ecdsa::signature::Verifier;
        let sig = p256::ecdsa::Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
        verifying.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig).unwrap();
    }

    #[test]
    fn ed25519_jwts_verify() {
        let secret = STANDARD.encode([[9u8; 32], ed25519_dalek::SigningKey::from_bytes(&[9u8; 32]).verifying_key().to_bytes()].concat());
        let key = KeySecret::parse(&secret).unwrap();
        let public = ed25519_dalek::SigningKey::from_bytes(&[9u8; 32]).verifying_key();
        let cb = Coinbase::new("key-id", key, "https://api.developer.coinbase.com", "https://pay.coinbase.com");
        let (_, jwt) = cb.endpoint("GET", "/onramp/v1/buy/options");
        let parts: Vec<&str> = jwt.split('.').collect();
        let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[0]).unwrap()).unwrap();
        assert_eq!((header["alg"].as_str(), header["kid"].as_str()), (Some("EdDSA"), Some("key-id")));
        let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["uri"], "GET api.developer.coinbase.com/onramp/v1/buy/options");
        assert_eq!(claims["exp"].as_u64().unwrap() - claims["nbf"].as_u64().unwrap(), JWT_SECONDS);
        let signature = ed25519_dalek::Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
        public.verify_strict(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature).unwrap();
    }

    #[test]
    fn secrets() {
        assert!(matches!(KeySecret::parse(&STANDARD.encode([1u8; 64])), Ok(KeySecret::Ed25519(_))));
        assert!(KeySecret::parse("nope").is_err());
        assert!(KeySecret::parse("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----").is_err());
    }

    #[test]
    fn network_names() {
        assert_eq!(network_name("eip155:8453"), "base");
        assert_eq!(network_name("eip155:31337"), "ethereum");
    }
}
