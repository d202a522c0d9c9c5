//! Swaps through the aggregator sources (1inch Swap API v6, 0x Swap API v2 allowance-holder,
//! LI.FI's quote), each against a local stand-in serving its documented shapes, on a chain whose
//! JSON-RPC is a stand-in node too (balances, allowances and gas prices of fixed values), on
//! SQLite. The stand-ins record what they are asked: the path, every query parameter (no fee
//! or referrer parameter) and the API key's header; the tests check the exact values the six
//! endpoints answer, that the key is in no answer, that each aggregator's documented refusals
//! are the API's typed failures, and that an aggregator that is down, has no key or answers
//! garbage is a 503 or 502, never a 500.

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use alloy_primitives::{Address, U256};
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::IntoResponse;
use common::{chain_with, Backend, TestServer};
use serde_json::{json, Value};
use sigil_core::evm;
use sigil_server::chains::{AggregatorSource, Chains, SwapSource};

const DEV: &str = "eip155:31337";
const NATIVE: &str = "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
const NATIVE_CHECKSUM: &str = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";
const ME: &str = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const SELL: &str = "0x1111111111111111111111111111111111111111";
const BUY: &str = "0x2222222222222222222222222222222222222222";
const ONE: &str = "1000000000000000000";
/// What the stand-in node says ME holds of every token and of the coin, and has allowed.
const BALANCE: u128 = 5_000_000_000_000_000_000;
const ALLOWANCE: u128 = 1000;
/// Its gas price (no EIP-1559 fee history): the standard price of every answer.
const GAS_PRICE: &str = "1000000000";
/// Amounts the stand-in aggregators refuse, each in its documented way.
const LIQUIDITY: &str = "666";
const BALANCE_LOW: &str = "555";
const NO_ROUTE: &str = "444";
const DOWN: &str = "777";
const GARBAGE: &str = "888";
const ECHO_KEY: &str = "333";
const HUGE: &str = "222";

/// 1inch's v6 router, 0x's AllowanceHolder and LI.FI's diamond (public addresses).
const ONEINCH_ROUTER: &str = "0x111111125421cA6dc452d289314280a0f8842A65";
const ALLOWANCE_HOLDER: &str = "0x0000000000001fF3684f28c67538d4D072C22734";
const LIFI_DIAMOND: &str = "0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE";

/// One request a stand-in aggregator received.
#[derive(Debug, Clone)]
struct Asked {
    path: String,
    query: BTreeMap<String, String>,
    headers: BTreeMap<String, String>,
}

type Log = Arc<Mutex<Vec<Asked>>>;

/// Serves `answer` on a local port; its base URL.
async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    url
}

/// A stand-in aggregator: every GET is recorded, then answered by `answer` (status, body text).
async fn aggregator(answer: fn(&Asked) -> (u16, String)) -> (String, Log) {
    let log: Log = Default::default();
    let kept = log.clone();
    let router = axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap| {
        let log = kept.clone();
        async move {
            let query: BTreeMap<String, String> = url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes()).into_owned().collect();
            let headers: BTreeMap<String, String> = headers.iter().map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned())).collect();
            let asked = Asked { path: uri.path().to_owned(), query, headers };
            let (status, body) = answer(&asked);
            log.lock().unwrap().push(asked);
            (StatusCode::from_u16(status).unwrap(), [("content-type", "application/json")], body).into_response()
        }
    });
    (serve(router).await, log)
}

fn word(n: u128) -> String {
    format!("0x{:064x}", n)
}

/// A stand-in JSON-RPC node: balanceOf and allowance calls, balances, gas prices, estimates.
async fn node() -> String {
    fn reply(call: &Value) -> Value {
        let result = match call["method"].as_str().unwrap_or("") {
            "eth_call" => {
                let data = call["params"][0]["data"].as_str().or(call["params"][0]["input"].as_str()).unwrap_or("");
                match &data[..10.min(data.len())] {
                    "0x70a08231" => json!(word(BALANCE)),
                    "0xdd62ed3e" => json!(word(ALLOWANCE)),
                    _ => json!("0x"),
                }
            }
            "eth_getBalance" => json!(format!("{BALANCE:#x}")),
            "eth_gasPrice" => json!("0x3b9aca00"),
            "eth_feeHistory" => json!({"oldestBlock": "0x1", "reward": []}),
            "eth_estimateGas" => json!("0x30d40"),
            "eth_chainId" => json!("0x7a69"),
            "eth_blockNumber" => json!("0x10"),
            _ => return json!({"jsonrpc": "2.0", "id": call["id"], "error": {"code": -32601, "message": "method not found"}}),
        };
        json!({"jsonrpc": "2.0", "id": call["id"], "result": result})
    }
    let router = axum::Router::new().fallback(|body: Bytes| async move {
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let answer = match &request {
            Value::Array(calls) => Value::Array(calls.iter().map(reply).collect()),
            call => reply(call),
        };
        axum::Json(answer)
    });
    serve(router).await
}

/// A server whose dev chain is on the stand-in node and swaps through `source`.
async fn server(source: SwapSource) -> TestServer {
    let rpc = node().await;
    let mut chains: Chains = chain_with(&[&rpc], false);
    chains.by_id.get_mut(DEV).unwrap().swap = Some(source);
    TestServer::start_with(Backend::Sqlite, &["*"], move |c| c.chains = chains).await.unwrap()
}

struct Api {
    server: TestServer,
    /// Every answer's text, to look for the key in.
    seen: Mutex<Vec<String>>,
}

impl Api {
    async fn new(source: SwapSource) -> Api {
        Api { server: server(source).await, seen: Default::default() }
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let res = self.server.http.get(self.server.api(path)).send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        self.seen.lock().unwrap().push(text.clone());
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let res = self.server.http.post(self.server.api(path)).json(&body).send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        self.seen.lock().unwrap().push(text.clone());
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn quote(&self, from: &str, to: &str, amount: &str) -> (u16, Value) {
        self.get(&format!("/v1/convert/quotes?amount={amount}&userAddress={DEV}:{ME}&from={from}&to={to}&slippage=0.5")).await
    }

    async fn swap(&self, from: &str, to: &str, amount: &str, disable_estimate: bool) -> (u16, Value) {
        let body = json!({"amount": amount, "eip155": {"slippage": 0.5}, "from": from, "to": to, "userAddress": ME, "disableEstimate": disable_estimate});
        self.post("/v1/convert/build-transaction", body).await
    }

    fn never_shows(&self, key: &str) {
        for text in self.seen.lock().unwrap().iter() {
            assert!(!text.contains(key), "the API key is in an answer: {text}");
        }
    }
}

fn id(address: &str) -> String {
    format!("{DEV}:{}", evm::checksummed(address))
}

fn less(amount: &str, basis_points: u64) -> String {
    (U256::from_str_radix(amount, 10).unwrap() * U256::from(10_000 - basis_points) / U256::from(10_000u64)).to_string()
}

fn approve_data(spender: &str, amount: &str) -> String {
    evm::call_data(&evm::approveCall { spender: spender.parse::<Address>().unwrap(), amount: U256::from_str_radix(amount, 10).unwrap() })
}

/// No parameter that would take a fee or name a referrer.
fn no_fee(asked: &Asked) {
    for k in asked.query.keys() {
        let k = k.to_ascii_lowercase();
        assert!(!k.contains("fee") && !k.contains("referrer") && !k.contains("integrator") && !k.contains("recipient"), "{k} in {asked:?}");
    }
}

fn asked_at(log: &Log, path: &str) -> Vec<Asked> {
    log.lock().unwrap().iter().filter(|a| a.path == path).cloned().collect()
}

/// The error code and message of an error answer.
fn error(body: &Value) -> (&str, &str) {
    (body["error"]["code"].as_str().unwrap_or(""), body["error"]["message"].as_str().unwrap_or(""))
}

fn down_source(kind: fn(AggregatorSource) -> SwapSource, url: String, key_env: Option<&str>) -> SwapSource {
    kind(AggregatorSource { url, api_key_env: key_env.map(str::to_owned) })
}

/// A base URL where nothing listens.
fn closed_url() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    format!("http://127.0.0.1:{port}")
}

// ---- 1inch ----------------------------------------------------------------------------------

const ONEINCH_KEY: &str = "oneinch-test-key-7f3a9c";
const ONEINCH_KEY_ENV: &str = "SIGIL_TEST_ONEINCH_KEY";
const ONEINCH_OUT: &str = "1234567890000000";

fn oneinch_answer(a: &Asked) -> (u16, String) {
    if a.headers.get("authorization").map(String::as_str) != Some(&format!("Bearer {ONEINCH_KEY}")) {
        return (401, json!({"statusCode": 401, "message": "Unauthorized"}).to_string());
    }
    let amount = a.query.get("amount").map(String::as_str).unwrap_or("");
    let bad =
        |description: &str| (400, json!({"error": "Bad Request", "description": description, "statusCode": 400, "requestId": "r-1", "meta": []}).to_string());
    match amount {
        LIQUIDITY => return bad("insufficient liquidity"),
        BALANCE_LOW => return bad("Not enough 0x1111111111111111111111111111111111111111 balance. Amount: 555. Balance: 0."),
        NO_ROUTE => return bad("cannot estimate. Don't forget about miner fee. Try to leave the buffer of BNB for gas"),
        DOWN => return (500, json!({"statusCode": 500, "message": "Internal server error"}).to_string()),
        GARBAGE => return (200, "<html>maintenance</html>".into()),
        ECHO_KEY => return bad(&format!("Cannot sync token (key {ONEINCH_KEY})")),
        HUGE => return (200, json!({"dstAmount": "1", "padding": "x".repeat(3 << 20)}).to_string()),
        _ => {}
    }
    match a.path.as_str() {
        "/swap/v6.0/31337/approve/spender" => (200, json!({"address": ONEINCH_ROUTER.to_lowercase()}).to_string()),
        "/swap/v6.0/31337/quote" => (200, json!({"dstAmount": ONEINCH_OUT}).to_string()),
        "/swap/v6.0/31337/swap" => {
            let native = a.query["src"] == NATIVE_CHECKSUM;
            let estimated = a.query.get("disableEstimate").map(String::as_str) == Some("false");
            (
                200,
                json!({"dstAmount": ONEINCH_OUT, "tx": {"from": a.query["from"], "to": ONEINCH_ROUTER.to_lowercase(), "data": "0x07ed2379000000000000000000000000abcdef",
                    "value": if native { amount } else { "0" }, "gas": if estimated { 250_000 } else { 0 }, "gasPrice": "2000000000"}})
                .to_string(),
            )
        }
        _ => (404, json!({"statusCode": 404, "message": "Not Found"}).to_string()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oneinch_quotes_approvals_and_swaps() {
    std::env::set_var(ONEINCH_KEY_ENV, ONEINCH_KEY);
    let (url, log) = aggregator(oneinch_answer).await;
    let api = Api::new(SwapSource::OneInch(AggregatorSource { url: url.clone(), api_key_env: Some(ONEINCH_KEY_ENV.into()) })).await;
    let (sell, buy) = (id(SELL), id(BUY));

    // A quote: 1inch's dstAmount, the minimum at the slippage asked, its router as the spender,
    // and the chain's allowance of it below the amount as an issue.
    let (status, body) = api.quote(&sell, NATIVE, ONE).await;
    assert_eq!(status, 200, "{body}");
    let quote = &body["quotes"][0];
    assert_eq!(quote["toAmount"], ONEINCH_OUT);
    assert_eq!(quote["toAmountMin"], less(ONEINCH_OUT, 50));
    assert_eq!(quote["fromAmount"], ONE);
    assert_eq!((quote["fromAccount"].as_str(), quote["toAccount"].as_str()), (Some(sell.as_str()), Some(NATIVE)));
    assert_eq!(quote["source"], "oneinch");
    assert_eq!(quote["spender"], id(ONEINCH_ROUTER));
    assert_eq!(quote["priceImpact"], Value::Null);
    assert_eq!(quote["route"], json!([sell, format!("{DEV}:{NATIVE_CHECKSUM}")]));
    assert_eq!(quote["issues"].as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect::<Vec<_>>(), ["insufficient_allowance"]);
    let asked = asked_at(&log, "/swap/v6.0/31337/quote");
    assert_eq!(asked.len(), 1);
    let q: Vec<(&str, &str)> = asked[0].query.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(q, [("amount", ONE), ("dst", NATIVE_CHECKSUM), ("src", evm::checksummed(SELL).as_str())]);
    assert_eq!(asked_at(&log, "/swap/v6.0/31337/approve/spender").len(), 1, "the spender is asked once, then kept");

    // The allowance, read on chain for 1inch's router.
    let (status, body) = api.get(&format!("/v1/convert/allowance?tokenAddress={sell}&userAddress={DEV}:{ME}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"allowance": ALLOWANCE.to_string(), "spender": id(ONEINCH_ROUTER)}));

    // The approval: the exact amount to the router, on the token.
    let (status, body) = api.get(&format!("/v1/convert/build-approve?userAddress={DEV}:{ME}&from={sell}&to={buy}&amount={ONE}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tx"], json!({"from": sell, "to": sell, "data": approve_data(ONEINCH_ROUTER, ONE), "value": "0", "eip155": {"gasPrice": GAS_PRICE}}));
    assert_eq!((body["spender"].as_str(), body["amount"].as_str(), body["unlimited"].as_bool()), (Some(id(ONEINCH_ROUTER).as_str()), Some(ONE), Some(false)));
    assert_eq!((body["resetFirst"].as_bool(), &body["resetTx"]), (Some(false), &Value::Null));

    // The swap, not estimated (an approval in the same batch): 1inch's transaction, the
    // slippage in percent, the account as from and origin, the fixed gas.
    let (status, body) = api.swap(&sell, &buy, ONE, true).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["tx"],
        json!({"from": format!("{DEV}:{ME}"), "to": id(ONEINCH_ROUTER), "data": "0x07ed2379000000000000000000000000abcdef", "amount": ONEINCH_OUT,
            "eip155": {"gas": "600000", "gasPrice": GAS_PRICE}})
    );
    assert_eq!((body["toAmount"].as_str(), body["toAmountMin"].as_str()), (Some(ONEINCH_OUT), Some(less(ONEINCH_OUT, 50).as_str())));
    assert_eq!((body["deadline"].clone(), body["gasEstimated"].as_bool(), body["slippage"].as_f64()), (Value::Null, Some(false), Some(0.5)));
    let swap = asked_at(&log, "/swap/v6.0/31337/swap");
    let q: Vec<(&str, &str)> = swap[0].query.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        q,
        [
            ("amount", ONE),
            ("disableEstimate", "true"),
            ("dst", evm::checksummed(BUY).as_str()),
            ("from", ME),
            ("origin", ME),
            ("slippage", "0.5"),
            ("src", evm::checksummed(SELL).as_str())
        ]
    );

    // Selling the coin, estimated: 1inch's gas, the amount as the value.
    let (status, body) = api.swap(NATIVE, &buy, ONE, false).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["tx"]["value"].as_str(), body["tx"]["eip155"]["gas"].as_str(), body["gasEstimated"].as_bool()), (Some(ONE), Some("250000"), Some(true)));
    assert_eq!(asked_at(&log, "/swap/v6.0/31337/swap")[1].query["src"], NATIVE_CHECKSUM);

    // Selling a token with the allowance too low, estimated: the chain's check says so first.
    let (status, body) = api.swap(&sell, &buy, ONE, false).await;
    assert_eq!((status, error(&body).0), (400, "insufficient_allowance"), "{body}");

    // 1inch's documented refusals, typed; its words passed on, without the key.
    for (amount, code) in
        [(LIQUIDITY, "insufficient_liquidity"), (BALANCE_LOW, "insufficient_balance"), (NO_ROUTE, "swap_would_fail"), (ECHO_KEY, "bad_request")]
    {
        let (status, body) = api.quote(&sell, &buy, amount).await;
        assert_eq!((status, error(&body).0), (400, code), "{amount}: {body}");
        assert!(error(&body).1.contains("1inch says: "), "{body}");
    }
    let (_, body) = api.quote(&sell, &buy, LIQUIDITY).await;
    assert_eq!(error(&body).1, "Not enough liquidity: 1inch says: insufficient liquidity");
    // Down, or answering garbage: 503 and 502.
    let (status, body) = api.quote(&sell, &buy, DOWN).await;
    assert_eq!((status, error(&body).0), (503, "upstream_unavailable"), "{body}");
    let (status, body) = api.quote(&sell, &buy, GARBAGE).await;
    assert_eq!((status, error(&body).0), (502, "upstream_unavailable"), "{body}");
    // An answer past the size bound is not read.
    let (status, body) = api.quote(&sell, &buy, HUGE).await;
    assert_eq!((status, error(&body).0), (502, "upstream_unavailable"), "{body}");
    assert!(error(&body).1.contains("more than 2097152 bytes"), "{body}");

    for asked in log.lock().unwrap().iter() {
        assert_eq!(asked.headers.get("authorization").map(String::as_str), Some(format!("Bearer {ONEINCH_KEY}").as_str()));
        no_fee(asked);
    }
    api.never_shows(ONEINCH_KEY);
    api.server.stop().await;
}

/// An aggregator that cannot be reached, or whose key is not set: 503, never a 500, and no
/// key in the words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aggregators_down_or_without_a_key_are_503s() {
    std::env::set_var("SIGIL_TEST_DOWN_KEY", "down-key-5521");
    let kinds: [fn(AggregatorSource) -> SwapSource; 3] = [SwapSource::OneInch, SwapSource::ZeroX, SwapSource::LiFi];
    for kind in kinds {
        let api = Api::new(down_source(kind, closed_url(), Some("SIGIL_TEST_DOWN_KEY"))).await;
        let (status, body) = api.quote(&id(SELL), &id(BUY), ONE).await;
        assert_eq!((status, error(&body).0), (503, "upstream_unavailable"), "{body}");
        assert!(error(&body).1.contains("cannot be reached"), "{body}");
        let (status, body) = api.swap(&id(SELL), &id(BUY), ONE, true).await;
        assert_eq!((status, error(&body).0), (503, "upstream_unavailable"), "{body}");
        api.never_shows("down-key-5521");
        api.server.stop().await;
    }
    for kind in [SwapSource::OneInch, SwapSource::ZeroX] {
        let (url, log) = aggregator(|_| (200, "{}".into())).await;
        let api = Api::new(down_source(kind, url, Some("SIGIL_TEST_UNSET_KEY"))).await;
        let (status, body) = api.quote(&id(SELL), &id(BUY), ONE).await;
        assert_eq!((status, error(&body).0), (503, "upstream_unavailable"), "{body}");
        assert!(error(&body).1.contains("SIGIL_TEST_UNSET_KEY"), "{body}");
        assert!(log.lock().unwrap().is_empty(), "not asked without its key");
        api.server.stop().await;
    }
}

// ---- 0x -------------------------------------------------------------------------------------

const ZEROX_KEY: &str = "zerox-test-key-41b2d0";
const ZEROX_KEY_ENV: &str = "SIGIL_TEST_ZEROX_KEY";
const ZEROX_OUT: &str = "987654321000";

fn zerox_answer(a: &Asked) -> (u16, String) {
    if a.headers.get("0x-api-key").map(String::as_str) != Some(ZEROX_KEY) || a.headers.get("0x-version").map(String::as_str) != Some("v2") {
        return (401, json!({"name": "UNAUTHORIZED", "message": "Invalid API key"}).to_string());
    }
    let amount = a.query.get("sellAmount").map(String::as_str).unwrap_or("");
    let bad = |name: &str, message: &str| (400, json!({"name": name, "message": message, "data": {"zid": "0x1"}}).to_string());
    match amount {
        LIQUIDITY => return (200, json!({"liquidityAvailable": false, "zid": "0x1"}).to_string()),
        BALANCE_LOW => return bad("INSUFFICIENT_BALANCE", "Insufficient balance"),
        NO_ROUTE => return bad("TOKEN_NOT_SUPPORTED", "Token is not supported"),
        DOWN => return (503, json!({"name": "INTERNAL_SERVER_ERROR", "message": "down"}).to_string()),
        GARBAGE => return (200, json!({"liquidityAvailable": true, "buyAmount": "lots"}).to_string()),
        _ => {}
    }
    let native = a.query["sellToken"] == NATIVE_CHECKSUM;
    let allowance = if native { Value::Null } else { json!({"actual": "0", "spender": ALLOWANCE_HOLDER.to_lowercase()}) };
    let mut body = json!({
        "blockNumber": "20114692", "buyAmount": ZEROX_OUT, "buyToken": a.query["buyToken"].to_lowercase(),
        "fees": {"integratorFee": null, "zeroExFee": null, "gasFee": null},
        "issues": {"allowance": allowance, "balance": null, "simulationIncomplete": false, "invalidSourcesPassed": []},
        "liquidityAvailable": true, "minBuyAmount": "977777777790", "route": {"fills": [], "tokens": []},
        "sellAmount": amount, "sellToken": a.query["sellToken"].to_lowercase(), "totalNetworkFee": "1000", "zid": "0x1",
    });
    match a.path.as_str() {
        "/swap/allowance-holder/price" => (200, body.to_string()),
        "/swap/allowance-holder/quote" => {
            let bps: u64 = a.query["slippageBps"].parse().unwrap();
            body["minBuyAmount"] = json!(less(ZEROX_OUT, bps));
            body["allowanceTarget"] = if native { Value::Null } else { json!(ALLOWANCE_HOLDER) };
            body["transaction"] = json!({"to": ALLOWANCE_HOLDER.to_lowercase(), "data": "0x2213bc0b00000000000000000000000033333333",
                "gas": "288079", "gasPrice": "4837860000", "value": if native { amount } else { "0" }});
            (200, body.to_string())
        }
        _ => (404, json!({"name": "NOT_FOUND", "message": "no such path"}).to_string()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zerox_quotes_approvals_and_swaps() {
    std::env::set_var(ZEROX_KEY_ENV, ZEROX_KEY);
    let (url, log) = aggregator(zerox_answer).await;
    let api = Api::new(SwapSource::ZeroX(AggregatorSource { url: format!("{url}/"), api_key_env: Some(ZEROX_KEY_ENV.into()) })).await;
    let (sell, buy) = (id(SELL), id(BUY));

    // Before any quote, the allowance asks a price of the token against the coin to learn the
    // spender (issues.allowance.spender), then reads the chain.
    let (status, body) = api.get(&format!("/v1/convert/allowance?tokenAddress={sell}&userAddress={DEV}:{ME}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"allowance": ALLOWANCE.to_string(), "spender": id(ALLOWANCE_HOLDER)}));
    let price = asked_at(&log, "/swap/allowance-holder/price");
    assert_eq!((price[0].query["sellToken"].as_str(), price[0].query["buyToken"].as_str()), (evm::checksummed(SELL).as_str(), NATIVE_CHECKSUM));

    // A quote from /price: its buyAmount, the minimum at the slippage asked (not 0x's default).
    let (status, body) = api.quote(&sell, &buy, ONE).await;
    assert_eq!(status, 200, "{body}");
    let quote = &body["quotes"][0];
    assert_eq!((quote["toAmount"].as_str(), quote["toAmountMin"].as_str()), (Some(ZEROX_OUT), Some(less(ZEROX_OUT, 50).as_str())));
    assert_eq!((quote["source"].as_str(), quote["spender"].as_str()), (Some("zerox"), Some(id(ALLOWANCE_HOLDER).as_str())));
    assert_eq!(quote["route"], json!([sell, buy]));
    assert_eq!(quote["issues"][0]["code"], "insufficient_allowance");
    let price = asked_at(&log, "/swap/allowance-holder/price");
    let q: Vec<(&str, &str)> = price[1].query.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        q,
        [
            ("buyToken", evm::checksummed(BUY).as_str()),
            ("chainId", "31337"),
            ("sellAmount", ONE),
            ("sellToken", evm::checksummed(SELL).as_str()),
            ("taker", ME)
        ]
    );

    // Selling the coin: no spender to approve.
    let (status, body) = api.quote(NATIVE, &buy, ONE).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["quotes"][0]["spender"].clone(), body["quotes"][0]["issues"].clone()), (Value::Null, json!([])));

    // The approval: the exact amount to the AllowanceHolder.
    let (status, body) = api.get(&format!("/v1/convert/build-approve?userAddress={ME}&from={sell}&to={buy}&amount={ONE}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tx"]["data"], approve_data(ALLOWANCE_HOLDER, ONE));
    assert_eq!(body["spender"], id(ALLOWANCE_HOLDER));

    // The swap from /quote: slippage in basis points, 0x's transaction, its minimum, its gas.
    let (status, body) = api.swap(NATIVE, &buy, ONE, true).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["tx"],
        json!({"from": format!("{DEV}:{ME}"), "to": id(ALLOWANCE_HOLDER), "data": "0x2213bc0b00000000000000000000000033333333", "amount": ZEROX_OUT,
            "value": ONE, "eip155": {"gas": "288079", "gasPrice": GAS_PRICE}})
    );
    assert_eq!(
        (body["toAmountMin"].as_str(), body["gasEstimated"].as_bool(), body["deadline"].clone()),
        (Some(less(ZEROX_OUT, 50).as_str()), Some(true), Value::Null)
    );
    let quote = asked_at(&log, "/swap/allowance-holder/quote");
    assert_eq!((quote[0].query["slippageBps"].as_str(), quote[0].query["taker"].as_str()), ("50", ME));

    // 0x's documented refusals, typed; down and garbage: 503 and 502.
    for (amount, status, code) in [
        (LIQUIDITY, 400, "insufficient_liquidity"),
        (BALANCE_LOW, 400, "insufficient_balance"),
        (NO_ROUTE, 400, "no_route"),
        (DOWN, 503, "upstream_unavailable"),
        (GARBAGE, 502, "upstream_unavailable"),
    ] {
        let (got, body) = api.quote(&sell, &buy, amount).await;
        assert_eq!((got, error(&body).0), (status, code), "{amount}: {body}");
    }
    let (_, body) = api.quote(&sell, &buy, NO_ROUTE).await;
    assert_eq!(error(&body).1, "No route: 0x says: TOKEN_NOT_SUPPORTED: Token is not supported");

    for asked in log.lock().unwrap().iter() {
        assert!(asked.path.starts_with("/swap/allowance-holder/"), "{asked:?}");
        assert_eq!(asked.headers.get("0x-api-key").map(String::as_str), Some(ZEROX_KEY));
        no_fee(asked);
    }
    api.never_shows(ZEROX_KEY);
    api.server.stop().await;
}

// ---- LI.FI ----------------------------------------------------------------------------------

const LIFI_KEY: &str = "lifi-test-key-9e0c11";
const LIFI_KEY_ENV: &str = "SIGIL_TEST_LIFI_KEY";
const LIFI_OUT: &str = "4400000";
const LIFI_MIN: &str = "4378000";

fn lifi_answer(a: &Asked) -> (u16, String) {
    if a.path != "/v1/quote" {
        return (404, json!({"message": "Not found", "code": 1003}).to_string());
    }
    let amount = a.query.get("fromAmount").map(String::as_str).unwrap_or("");
    let no_quote = |code: &str| {
        let error = json!({"errorType": "NO_QUOTE", "code": code, "tool": "1inch", "message": "The tool cannot quote", "action": {}});
        (404, json!({"message": "No available quotes for the requested transfer", "code": 1002, "errors": [error]}).to_string())
    };
    match amount {
        LIQUIDITY => return no_quote("INSUFFICIENT_LIQUIDITY"),
        NO_ROUTE => return no_quote("NO_POSSIBLE_ROUTE"),
        BALANCE_LOW => return (400, json!({"message": "Invalid fromAmount", "code": 1011}).to_string()),
        DOWN => return (502, "Bad Gateway".into()),
        GARBAGE => return (200, json!({"estimate": {"toAmount": "4.4e6"}, "transactionRequest": {"to": "nowhere", "data": "0x"}}).to_string()),
        _ => {}
    }
    let native = a.query["fromToken"] == "0x0000000000000000000000000000000000000000";
    let body = json!({
        "type": "lifi", "id": "q-1", "tool": "1inch",
        "action": {"fromChainId": 31337, "toChainId": 31337, "fromAmount": amount, "slippage": a.query["slippage"].parse::<f64>().unwrap()},
        "estimate": {"tool": "1inch", "fromAmount": amount, "toAmount": LIFI_OUT, "toAmountMin": LIFI_MIN, "approvalAddress": LIFI_DIAMOND,
            "executionDuration": 30, "feeCosts": [], "gasCosts": [{"type": "SEND", "amount": "700000000000000", "limit": "350000"}]},
        "transactionRequest": {"from": a.query["fromAddress"], "to": LIFI_DIAMOND, "chainId": 31337, "data": "0x4630a0d8000000000000000000000000abcd",
            "value": if native { format!("{:#x}", U256::from_str_radix(amount, 10).unwrap()) } else { "0x0".into() },
            "gasLimit": "0x55730", "gasPrice": "0x5d21dba00"},
    });
    (200, body.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifi_quotes_approvals_and_swaps() {
    std::env::set_var(LIFI_KEY_ENV, LIFI_KEY);
    let (url, log) = aggregator(lifi_answer).await;
    let api = Api::new(SwapSource::LiFi(AggregatorSource { url: url.clone(), api_key_env: Some(LIFI_KEY_ENV.into()) })).await;
    let (sell, buy) = (id(SELL), id(BUY));

    // A quote: LI.FI's toAmount and toAmountMin (at the slippage asked, as a fraction), its
    // approvalAddress as the spender.
    let (status, body) = api.quote(&sell, NATIVE, ONE).await;
    assert_eq!(status, 200, "{body}");
    let quote = &body["quotes"][0];
    assert_eq!((quote["toAmount"].as_str(), quote["toAmountMin"].as_str()), (Some(LIFI_OUT), Some(LIFI_MIN)));
    assert_eq!((quote["source"].as_str(), quote["spender"].as_str()), (Some("lifi"), Some(id(LIFI_DIAMOND).as_str())));
    assert_eq!(quote["issues"][0]["code"], "insufficient_allowance");
    let asked = asked_at(&log, "/v1/quote");
    let q: Vec<(&str, &str)> = asked[0].query.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        q,
        [
            ("fromAddress", ME),
            ("fromAmount", ONE),
            ("fromChain", "31337"),
            ("fromToken", evm::checksummed(SELL).as_str()),
            ("slippage", "0.005"),
            ("toChain", "31337"),
            ("toToken", "0x0000000000000000000000000000000000000000")
        ]
    );

    // The allowance, for the spender LI.FI named; the approval for the exact amount.
    let (status, body) = api.get(&format!("/v1/convert/allowance?tokenAddress={sell}&userAddress={DEV}:{ME}")).await;
    assert_eq!((status, body), (200, json!({"allowance": ALLOWANCE.to_string(), "spender": id(LIFI_DIAMOND)})));
    let (status, body) = api.get(&format!("/v1/convert/build-approve?userAddress={ME}&from={sell}&to={buy}&amount={ONE}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["tx"]["data"].as_str(), body["tx"]["to"].as_str()), (Some(approve_data(LIFI_DIAMOND, ONE).as_str()), Some(sell.as_str())));

    // The swap: LI.FI's transactionRequest, hex quantities read.
    let (status, body) = api.swap(NATIVE, &buy, ONE, true).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["tx"],
        json!({"from": format!("{DEV}:{ME}"), "to": id(LIFI_DIAMOND), "data": "0x4630a0d8000000000000000000000000abcd", "amount": LIFI_OUT,
            "value": ONE, "eip155": {"gas": "350000", "gasPrice": GAS_PRICE}})
    );
    assert_eq!((body["toAmountMin"].as_str(), body["gasEstimated"].as_bool()), (Some(LIFI_MIN), Some(true)));

    // Refusals: no quote typed by the tools' codes; a validation error passed on.
    for (amount, status, code) in [
        (LIQUIDITY, 400, "insufficient_liquidity"),
        (NO_ROUTE, 400, "no_route"),
        (BALANCE_LOW, 400, "bad_request"),
        (DOWN, 503, "upstream_unavailable"),
        (GARBAGE, 502, "upstream_unavailable"),
    ] {
        let (got, body) = api.quote(&sell, &buy, amount).await;
        assert_eq!((got, error(&body).0), (status, code), "{amount}: {body}");
    }
    let (_, body) = api.quote(&sell, &buy, NO_ROUTE).await;
    assert_eq!(error(&body).1, "No route: LI.FI says: No available quotes for the requested transfer (NO_POSSIBLE_ROUTE)");
    // A quote needs the account.
    let (status, body) = api.get(&format!("/v1/convert/quotes?amount={ONE}&from={sell}&to={buy}")).await;
    assert_eq!((status, error(&body).0), (400, "bad_request"), "{body}");

    for asked in log.lock().unwrap().iter() {
        assert_eq!(asked.headers.get("x-lifi-api-key").map(String::as_str), Some(LIFI_KEY));
        no_fee(asked);
    }
    api.never_shows(LIFI_KEY);
    api.server.stop().await;

    // Without a key (it is optional), no key header.
    let (url, log) = aggregator(lifi_answer).await;
    let api = Api::new(SwapSource::LiFi(AggregatorSource { url, api_key_env: None })).await;
    let (status, body) = api.quote(&sell, &buy, ONE).await;
    assert_eq!(status, 200, "{body}");
    assert!(log.lock().unwrap().iter().all(|a| !a.headers.contains_key("x-lifi-api-key")));
    api.server.stop().await;
}
