//! The onramp area on SQLite and PostgreSQL: the sandbox provider end to end against a real
//! anvil (options, a quote at a known price, the purchase URL, the checkout page, one payment
//! landing exactly the quoted amount however many pays arrive, decline, expiry, unknown ids);
//! Coinbase and Meld against local stubs of their documented shapes (the stub checks the CDP
//! JWT with the public key, the token's one address and client IP, Meld's Authorization and
//! countryCode); failing providers giving the sample list and the mock quote; bad input as 400s;
//! no credential in any answer or log line.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use common::{dev_chain, rpc, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sigil_server::config::{Config, Secret};

/// anvil's account 0: the sandbox's seller in these tests.
const SELLER_KEY: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// A CDP secret key made for these tests (P-256, SEC1 PEM).
const CDP_PEM: &str = "-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIGdCXau6t50H6Nqj+nvT62hdKhFLjJHvadz70stSaNy5oAoGCCqGSM49
AwEHoUQDQgAE7NuNbQ5Iwi4Vt1Z7JOyihXKLeFZCG9L4kAUhY+ZMNfogamtS72nt
z5jbMDIYjJvgEXUbU7BjXYAOAPF3B8oD4w==
-----END EC PRIVATE KEY-----";
const CDP_KEY_NAME: &str = "organizations/test-org/apiKeys/test-key";
const MELD_KEY: &str = "meld-test-secret-key-42";
const ETH_PRICE: f64 = 2500.0;

/// Every log line of this test process, to look for secrets in.
fn logs() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = buffer.clone();
        let _ = tracing_subscriber::fmt()
            .with_env_filter("sigil_server=debug,tower_http=debug,info")
            .with_writer(move || LogWriter(writer.clone()))
            .with_ansi(false)
            .try_init();
        buffer
    })
}

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn assert_no_secret(text: &str) {
    for secret in [SELLER_KEY, "MHcCAQEEIGdCXau6t50H6Nqj", MELD_KEY] {
        assert!(!text.contains(secret), "a secret leaked: {text}");
    }
}

fn assert_no_secret_in_logs() {
    let logs = String::from_utf8_lossy(&logs().lock().unwrap()).into_owned();
    assert_no_secret(&logs);
}

async fn post_json(ts: &TestServer, path: &str, body: Value) -> (u16, Value) {
    let res = ts.http.post(ts.api(path)).json(&body).send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    assert_no_secret(&text);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn get_json(ts: &TestServer, path: &str) -> (u16, Value) {
    let res = ts.http.get(ts.api(path)).send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    assert_no_secret(&text);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn secret(s: &str) -> Secret {
    s.parse().unwrap()
}

/// A server whose sandbox sells anvil's ETH at `ETH_PRICE`.
async fn sandbox_server(backend: Backend, anvil: &Anvil, tweak: impl FnOnce(&mut Config)) -> Option<TestServer> {
    logs();
    let url = anvil.url.clone();
    TestServer::start_with(backend, &["*"], move |c| {
        c.chains = dev_chain(&[&url]);
        c.chains.static_prices.insert("ETH".into(), ETH_PRICE);
        c.settings.onramp.sandbox_key = Some(secret(SELLER_KEY));
        tweak(c);
    })
    .await
}

async fn balance(anvil: &Anvil, address: &str) -> u128 {
    let hex = rpc(&anvil.url, "eth_getBalance", json!([address, "latest"])).await;
    u128::from_str_radix(hex.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

fn buy_body(address: &str) -> Value {
    json!({
        "provider": "sandbox",
        "destinationWallets": [{"address": address, "blockchains": ["eip155:31337"], "assets": ["ETH"]}],
        "defaultNetwork": "eip155:31337",
        "partnerUserId": "user-1",
        "defaultExperience": "buy",
        "presetCryptoAmount": null,
        "presetFiatAmount": 100,
        "fiatCurrency": "USD",
        "paymentMethod": "card",
        "country": "US",
        "redirectUrl": "https://host.example/done"
    })
}

/// The path of a generated sandbox URL, on the test server.
fn sandbox_path(url: &str, session: &str) -> String {
    let path = format!("/onramp/sandbox/{session}");
    assert!(url.ends_with(&path), "{url}");
    path
}

async fn page(ts: &TestServer, path: &str) -> (u16, String) {
    let res = ts.http.get(ts.url(path)).send().await.unwrap();
    (res.status().as_u16(), res.text().await.unwrap())
}

async fn act(ts: &TestServer, path: &str, action: &str) -> (u16, String) {
    let res = ts.http.post(ts.url(path)).form(&[("action", action)]).send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    assert_no_secret(&text);
    (status, text)
}

async fn sandbox_end_to_end(backend: Backend) {
    let anvil = Anvil::start();
    let Some(ts) = sandbox_server(backend, &anvil, |_| {}).await else { return };

    // Options: the sandbox and ETH on the dev chain; the region from Accept-Language.
    let res = ts.http.get(ts.api("/v1/onramp/options")).header("accept-language", "fr-CA,fr;q=0.8").send().await.unwrap();
    assert_eq!(res.status(), 200);
    let options: Value = res.json().await.unwrap();
    assert_eq!(options["country"], "CA");
    assert_eq!(options["sample"], false);
    assert_eq!(options["providers"][0]["name"], "sandbox");
    assert_eq!(options["providers"][0]["label"], "Sigil sandbox");
    assert_eq!(options["providers"][0]["supportedChains"], json!(["eip155"]));
    let eth = options["purchaseCurrencies"].as_array().unwrap().iter().find(|c| c["id"] == "ETH").unwrap();
    assert_eq!(eth["networks"][0], json!({"name": "sigil-dev", "display_name": "Sigil Dev", "chain_id": "31337", "contract_address": ""}));
    assert_eq!(options["paymentCurrencies"][0]["payment_method_limits"][0], json!({"id": "card", "min": "10.00", "max": "7500.00"}));

    // A quote at 2500 USD per ETH: 100.00 less 1.50 (1.5 %) and 0.10 buys 0.03936 ETH.
    let (status, q) = post_json(
        &ts,
        "/v1/onramp/quote",
        json!({"provider": "sandbox", "purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "100.00", "network": "eip155:31337", "paymentMethod": "card", "country": "US"}),
    )
    .await;
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["provider"], "sandbox");
    assert_eq!(q["sample"], false);
    assert_eq!(q["paymentTotal"], json!({"amount": "100.00", "currency": "USD"}));
    assert_eq!(q["paymentSubtotal"], json!({"amount": "98.40", "currency": "USD"}));
    assert_eq!(q["coinbaseFee"], json!({"amount": "1.50", "currency": "USD"}));
    assert_eq!(q["networkFee"], json!({"amount": "0.10", "currency": "USD"}));
    assert_eq!(q["purchaseAmount"], json!({"amount": "0.03936", "currency": "ETH"}));
    assert!(q["quoteId"].as_str().unwrap().len() > 8);

    // The purchase: a URL on this server and a session.
    let buyer = "0x1000000000000000000000000000000000000abc";
    let (status, gen) = post_json(&ts, "/v1/generators/onrampurl", buy_body(buyer)).await;
    assert_eq!(status, 200, "{gen}");
    let id = gen["sessionId"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 32);
    let path = sandbox_path(gen["url"].as_str().unwrap(), &id);
    let (status, s) = get_json(&ts, &format!("/v1/onramp/sessions/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(s["status"], "pending");
    assert_eq!(s["txHash"], Value::Null);
    assert_eq!(s["network"], "eip155:31337");
    let checksummed = sigil_core::evm::checksummed(buyer);
    let checksummed = checksummed.as_str();
    assert_eq!(s["address"], checksummed);
    assert_eq!(s["purchaseAmount"], json!({"amount": "0.03936", "currency": "ETH"}));

    // The checkout page.
    let (status, html) = page(&ts, &path).await;
    assert_eq!(status, 200);
    assert!(html.contains("Sigil sandbox provider") && html.contains("100.00 USD") && html.contains("0.03936 ETH") && html.contains(checksummed), "{html}");
    assert!(html.contains(r#"<button name=action value=pay>Pay</button>"#) && html.contains("value=decline>Decline</button>"), "{html}");
    assert!(!html.contains("<script"));

    // Pay: the balance rises by exactly the quoted amount; the session completes with the hash.
    let before = balance(&anvil, checksummed).await;
    let (status, done) = act(&ts, &path, "pay").await;
    assert_eq!(status, 200, "{done}");
    assert!(done.contains("Payment complete") && done.contains("You can close this window."), "{done}");
    assert_eq!(balance(&anvil, checksummed).await - before, 39_360_000_000_000_000);
    let (_, s) = get_json(&ts, &format!("/v1/onramp/sessions/{id}")).await;
    assert_eq!(s["status"], "completed");
    let hash = s["txHash"].as_str().unwrap().to_owned();
    assert!(done.contains(&hash));
    let tx = rpc(&anvil.url, "eth_getTransactionByHash", json!([hash])).await;
    assert_eq!(tx["to"].as_str().unwrap().to_lowercase(), checksummed.to_lowercase());

    // A second pay sends nothing.
    let (status, again) = act(&ts, &path, "pay").await;
    assert_eq!(status, 409);
    assert!(again.contains("This purchase is already completed") && again.contains(&hash), "{again}");
    assert_eq!(balance(&anvil, checksummed).await - before, 39_360_000_000_000_000);

    // Eight pays at once: one transfer.
    let other = "0x2000000000000000000000000000000000000002";
    let (_, gen) = post_json(&ts, "/v1/generators/onrampurl", buy_body(other)).await;
    let id2 = gen["sessionId"].as_str().unwrap().to_owned();
    let path2 = sandbox_path(gen["url"].as_str().unwrap(), &id2);
    let pays = (0..8).map(|_| act(&ts, &path2, "pay"));
    let outcomes = futures::future::join_all(pays).await;
    assert_eq!(outcomes.iter().filter(|(s, _)| *s == 200).count(), 1, "{outcomes:?}");
    assert!(outcomes.iter().filter(|(s, _)| *s != 200).all(|(s, t)| *s == 409 && t.contains("This purchase is already completed")), "{outcomes:?}");
    assert_eq!(balance(&anvil, other).await, 39_360_000_000_000_000);
    let (_, s) = get_json(&ts, &format!("/v1/onramp/sessions/{id2}")).await;
    assert_eq!(s["status"], "completed");

    // Decline: failed, and no pay after it.
    let (_, gen) = post_json(&ts, "/v1/generators/onrampurl", buy_body("0x3000000000000000000000000000000000000003")).await;
    let id3 = gen["sessionId"].as_str().unwrap().to_owned();
    let path3 = sandbox_path(gen["url"].as_str().unwrap(), &id3);
    let (status, declined) = act(&ts, &path3, "decline").await;
    assert_eq!(status, 200);
    assert!(declined.contains("Payment declined"));
    let (_, s) = get_json(&ts, &format!("/v1/onramp/sessions/{id3}")).await;
    assert_eq!((s["status"].as_str(), s["txHash"].as_str()), (Some("failed"), None));
    let (status, _) = act(&ts, &path3, "pay").await;
    assert_eq!(status, 409);
    assert_eq!(balance(&anvil, "0x3000000000000000000000000000000000000003").await, 0);

    // Expired: a session started 31 minutes ago.
    let old = sigil_server::db::now_ms() - 31 * 60 * 1000;
    let expired = sigil_server::onramp::store::Session {
        id: "e".repeat(32),
        project_id: ts.project.clone(),
        provider: "sandbox".into(),
        address: "0x4000000000000000000000000000000000000004".into(),
        network: "eip155:31337".into(),
        asset: "ETH".into(),
        fiat_amount: "100.00".into(),
        fiat_currency: "USD".into(),
        purchase_amount: Some("0.03936".into()),
        status: "pending".into(),
        tx_hash: None,
        failure: None,
        created_at: old,
        updated_at: old,
    };
    expired.insert(&ts.db).await.unwrap();
    let (status, text) = act(&ts, &format!("/onramp/sandbox/{}", "e".repeat(32)), "pay").await;
    assert_eq!(status, 410);
    assert!(text.contains("This purchase has expired"), "{text}");
    assert_eq!(balance(&anvil, "0x4000000000000000000000000000000000000004").await, 0);

    // Unknown sessions.
    let unknown = "0".repeat(32);
    assert_eq!(page(&ts, &format!("/onramp/sandbox/{unknown}")).await.0, 404);
    assert_eq!(act(&ts, &format!("/onramp/sandbox/{unknown}"), "pay").await.0, 404);
    assert_eq!(page(&ts, "/onramp/sandbox/<script>").await.0, 404);
    let (status, e) = get_json(&ts, &format!("/v1/onramp/sessions/{unknown}")).await;
    assert_eq!((status, e["error"]["code"].as_str()), (404, Some("not_found")));

    assert_no_secret_in_logs();
    ts.stop().await;
}

async fn bad_input(backend: Backend) {
    let anvil = Anvil::start();
    let Some(ts) = sandbox_server(backend, &anvil, |_| {}).await else { return };
    let quote = |patch: Value| {
        let mut body = json!({"provider": "sandbox", "purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "100.00", "network": "eip155:31337"});
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    for (patch, says) in [
        (json!({"provider": "nope"}), "unknown provider 'nope'"),
        (json!({"provider": "coinbase"}), "provider 'coinbase' is not enabled"),
        (json!({"amount": "abc"}), "Invalid parameter 'amount'"),
        (json!({"amount": "1.234"}), "Invalid parameter 'amount'"),
        (json!({"amount": "5.00"}), "Amount must be between 10.00 and 7500.00 USD for card"),
        (json!({"amount": "30000", "paymentMethod": "ach_bank_account"}), "Amount must be between 10.00 and 25000.00 USD for ach_bank_account"),
        (json!({"paymentMethod": "cash"}), "cash is not offered"),
        (json!({"purchaseCurrency": "DOGE"}), "DOGE is not sold by sandbox"),
        (json!({"network": "eip155:1"}), "is not sold on eip155:1"),
        (json!({"paymentCurrency": "JPY"}), "JPY is not offered by sandbox"),
        (json!({"country": "USA"}), "Invalid parameter 'country'"),
        (json!({"purchaseCurrency": null}), "Invalid parameter 'purchaseCurrency'"),
    ] {
        let (status, e) = post_json(&ts, "/v1/onramp/quote", quote(patch.clone())).await;
        assert_eq!(status, 400, "{patch}: {e}");
        assert!(e["error"]["message"].as_str().unwrap().contains(says), "{patch}: {e}");
    }
    let res = ts.http.post(ts.api("/v1/onramp/quote")).header("content-type", "application/json").body("{not json").send().await.unwrap();
    assert_eq!(res.status(), 400);
    let (status, _) = get_json(&ts, "/v1/onramp/options?country=1").await;
    assert_eq!(status, 400);

    let mut two = buy_body("0x1000000000000000000000000000000000000001");
    two["destinationWallets"] = json!([two["destinationWallets"][0].clone(), two["destinationWallets"][0].clone()]);
    let mut bad_address = buy_body("0x12");
    bad_address["provider"] = json!("sandbox");
    let mut solana_address_on_evm = buy_body("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM");
    solana_address_on_evm["provider"] = json!("sandbox");
    let mut other_chain = buy_body("0x1000000000000000000000000000000000000001");
    other_chain["defaultNetwork"] = json!("eip155:1");
    let mut doge = buy_body("0x1000000000000000000000000000000000000001");
    doge["destinationWallets"][0]["assets"] = json!(["DOGE"]);
    let mut too_little = buy_body("0x1000000000000000000000000000000000000001");
    too_little["presetFiatAmount"] = json!(1);
    let mut bad_redirect = buy_body("0x1000000000000000000000000000000000000001");
    bad_redirect["redirectUrl"] = json!("javascript:alert(1)");
    let mut unknown_provider = buy_body("0x1000000000000000000000000000000000000001");
    unknown_provider["provider"] = json!("meld");
    for (body, says) in [
        (two, "exactly one destination wallet"),
        (bad_address, "not an EVM address"),
        (solana_address_on_evm, "not an EVM address"),
        (other_chain, "the sandbox sells on eip155:31337 only"),
        (doge, "DOGE is not sold by sandbox"),
        (too_little, "Amount must be between 10.00 and 7500.00 USD for card"),
        (bad_redirect, "Invalid parameter 'redirectUrl'"),
        (unknown_provider, "provider 'meld' is not enabled"),
    ] {
        let (status, e) = post_json(&ts, "/v1/generators/onrampurl", body).await;
        assert_eq!(status, 400, "{says}: {e}");
        assert!(e["error"]["message"].as_str().unwrap().contains(says), "{says}: {e}");
    }
    let res = ts.http.post(ts.url("/onramp/sandbox/00000000000000000000000000000000")).form(&[("action", "steal")]).send().await.unwrap();
    assert_eq!(res.status(), 404);
    ts.stop().await;
}

async fn no_provider_gives_the_sample(backend: Backend) {
    logs();
    let Some(ts) = TestServer::start(backend, &["*"]).await else { return };
    let (status, o) = get_json(&ts, "/v1/onramp/options").await;
    assert_eq!(status, 200);
    assert_eq!((o["sample"].as_bool(), o["providers"].as_array().map(Vec::len)), (Some(true), Some(0)));
    assert_eq!(o["country"], "US");
    assert_eq!(o["paymentCurrencies"][1]["id"], "EUR");
    assert_eq!(o["paymentCurrencies"][0]["payment_method_limits"][1], json!({"id": "ach_bank_account", "min": "10.00", "max": "25000.00"}));
    let usdc = &o["purchaseCurrencies"][0];
    assert_eq!(usdc["id"], "USDC");
    assert_eq!(usdc["networks"][1]["chain_id"], "137");
    let (status, q) = post_json(&ts, "/v1/onramp/quote", json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100"})).await;
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["sample"], true);
    assert_eq!(q["purchaseAmount"], json!({"amount": "98.4", "currency": "USDC"}));
    let (status, e) = post_json(&ts, "/v1/generators/onrampurl", buy_body("0x1000000000000000000000000000000000000001")).await;
    assert_eq!(status, 400, "{e}");
    ts.stop().await;
}

/// What the Coinbase stub saw.
#[derive(Default)]
struct Seen {
    /// Every problem found with a request (empty: all were right).
    problems: Vec<String>,
    token_requests: Vec<Value>,
}

type Shared = Arc<Mutex<Seen>>;

fn check_jwt(seen: &Shared, headers: &HeaderMap, uri: &str) {
    let mut problems = Vec::new();
    let token = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
    let parts: Vec<&str> = token.split('.').collect();
    if parts.len() != 3 {
        problems.push(format!("{uri}: no JWT"));
    } else {
        let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[0]).unwrap()).unwrap();
        let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        if header["alg"] != "ES256" || header["kid"] != CDP_KEY_NAME || header["nonce"].as_str().is_none_or(|n| n.len() < 16) {
            problems.push(format!("{uri}: header {header}"));
        }
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        let (nbf, exp) = (claims["nbf"].as_u64().unwrap_or(0), claims["exp"].as_u64().unwrap_or(0));
        if claims["iss"] != "cdp" || claims["sub"] != CDP_KEY_NAME || claims["uri"] != uri || nbf > now + 1 || exp != nbf + 120 {
            problems.push(format!("{uri}: claims {claims}"));
        }
        use p256::ecdsa::signature::Verifier;
        let public = p256::ecdsa::VerifyingKey::from(p256::SecretKey::from_sec1_pem(CDP_PEM).unwrap().public_key());
        let signature = p256::ecdsa::Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
        if public.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature).is_err() {
            problems.push(format!("{uri}: bad signature"));
        }
    }
    seen.lock().unwrap().problems.extend(problems);
}

/// A local Coinbase onramp API answering its documented shapes; its base URL.
async fn coinbase_stub(seen: Shared) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let host = listener.local_addr().unwrap().to_string();
    let h = host.clone();
    let app = axum::Router::new()
        .route(
            "/onramp/v1/buy/options",
            get(|State(seen): State<Shared>, headers: HeaderMap, axum::extract::Query(q): axum::extract::Query<std::collections::HashMap<String, String>>| async move {
                check_jwt(&seen, &headers, &format!("GET {}/onramp/v1/buy/options", headers["host"].to_str().unwrap()));
                if q.get("country").map(String::as_str) == Some("KP") {
                    return Json(json!({"payment_currencies": [], "purchase_currencies": []}));
                }
                Json(json!({
                    "payment_currencies": [{"id": "USD", "limits": [{"id": "CARD", "min": "5", "max": "500"}, {"id": "ACH_BANK_ACCOUNT", "min": "10", "max": "25000"}]}],
                    "purchase_currencies": [{"id": "2b92315d-eab7-5bef-84fa-089a131333f5", "name": "USD Coin", "symbol": "USDC", "networks": [
                        {"name": "base", "display_name": "Base", "chain_id": "8453", "contract_address": "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"}]}]
                }))
            }),
        )
        .route(
            "/onramp/v1/buy/quote",
            post(|State(seen): State<Shared>, headers: HeaderMap, Json(body): Json<Value>| async move {
                check_jwt(&seen, &headers, &format!("POST {}/onramp/v1/buy/quote", headers["host"].to_str().unwrap()));
                if body["payment_method"] != "CARD" || body["purchase_network"] != "base" || body["payment_amount"] != "100.00" {
                    seen.lock().unwrap().problems.push(format!("quote body {body}"));
                }
                Json(json!({
                    "payment_total": {"value": "100.00", "currency": "USD"}, "payment_subtotal": {"value": "97.51", "currency": "USD"},
                    "purchase_amount": {"value": "97.510000", "currency": "USDC"}, "coinbase_fee": {"value": "2.49", "currency": "USD"},
                    "network_fee": {"value": "0.00", "currency": "USD"}, "quote_id": "cb-quote-1"
                }))
            }),
        )
        .route(
            "/onramp/v1/token",
            post(|State(seen): State<Shared>, headers: HeaderMap, Json(body): Json<Value>| async move {
                check_jwt(&seen, &headers, &format!("POST {}/onramp/v1/token", headers["host"].to_str().unwrap()));
                seen.lock().unwrap().token_requests.push(body);
                Json(json!({"token": "ZWJjZDEyMzQ=", "channel_id": ""}))
            }),
        )
        .route(
            "/onramp/v1/buy/user/{user}/transactions",
            get(|State(seen): State<Shared>, headers: HeaderMap, Path(user): Path<String>| async move {
                check_jwt(&seen, &headers, &format!("GET {}/onramp/v1/buy/user/{user}/transactions", headers["host"].to_str().unwrap()));
                Json(json!({"transactions": [{"status": "ONRAMP_TRANSACTION_STATUS_SUCCESS", "partner_user_ref": user, "tx_hash": "0xfeed",
                    "purchase_amount": {"value": "97.51", "currency": "USDC"}}], "next_page_key": "", "total_count": "1"}))
            }),
        )
        .with_state(seen);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{h}")
}

fn coinbase_on(api: String) -> impl FnOnce(&mut Config) {
    move |c: &mut Config| {
        c.settings.onramp.coinbase_api_url = api;
        c.settings.onramp.coinbase_pay_url = "https://pay.example".into();
        c.settings.onramp.coinbase_key_name = Some(CDP_KEY_NAME.into());
        c.settings.onramp.coinbase_key_secret = Some(secret(CDP_PEM));
    }
}

async fn coinbase(backend: Backend) {
    logs();
    let seen: Shared = Default::default();
    let api = coinbase_stub(seen.clone()).await;
    let Some(ts) = TestServer::start_with(backend, &["*"], coinbase_on(api)).await else { return };

    let (status, o) = get_json(&ts, "/v1/onramp/options?country=us").await;
    assert_eq!(status, 200, "{o}");
    assert_eq!((o["sample"].as_bool(), o["providers"][0]["name"].as_str()), (Some(false), Some("coinbase")));
    assert_eq!(
        o["paymentCurrencies"][0],
        json!({"id": "USD", "payment_method_limits": [{"id": "card", "min": "5", "max": "500"}, {"id": "ach_bank_account", "min": "10", "max": "25000"}]})
    );
    assert_eq!(o["purchaseCurrencies"][0]["networks"][0]["chain_id"], "8453");
    let (_, o) = get_json(&ts, "/v1/onramp/options?country=KP").await;
    assert_eq!((o["sample"].as_bool(), o["providers"].as_array().map(Vec::len)), (Some(false), Some(0)));

    let ask = json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100.00", "network": "eip155:8453", "country": "US"});
    let (status, q) = post_json(&ts, "/v1/onramp/quote", ask.clone()).await;
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["provider"], "coinbase");
    assert_eq!(q["sample"], false);
    assert_eq!(q["quoteId"], "cb-quote-1");
    assert_eq!(q["purchaseAmount"], json!({"amount": "97.510000", "currency": "USDC"}));
    assert_eq!(q["coinbaseFee"], json!({"amount": "2.49", "currency": "USD"}));
    let mut over = ask.clone();
    over["amount"] = json!("600");
    let (status, e) = post_json(&ts, "/v1/onramp/quote", over).await;
    assert_eq!(status, 400);
    assert!(e["error"]["message"].as_str().unwrap().contains("Amount must be between 5.00 and 500.00 USD for card"), "{e}");

    let buyer = "0x1000000000000000000000000000000000000001";
    let body = json!({"provider": "coinbase", "destinationWallets": [{"address": buyer, "blockchains": ["eip155:8453"], "assets": ["USDC"]}],
        "defaultNetwork": "eip155:8453", "presetFiatAmount": 50, "fiatCurrency": "USD", "redirectUrl": "https://host.example/back"});
    let (status, gen) = post_json(&ts, "/v1/generators/onrampurl", body).await;
    assert_eq!(status, 200, "{gen}");
    let id = gen["sessionId"].as_str().unwrap();
    let url = url::Url::parse(gen["url"].as_str().unwrap()).unwrap();
    assert_eq!((url.host_str(), url.path()), (Some("pay.example"), "/buy/select-asset"));
    let params: std::collections::HashMap<String, String> = url.query_pairs().into_owned().collect();
    assert_eq!(params["sessionToken"], "ZWJjZDEyMzQ=");
    assert_eq!(params["defaultNetwork"], "base");
    assert_eq!(params["presetFiatAmount"], "50.00");
    assert_eq!(params["fiatCurrency"], "USD");
    assert_eq!(params["partnerUserRef"], id);
    assert_eq!(params["redirectUrl"], "https://host.example/back");
    {
        let seen = seen.lock().unwrap();
        let token = &seen.token_requests[0];
        assert_eq!(token["addresses"], json!([{"address": buyer, "blockchains": ["base"]}]));
        assert_eq!(token["clientIp"], "127.0.0.1");
        assert_eq!(token["assets"], json!(["USDC"]));
    }
    let (status, s) = get_json(&ts, &format!("/v1/onramp/sessions/{id}")).await;
    assert_eq!(status, 200, "{s}");
    assert_eq!((s["status"].as_str(), s["txHash"].as_str()), (Some("completed"), Some("0xfeed")));
    assert_eq!(s["purchaseAmount"], json!({"amount": "97.51", "currency": "USDC"}));
    let problems = std::mem::take(&mut seen.lock().unwrap().problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_no_secret_in_logs();
    ts.stop().await;
}

async fn failing_providers(backend: Backend) {
    logs();
    // Nothing listens on a port just freed.
    let dead = format!("http://{}", std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap());
    let dead2 = dead.clone();
    let Some(ts) = TestServer::start_with(backend, &["*"], move |c| {
        coinbase_on(dead)(c);
        c.settings.onramp.meld_api_url = dead2;
        c.settings.onramp.meld_key = Some(secret(MELD_KEY));
        c.settings.onramp.timeout = std::time::Duration::from_secs(2);
    })
    .await
    else {
        return;
    };
    // Meld's offer is its own list; Coinbase does not answer: Meld alone, not the sample.
    let (status, o) = get_json(&ts, "/v1/onramp/options").await;
    assert_eq!(status, 200);
    assert_eq!(o["providers"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect::<Vec<_>>(), ["meld"]);
    let (status, q) =
        post_json(&ts, "/v1/onramp/quote", json!({"provider": "coinbase", "purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100.00"})).await;
    assert_eq!(status, 200, "{q}");
    assert_eq!((q["provider"].as_str(), q["sample"].as_bool()), (Some("coinbase"), Some(true)));
    let (status, q) =
        post_json(&ts, "/v1/onramp/quote", json!({"provider": "meld", "purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100.00"})).await;
    assert_eq!((status, q["sample"].as_bool()), (200, Some(true)), "{q}");
    let (status, e) = post_json(
        &ts,
        "/v1/generators/onrampurl",
        json!({"provider": "coinbase", "destinationWallets": [{"address": "0x1000000000000000000000000000000000000001", "blockchains": ["eip155:1"]}]}),
    )
    .await;
    assert_eq!(status, 502, "{e}");
    assert!(!e.to_string().contains("127.0.0.1"), "{e}");
    ts.stop().await;

    // Coinbase alone, failing: the sample list.
    let dead = format!("http://{}", std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap());
    let Some(ts) = TestServer::start_with(backend, &["*"], coinbase_on(dead)).await else { return };
    let (_, o) = get_json(&ts, "/v1/onramp/options").await;
    assert_eq!((o["sample"].as_bool(), o["providers"].as_array().map(Vec::len)), (Some(true), Some(0)));
    assert_no_secret_in_logs();
    ts.stop().await;
}

/// A local Meld API; its base URL.
async fn meld_stub(seen: Shared) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    fn auth(seen: &Shared, headers: &HeaderMap) {
        if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(&format!("BASIC {MELD_KEY}")) {
            seen.lock().unwrap().problems.push("no Meld authorization".into());
        }
    }
    let app = axum::Router::new()
        .route(
            "/crypto/session/widget",
            post(|State(seen): State<Shared>, headers: HeaderMap, Json(body): Json<Value>| async move {
                auth(&seen, &headers);
                seen.lock().unwrap().token_requests.push(body);
                Json(json!({"id": "w1", "externalSessionId": null, "customerId": "c1", "widgetUrl": "https://meldcrypto.example/?token=abc", "token": "abc"}))
            }),
        )
        .route(
            "/payments/crypto/quote",
            post(|State(seen): State<Shared>, headers: HeaderMap, Json(body): Json<Value>| async move {
                auth(&seen, &headers);
                if body["countryCode"] != "FR" {
                    seen.lock().unwrap().problems.push(format!("quote without the country: {body}"));
                }
                Json(json!({"quotes": [
                    {"transactionType": "CRYPTO_PURCHASE", "sourceAmount": 100, "sourceAmountWithoutFees": 96.5, "destinationAmount": 0.0301,
                     "destinationCurrencyCode": "ETH", "transactionFee": 3.0, "networkFee": 0.5, "serviceProvider": "TRANSAK"},
                    {"transactionType": "CRYPTO_PURCHASE", "sourceAmount": 100, "sourceAmountWithoutFees": 97.0, "destinationAmount": 0.0305,
                     "destinationCurrencyCode": "ETH", "transactionFee": 2.5, "networkFee": 0.5, "serviceProvider": "BANXA"}]}))
            }),
        )
        .route(
            "/payments/transactions",
            get(|State(seen): State<Shared>, headers: HeaderMap| async move {
                auth(&seen, &headers);
                Json(json!({"transactions": [{"status": "PENDING"}], "count": 1}))
            }),
        )
        .with_state(seen);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

async fn meld(backend: Backend) {
    logs();
    let seen: Shared = Default::default();
    let api = meld_stub(seen.clone()).await;
    let Some(ts) = TestServer::start_with(backend, &["*"], move |c| {
        c.settings.onramp.meld_api_url = api;
        c.settings.onramp.meld_key = Some(secret(MELD_KEY));
    })
    .await
    else {
        return;
    };
    let (_, o) = get_json(&ts, "/v1/onramp/options?country=FR").await;
    assert_eq!(
        o["providers"][0],
        json!({"name": "meld", "label": "Meld.io", "feeRange": "1-2%", "url": "https://meldcrypto.com", "supportedChains": ["eip155", "solana"]})
    );
    let (status, q) = post_json(&ts, "/v1/onramp/quote", json!({"purchaseCurrency": "ETH", "paymentCurrency": "EUR", "amount": "100", "country": "FR"})).await;
    assert_eq!(status, 200, "{q}");
    assert_eq!((q["provider"].as_str(), q["sample"].as_bool()), (Some("meld"), Some(false)));
    assert_eq!(q["purchaseAmount"], json!({"amount": "0.0305", "currency": "ETH"}));
    assert_eq!(q["paymentSubtotal"], json!({"amount": "97.00", "currency": "EUR"}));

    let sol = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    let body = json!({"provider": "meld", "destinationWallets": [{"address": sol, "blockchains": ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"], "assets": ["SOL"]}],
        "presetFiatAmount": "75.5", "fiatCurrency": "EUR", "country": "FR"});
    let (status, gen) = post_json(&ts, "/v1/generators/onrampurl", body).await;
    assert_eq!(status, 200, "{gen}");
    assert_eq!(gen["url"], "https://meldcrypto.example/?token=abc");
    let id = gen["sessionId"].as_str().unwrap();
    {
        let seen = seen.lock().unwrap();
        let w = &seen.token_requests[0];
        assert_eq!(w["sessionType"], "BUY");
        assert_eq!(w["externalCustomerId"], id);
        assert_eq!(
            w["sessionData"],
            json!({"walletAddress": sol, "countryCode": "FR", "sourceCurrencyCode": "EUR", "sourceAmount": "75.50", "destinationCurrencyCode": "SOL"})
        );
    }
    // Without a country, Accept-Language's region is sent.
    let res = ts
        .http
        .post(ts.api("/v1/generators/onrampurl"))
        .header("accept-language", "de-AT")
        .json(&json!({"provider": "meld", "destinationWallets": [{"address": "0x1000000000000000000000000000000000000001", "blockchains": ["eip155:1"]}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(seen.lock().unwrap().token_requests[1]["sessionData"]["countryCode"], "AT");
    let (status, s) = get_json(&ts, &format!("/v1/onramp/sessions/{id}")).await;
    assert_eq!((status, s["status"].as_str(), s["provider"].as_str()), (200, Some("pending"), Some("meld")));
    assert_eq!(s["address"], sol);
    let (status, e) = post_json(
        &ts,
        "/v1/generators/onrampurl",
        json!({"provider": "meld", "destinationWallets": [{"address": "0xnot-base58", "blockchains": ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"]}]}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    let problems = std::mem::take(&mut seen.lock().unwrap().problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_no_secret_in_logs();
    ts.stop().await;
}

/// The sandbox also sells the dev deployment's USDC (anvil's account 0 deployed and holds it),
/// at its static price of 1 USD.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sandbox_sells_the_dev_usdc() {
    logs();
    let anvil = Anvil::start();
    let deployed = common::deploy_devchain(&anvil.url);
    let usdc = deployed["tokens"].as_array().unwrap().iter().find(|t| t["symbol"] == "USDC").unwrap()["address"].as_str().unwrap().to_owned();
    let mut chains = sigil_server::chains::Chains::built_in();
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let ts = TestServer::start_with(Backend::Sqlite, &["*"], move |c| {
        c.chains = chains;
        c.settings.onramp.sandbox_key = Some(secret(SELLER_KEY));
    })
    .await
    .unwrap();
    let (_, o) = get_json(&ts, "/v1/onramp/options").await;
    let listed = o["purchaseCurrencies"].as_array().unwrap().iter().find(|c| c["id"] == "USDC").unwrap().clone();
    assert_eq!(listed["networks"][0]["contract_address"], sigil_core::evm::checksummed(&usdc));
    assert_eq!(listed["networks"][0]["chain_id"], "31337");
    let (status, q) =
        post_json(&ts, "/v1/onramp/quote", json!({"provider": "sandbox", "purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100.00"})).await;
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["purchaseAmount"], json!({"amount": "98.4", "currency": "USDC"}));

    let buyer = "0x5000000000000000000000000000000000000005";
    let mut body = buy_body(buyer);
    body["destinationWallets"][0]["assets"] = json!(["USDC"]);
    let (status, gen) = post_json(&ts, "/v1/generators/onrampurl", body).await;
    assert_eq!(status, 200, "{gen}");
    let id = gen["sessionId"].as_str().unwrap().to_owned();
    let (status, done) = act(&ts, &sandbox_path(gen["url"].as_str().unwrap(), &id), "pay").await;
    assert_eq!(status, 200, "{done}");
    let data = format!("0x70a08231{:0>64}", buyer.trim_start_matches("0x"));
    let held = rpc(&anvil.url, "eth_call", json!([{"to": usdc, "data": data}, "latest"])).await;
    assert_eq!(u128::from_str_radix(held.as_str().unwrap().trim_start_matches("0x"), 16).unwrap(), 98_400_000);
    let (_, s) = get_json(&ts, &format!("/v1/onramp/sessions/{id}")).await;
    assert_eq!((s["status"].as_str(), s["purchaseAmount"]["currency"].as_str()), (Some("completed"), Some("USDC")));
    assert_eq!(balance(&anvil, buyer).await, 0, "no coin sent with the token");
    ts.stop().await;

    // A seller without USDC (anvil's account 9) sells only the coin.
    let mut chains = sigil_server::chains::Chains::built_in();
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let ts = TestServer::start_with(Backend::Sqlite, &["*"], move |c| {
        c.chains = chains;
        c.settings.onramp.sandbox_key = Some(secret("2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6"));
    })
    .await
    .unwrap();
    let (_, o) = get_json(&ts, "/v1/onramp/options").await;
    let ids: Vec<&str> = o["purchaseCurrencies"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["ETH"]);
    let (status, e) =
        post_json(&ts, "/v1/onramp/quote", json!({"provider": "sandbox", "purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100.00"})).await;
    assert_eq!(status, 400, "{e}");
    ts.stop().await;
}

/// The settings are checked at start, in messages that never repeat a credential, and a
/// configuration printed for debugging shows none.
#[test]
fn settings_are_checked_without_showing_secrets() {
    use sigil_server::config::ServeArgs;
    let err = |f: fn(&mut ServeArgs)| {
        let mut args = ServeArgs::default();
        f(&mut args);
        Config::from_args(&args).unwrap_err().to_string()
    };
    let bad_key = err(|a| a.settings.onramp_sandbox_key = Some(secret("not-a-key-but-secret-text")));
    assert_eq!(bad_key, "invalid onramp-sandbox-key (SIGIL_ONRAMP_SANDBOX_KEY): expected a private key, 64 hex digits");
    let chain = err(|a| {
        a.settings.onramp_sandbox_key = Some(secret(SELLER_KEY));
        a.settings.onramp_sandbox_chain = Some("eip155:999999".into());
    });
    assert_eq!(chain, "invalid onramp-sandbox-chain (SIGIL_ONRAMP_SANDBOX_CHAIN): 'eip155:999999' is not a configured EVM chain");
    let cdp = err(|a| a.settings.onramp_coinbase_key_secret = Some(secret("-----BEGIN EC PRIVATE KEY-----\nsecret-text\n-----END EC PRIVATE KEY-----")));
    assert!(cdp.starts_with("invalid onramp-coinbase-key-secret") && !cdp.contains("secret-text"), "{cdp}");
    assert!(err(|a| a.settings.onramp_timeout = Some(sigil_server::config::Seconds(0))).starts_with("invalid onramp-timeout"));

    let mut args = ServeArgs::default();
    args.settings.onramp_sandbox_key = Some(secret(SELLER_KEY));
    args.settings.onramp_coinbase_key_name = Some(CDP_KEY_NAME.into());
    args.settings.onramp_coinbase_key_secret = Some(secret(CDP_PEM));
    args.settings.onramp_meld_key = Some(secret(MELD_KEY));
    let config = Config::from_args(&args).unwrap();
    assert_no_secret(&format!("{config:?} {args:?}"));
    assert_eq!(config.settings.onramp.sandbox_chain, "eip155:31337");
    assert_eq!(config.settings.onramp.coinbase_api_url, "https://api.developer.coinbase.com");
    assert_eq!(config.settings.onramp.timeout, std::time::Duration::from_secs(10));
}

both_backends!(sandbox_end_to_end, bad_input, no_provider_gives_the_sample, coinbase, failing_providers, meld);
