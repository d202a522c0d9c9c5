//! The JSON-RPC proxy against real anvil chains: single and batch, failover, all-down, retries,
//! coalescing, caching and the per-project limit.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{chain_with, deploy_devchain, dev_chain, signed_transfer, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sigil_server::chains::Chains;

const DEV: &str = "eip155:31337";
const ACCOUNT0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

async fn server(upstreams: &[&str], rps: u32) -> TestServer {
    server_for(dev_chain(upstreams), rps).await
}

async fn server_for(chains: Chains, rps: u32) -> TestServer {
    TestServer::start_with(Backend::Sqlite, &["*"], move |c| {
        c.chains = chains;
        c.rpc.requests_per_second = rps;
        // Probes would add upstream calls the counting tests see; failover works without them.
        c.rpc.probe_interval = Duration::from_secs(3600);
    })
    .await
    .unwrap()
}

async fn rpc(s: &TestServer, body: Value) -> (u16, Value) {
    let res = s.http.post(s.api(&format!("/v1?chainId={DEV}"))).json(&body).send().await.unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

fn call(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// anvil mines just after it answers a send: balances are read once the receipt is there.
async fn wait_for_receipt(s: &TestServer, hash: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while rpc(s, call(9, "eth_getTransactionReceipt", json!([hash]))).await.1["result"].is_null() {
        assert!(std::time::Instant::now() < deadline, "no receipt for {hash}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_batch_and_bad_input() {
    let anvil = Anvil::start();
    let s = server(&[&anvil.url], 10_000).await;

    // A 19-digit id comes back exactly.
    let res =
        s.http.post(s.api(&format!("/v1/?chainId={DEV}"))).body(r#"{"jsonrpc":"2.0","id":1234567890123456789,"method":"eth_chainId"}"#).send().await.unwrap();
    assert_eq!(res.text().await.unwrap(), r#"{"jsonrpc":"2.0","id":1234567890123456789,"result":"0x7a69"}"#);

    // A transaction signed elsewhere is broadcast: a real transfer, then the balance shows it.
    let to = "0x000000000000000000000000000000000000beef";
    let raw = signed_transfer(&anvil.url, ACCOUNT0, to, "0xde0b6b3a7640000").await;
    let (status, sent) = rpc(&s, call(1, "eth_sendRawTransaction", json!([raw]))).await;
    assert_eq!(status, 200, "{sent}");
    let hash = sent["result"].as_str().unwrap().to_owned();
    assert_eq!(hash.len(), 66);
    wait_for_receipt(&s, &hash).await;
    let (_, bal) = rpc(&s, call(2, "eth_getBalance", json!([to, "latest"]))).await;
    assert_eq!(bal["result"], "0xde0b6b3a7640000");

    // Batch: answers in order, a bad item answered in place.
    let (status, batch) =
        rpc(&s, json!([call(7, "eth_getBalance", json!([to, "latest"])), {"id": 8, "method": "eth_blockNumber"}, call(9, "eth_blockNumber", json!([]))])).await;
    assert_eq!(status, 200);
    assert_eq!(batch[0]["id"], 7);
    assert_eq!(batch[0]["result"], "0xde0b6b3a7640000");
    assert_eq!(batch[1]["error"]["code"], -32600);
    assert_eq!(batch[2]["result"], "0x1");

    let big: Vec<Value> = (0..1001).map(|i| call(i, "eth_blockNumber", json!([]))).collect();
    let (status, body) = rpc(&s, Value::Array(big)).await;
    assert_eq!((status, body["error"]["code"].as_i64()), (400, Some(-32600)));
    let full: Vec<Value> = (0..1000).map(|i| call(i, "eth_blockNumber", json!([]))).collect();
    let (status, body) = rpc(&s, Value::Array(full)).await;
    assert_eq!((status, body.as_array().unwrap().len(), &body[999]["id"]), (200, 1000, &json!(999)));
    let (status, body) = rpc(&s, json!([])).await;
    assert_eq!((status, body["error"]["code"].as_i64()), (400, Some(-32600)));
    // Past the proxy's limit (--rpc-body-limit, 1 MiB by default): a JSON-RPC error that names it.
    let huge = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{{"data":"0x{}"}},"latest"]}}"#, "00".repeat(530_000));
    let res = s.http.post(s.api(&format!("/v1?chainId={DEV}"))).body(huge).send().await.unwrap();
    assert_eq!(res.status(), 413);
    let body: Value = res.json().await.unwrap();
    assert_eq!((body["error"]["code"].as_i64(), body["error"]["message"].as_str()), (Some(-32600), Some("Request body is larger than 1048576 bytes")));

    let res = s.http.post(s.api(&format!("/v1?chainId={DEV}"))).body("{nope").send().await.unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<Value>().await.unwrap()["error"]["code"], -32700);
    let res = s.http.post(s.api("/v1?chainId=eip155:999")).json(&call(1, "eth_chainId", json!([]))).send().await.unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<Value>().await.unwrap()["error"]["message"], "Unsupported chainId eip155:999");
    let res = s.http.post(s.api("/v1")).json(&call(1, "eth_chainId", json!([]))).send().await.unwrap();
    assert_eq!(res.status(), 400);
    let res = s
        .http
        .post(s.url(&format!("/v1?chainId={DEV}&projectId=00000000000000000000000000000000")))
        .json(&call(1, "eth_chainId", json!([])))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    let (_, supported) = s.get_json(&s.api("/v1/supported-chains")).await;
    assert_eq!(supported, json!({"http": [DEV], "ws": []}));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failover_when_an_upstream_dies_mid_run() {
    let first = Anvil::start();
    let second = Anvil::start();
    let s = Arc::new(server(&[&first.url, &second.url], 10_000).await);
    // Four clients at once, so requests are in flight at the moment the first upstream dies.
    // eth_newBlockFilter is never shared between requests: each one is its own upstream call.
    let done = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..4u64)
        .map(|c| {
            let (s, done) = (s.clone(), done.clone());
            tokio::spawn(async move {
                for i in 0..60u64 {
                    let (status, body) = rpc(&s, call(c * 1000 + i, "eth_newBlockFilter", json!([]))).await;
                    assert_eq!(status, 200, "client {c} request {i}: {body}");
                    assert!(body["result"].as_str().is_some_and(|id| id.starts_with("0x")), "client {c} request {i}: {body}");
                    done.fetch_add(1, Ordering::SeqCst);
                }
            })
        })
        .collect();
    while done.load(Ordering::SeqCst) < 80 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    drop(first); // killed mid-run
    for client in clients {
        client.await.expect("no client saw an error");
    }
    assert_eq!(done.load(Ordering::SeqCst), 240);
    Arc::into_inner(s).expect("clients are done").stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_down_is_a_quick_503() {
    let dead = |_| format!("http://127.0.0.1:{}", std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port());
    let urls: Vec<String> = (0..2).map(dead).collect();
    let s = server(&[&urls[0], &urls[1]], 10_000).await;
    let start = Instant::now();
    let (status, body) = rpc(&s, call(5, "eth_blockNumber", json!([]))).await;
    assert_eq!(status, 503);
    assert_eq!(body["id"], 5);
    assert_eq!(body["error"]["message"], "All upstream RPC endpoints for eip155:31337 are unavailable");
    // 3 retries with 150, 300 and 600 ms between rounds: about a second, never a hang.
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(1000) && took < Duration::from_secs(5), "{took:?}");
    s.stop().await;
}

/// An HTTP upstream in front of anvil that counts calls, can fail the first N with a status,
/// and delays answers so concurrent requests overlap.
async fn counting_upstream(anvil: &str, fail_first: usize, fail_status: u16, delay: Duration) -> (String, Arc<AtomicUsize>) {
    counting_upstream_of(anvil, fail_first, fail_status, delay, None).await
}

/// The same, counting only the calls of `method` when one is given (e.g. not the health probes).
async fn counting_upstream_of(anvil: &str, fail_first: usize, fail_status: u16, delay: Duration, method: Option<&'static str>) -> (String, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let (target, seen) = (anvil.to_owned(), count.clone());
    let client = reqwest::Client::new();
    let app = axum::Router::new().route(
        "/",
        axum::routing::post(move |body: String| {
            let (target, seen, client) = (target.clone(), seen.clone(), client.clone());
            async move {
                let counted = method.is_none_or(|m| body.contains(&format!("\"method\":\"{m}\"")));
                let n = if counted { seen.fetch_add(1, Ordering::SeqCst) } else { usize::MAX };
                if counted && n < fail_first {
                    return (axum::http::StatusCode::from_u16(fail_status).unwrap(), String::new());
                }
                tokio::time::sleep(delay).await;
                let text = client.post(&target).header("content-type", "application/json").body(body).send().await.unwrap().text().await.unwrap();
                (axum::http::StatusCode::OK, text)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, count)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coalesces_reads_caches_constants_never_sends() {
    let anvil = Anvil::start();
    let (url, upstream_calls) = counting_upstream(&anvil.url, 0, 200, Duration::from_millis(300)).await;
    let s = Arc::new(server(&[&url], 10_000).await);

    let reads = (0..20u64).map(|i| {
        let s = s.clone();
        async move { rpc(&s, call(i, "eth_getBalance", json!([ACCOUNT0, "latest"]))).await }
    });
    let results = futures::future::join_all(reads).await;
    for (i, (status, body)) in results.iter().enumerate() {
        assert_eq!((*status, &body["id"], &body["result"]), (200, &json!(i), &json!("0x21e19e0c9bab2400000")));
    }
    assert_eq!(upstream_calls.load(Ordering::SeqCst), 1, "20 identical in-flight reads, one upstream call");

    upstream_calls.store(0, Ordering::SeqCst);
    for i in 0..3 {
        let (_, body) = rpc(&s, call(i, "eth_chainId", json!([]))).await;
        assert_eq!(body["result"], "0x7a69");
        let (_, body) = rpc(&s, call(i, "net_version", json!([]))).await;
        assert_eq!(body["result"], "31337");
    }
    assert_eq!(upstream_calls.load(Ordering::SeqCst), 2, "eth_chainId and net_version are fetched once");

    upstream_calls.store(0, Ordering::SeqCst);
    let to = "0x000000000000000000000000000000000000cafe";
    let raw = signed_transfer(&anvil.url, ACCOUNT0, to, "0x1").await;
    let sends = (0..5u64).map(|i| {
        let (s, raw) = (s.clone(), raw.clone());
        async move { rpc(&s, call(i, "eth_sendRawTransaction", json!([raw]))).await }
    });
    let replies: Vec<Value> = futures::future::join_all(sends).await.into_iter().map(|(_, b)| b).collect();
    assert_eq!(upstream_calls.load(Ordering::SeqCst), 5, "identical sends are each forwarded");
    // Each reply answers its own request (the node accepts the first and may refuse the
    // copies, how many depends on timing), and the transfer landed.
    for (i, b) in replies.iter().enumerate() {
        assert_eq!(b["id"], json!(i));
        assert!(b["result"].as_str().is_some_and(|h| h.len() == 66) || b["error"]["code"].is_i64(), "{b}");
    }
    let hash = replies.iter().find_map(|b| b["result"].as_str()).expect("the node accepted one of the sends");
    wait_for_receipt(&s, hash).await;
    let (_, bal) = rpc(&s, call(1, "eth_getBalance", json!([to, "latest"]))).await;
    assert_ne!(bal["result"], "0x0");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_5xx_and_429_then_succeeds() {
    let anvil = Anvil::start();
    for status in [503u16, 429] {
        let (url, calls) = counting_upstream(&anvil.url, 2, status, Duration::ZERO).await;
        let s = server(&[&url], 10_000).await;
        let (code, body) = rpc(&s, call(1, "eth_blockNumber", json!([]))).await;
        assert_eq!((code, &body["result"]), (200, &json!("0x0")), "after two {status}s");
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_project_rate_limit() {
    let anvil = Anvil::start();
    let s = server(&[&anvil.url], 5).await;
    for i in 0..5 {
        assert_eq!(rpc(&s, call(i, "eth_blockNumber", json!([]))).await.0, 200);
    }
    let res = s.http.post(s.api(&format!("/v1?chainId={DEV}"))).json(&call(9, "eth_blockNumber", json!([]))).send().await.unwrap();
    assert_eq!(res.status(), 429);
    assert_eq!(res.headers()["retry-after"], "1");
    assert_eq!(res.json::<Value>().await.unwrap()["error"]["code"], -32005);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_balances_cache_and_force_update() {
    let anvil = Anvil::start();
    let s = server(&[&anvil.url], 10_000).await;
    let balance = |addr: &str, extra: &str| s.api(&format!("/v1/account/{addr}/balance?chainId={DEV}&currency=usd{extra}"));

    let (status, body) = s.get_json(&balance(ACCOUNT0, "")).await;
    assert_eq!(status, 200, "{body}");
    let native = &body["balances"][0];
    assert_eq!((native["symbol"].as_str(), native["chainId"].as_str(), native["address"].is_null()), (Some("ETH"), Some(DEV), true));
    assert_eq!(native["quantity"], json!({"decimals": "18", "numeric": "10000"}));
    // A testnet reports no fiat value.
    assert_eq!((native["price"].as_f64(), native["value"].as_f64()), (Some(0.0), Some(0.0)));
    assert!(native["iconUrl"].as_str().unwrap().ends_with(&format!("/public/getTokenImage/ETH?projectId={}", s.project)), "{native}");
    // Another project gets the same cached answer with its own id in the icon URL.
    let other = sigil_server::projects::create(&s.db, "Other", &["*".to_owned()], Default::default()).await.unwrap().id;
    let (_, body) = s.get_json(&s.url(&format!("/v1/account/{ACCOUNT0}/balance?chainId={DEV}&projectId={other}"))).await;
    assert!(body["balances"][0]["iconUrl"].as_str().unwrap().ends_with(&format!("/public/getTokenImage/ETH?projectId={other}")), "{body}");

    // A real transfer; the receiver's balance is exact.
    let to = "0x00000000000000000000000000000000000b0b01";
    let (_, before) = s.get_json(&balance(to, "")).await;
    assert_eq!(before["balances"][0]["quantity"]["numeric"], "0");
    let raw = signed_transfer(&anvil.url, ACCOUNT0, to, "0x14d1120d7b160000").await; // 1.5 ETH
    let (_, sent) = rpc(&s, call(1, "eth_sendRawTransaction", json!([raw]))).await;
    wait_for_receipt(&s, sent["result"].as_str().unwrap()).await;
    // Cached for 30 s...
    let (_, cached) = s.get_json(&balance(to, "")).await;
    assert_eq!(cached["balances"][0]["quantity"]["numeric"], "0");
    // ...unless forced.
    let (_, fresh) = s.get_json(&balance(to, "&forceUpdate=true")).await;
    assert_eq!(fresh["balances"][0]["quantity"]["numeric"], "1.5");

    // Bad input is named; an unsupported chain is an empty list.
    let (status, body) = s.get_json(&s.api(&format!("/v1/account/0x123/balance?chainId={DEV}"))).await;
    assert_eq!((status, body["error"]["message"].as_str().unwrap().starts_with("Invalid parameter 'address'")), (400, true));
    let (status, body) = s.get_json(&s.api(&format!("/v1/account/{ACCOUNT0}/balance"))).await;
    assert_eq!((status, body["error"]["message"].as_str().unwrap().starts_with("Invalid parameter 'chainId'")), (400, true));
    let (status, body) = s.get_json(&s.api(&format!("/v1/account/{ACCOUNT0}/balance?chainId=eip155:999"))).await;
    assert_eq!((status, body), (200, json!({"balances": []})));
    let (status, _) = s.get_json(&balance(ACCOUNT0, "&currency=xyz")).await;
    assert_eq!(status, 400);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mainnet_like_chain_reports_fiat_and_prices() {
    let anvil = Anvil::start();
    let mut chains = chain_with(&[&anvil.url], false);
    chains.static_prices.insert("ETH".into(), 3000.0);
    let s = server_for(chains, 10_000).await;
    let (_, body) = s.get_json(&s.api(&format!("/v1/account/{ACCOUNT0}/balance?chainId={DEV}"))).await;
    assert_eq!((body["balances"][0]["price"].as_f64(), body["balances"][0]["value"].as_f64()), (Some(3000.0), Some(30_000_000.0)));

    let res = s
        .http
        .post(s.api("/v1/fungible/price"))
        // The coin as `native`, or as the AppKit client names it (its placeholder address).
        .json(&json!({"currency": "usd", "addresses": [format!("{DEV}:native"), "eip155:999:native", format!("{DEV}:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")], "projectId": s.project}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let ether = json!({"name": "Ether", "symbol": "ETH", "iconUrl": format!("http://127.0.0.1:8080/public/getTokenImage/ETH?projectId={}", s.project), "price": 3000.0});
    assert_eq!(body["fungibles"], json!([ether.clone(), ether]));
    let res = s.http.post(s.api("/v1/fungible/price")).json(&json!({"currency": "usd", "addresses": ["nope"]})).send().await.unwrap();
    assert_eq!(res.status(), 400);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_balances_and_on_chain_pair_price() {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let sgl = deployed["tokens"][0]["address"].as_str().unwrap().to_owned();
    let usdc = deployed["tokens"][1]["address"].as_str().unwrap().to_owned();
    let pair = deployed["pairs"][0]["address"].as_str().unwrap().to_owned();
    assert_eq!(deployed["tokens"][0]["symbol"], "SGL");

    let mut chains = chain_with(&[&anvil.url], false);
    let dev = chains.by_id.get_mut(DEV).unwrap();
    dev.tokens = vec![
        sigil_server::chains::Token { address: sgl.clone(), symbol: "SGL".into(), name: "Sigil".into(), decimals: 18, icon: None },
        sigil_server::chains::Token { address: usdc.clone(), symbol: "USDC".into(), name: "USD Coin".into(), decimals: 6, icon: None },
    ];
    dev.price_pairs = vec![sigil_server::chains::PricePair { token: sgl.clone(), pair, quote: usdc.clone() }];
    chains.static_prices.insert("ETH".into(), 3000.0);
    chains.static_prices.insert("USDC".into(), 1.0);
    chains.static_prices.insert("SGL".into(), 99.0); // the pair wins over the table
    let s = server_for(chains, 10_000).await;

    // Account 1 got 1000 SGL from the deployment and holds no USDC: USDC is left out.
    let account1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    let (status, body) = s.get_json(&s.api(&format!("/v1/account/{account1}/balance?chainId={DEV}&currency=usd"))).await;
    assert_eq!(status, 200, "{body}");
    let symbols: Vec<&str> = body["balances"].as_array().unwrap().iter().map(|b| b["symbol"].as_str().unwrap()).collect();
    assert_eq!(symbols, ["ETH", "SGL"]);
    let token = &body["balances"][1];
    // CAIP-10, as the AppKit client reads it.
    assert_eq!(token["address"].as_str().unwrap().to_lowercase(), format!("{DEV}:{sgl}").to_lowercase());
    assert_eq!(token["quantity"], json!({"decimals": "18", "numeric": "1000"}));
    assert_eq!((token["price"].as_f64(), token["value"].as_f64()), (Some(2.5), Some(2500.0)));

    // The deployer holds the USDC supply less the pair's 25,000.
    let (_, body) = s.get_json(&s.api(&format!("/v1/account/{ACCOUNT0}/balance?chainId={DEV}"))).await;
    let usdc_balance = body["balances"].as_array().unwrap().iter().find(|b| b["symbol"] == "USDC").unwrap().clone();
    assert_eq!(usdc_balance["quantity"]["numeric"], "975000");
    assert_eq!(usdc_balance["value"].as_f64(), Some(975000.0));

    let res = s
        .http
        .post(s.api("/v1/fungible/price"))
        .json(&json!({"currency": "usd", "addresses": [format!("{DEV}:{sgl}"), format!("{DEV}:{usdc}")]}))
        .send()
        .await
        .unwrap();
    let body: Value = res.json().await.unwrap();
    let priced: Vec<(String, f64)> =
        body["fungibles"].as_array().unwrap().iter().map(|f| (f["symbol"].as_str().unwrap().to_owned(), f["price"].as_f64().unwrap())).collect();
    assert_eq!(priced, vec![("SGL".to_owned(), 2.5), ("USDC".to_owned(), 1.0)]);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployments_tokens_are_listed_usdt_included() {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    assert_eq!(deployed["tokens"][2]["noReturn"], true, "USDT returns no bool, as on mainnet");
    let mut chains = dev_chain(&[&anvil.url]);
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let s = server_for(chains, 10_000).await;

    // Account 1 got 1000 SGL and 1000 USDT from the deployment, and holds no USDC.
    let account1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    let (status, body) = s.get_json(&s.api(&format!("/v1/account/{account1}/balance?chainId={DEV}"))).await;
    assert_eq!(status, 200, "{body}");
    let rows: Vec<(&str, &str)> =
        body["balances"].as_array().unwrap().iter().map(|b| (b["symbol"].as_str().unwrap(), b["quantity"]["numeric"].as_str().unwrap())).collect();
    assert_eq!(rows[1..], [("SGL", "1000"), ("USDT", "1000")]);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn block_number_follows_the_head_over_websocket() {
    let anvil = Anvil::start();
    // Only eth_blockNumber is counted: the health probes (eth_chainId, every 100 ms here) go to
    // the same upstream.
    let (url, upstream_calls) = counting_upstream_of(&anvil.url, 0, 200, Duration::ZERO, Some("eth_blockNumber")).await;
    let mut chains = dev_chain(&[&url]);
    chains.by_id.get_mut(DEV).unwrap().ws = vec![anvil.url.replace("http://", "ws://")];
    let s = TestServer::start_with(Backend::Sqlite, &["*"], move |c| {
        c.chains = chains;
        c.rpc.probe_interval = Duration::from_millis(100);
        c.rpc.retries = 0;
    })
    .await
    .unwrap();
    let block_number = |s: &TestServer| {
        let req = s.http.post(s.api(&format!("/v1?chainId={DEV}"))).json(&call(1, "eth_blockNumber", json!([])));
        async move {
            let body: Value = req.send().await.unwrap().json().await.unwrap();
            body["result"].as_str().map(str::to_owned)
        }
    };

    // The first call goes upstream and marks the chain in use; the head follower then starts,
    // and from then on eth_blockNumber costs no upstream call.
    assert_eq!(block_number(&s).await.as_deref(), Some("0x0"));
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let before = upstream_calls.load(Ordering::SeqCst);
        assert_eq!(block_number(&s).await.as_deref(), Some("0x0"));
        if upstream_calls.load(Ordering::SeqCst) == before {
            break;
        }
        assert!(Instant::now() < deadline, "eth_blockNumber still goes upstream");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let before = upstream_calls.load(Ordering::SeqCst);
    for _ in 0..20 {
        block_number(&s).await;
    }
    assert_eq!(upstream_calls.load(Ordering::SeqCst), before);

    // New blocks show at once, whether mined through the proxy or straight on the node.
    let raw = signed_transfer(&anvil.url, ACCOUNT0, ACCOUNT0, "0x1").await;
    let (status, _) = rpc(&s, call(2, "eth_sendRawTransaction", json!([raw]))).await;
    assert_eq!(status, 200);
    let mined = async {
        while block_number(&s).await.as_deref() != Some("0x1") {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(2), mined).await.expect("block 1 seen within 2 s");
    reqwest::Client::new().post(&anvil.url).json(&call(3, "anvil_mine", json!(["0x3"]))).send().await.unwrap();
    let mined = async {
        while block_number(&s).await.as_deref() != Some("0x4") {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(2), mined).await.expect("block 4 seen within 2 s");

    // The node goes away: the stale head is not served; the call goes upstream and fails.
    drop(anvil);
    let gone = async {
        loop {
            let (status, body) = rpc(&s, call(4, "eth_blockNumber", json!([]))).await;
            if status != 200 {
                return body;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let body = tokio::time::timeout(Duration::from_secs(10), gone).await.expect("stale head dropped");
    assert!(body["error"].is_object(), "{body}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn never_forwards_signing_or_node_admin_methods() {
    let anvil = Anvil::start();
    let s = server(&[&anvil.url], 10_000).await;
    let stranger = "0x00000000000000000000000000000000000d00d0";
    let refused = [
        call(1, "eth_sendTransaction", json!([{"from": ACCOUNT0, "to": stranger, "value": "0x1"}])),
        call(2, "personal_sign", json!(["0x68656c6c6f", ACCOUNT0])),
        call(3, "eth_sign", json!([ACCOUNT0, "0x68656c6c6f"])),
        call(4, "eth_signTypedData_v4", json!([ACCOUNT0, "{}"])),
        call(5, "anvil_setBalance", json!([stranger, "0xffff"])),
        call(6, "anvil_impersonateAccount", json!([stranger])),
        call(7, "evm_mine", json!([])),
        call(8, "debug_traceTransaction", json!(["0x00"])),
        call(9, "eth_accounts", json!([])),
        call(10, "trace_block", json!(["0x0"])),
    ];
    for c in &refused {
        let method = c["method"].as_str().unwrap();
        let (status, body) = rpc(&s, c.clone()).await;
        assert_eq!(status, 200, "{method}: {body}");
        assert_eq!(body["id"], c["id"]);
        assert_eq!(body["error"]["code"], -32601, "{method}: {body}");
        assert_eq!(body["error"]["message"], format!("The method {method} is not available through this RPC proxy"));
    }
    // In a batch, refused calls are answered in place and the rest go through.
    let (status, batch) =
        rpc(&s, json!([call(20, "evm_mine", json!([])), call(21, "eth_blockNumber", json!([])), call(22, "anvil_setBalance", json!([stranger, "0x1"]))])).await;
    assert_eq!(status, 200);
    assert_eq!(
        (batch[0]["error"]["code"].as_i64(), batch[1]["result"].as_str(), batch[2]["error"]["code"].as_i64()),
        (Some(-32601), Some("0x0"), Some(-32601))
    );
    // Nothing reached the node: no block was mined, no balance set, no transfer sent.
    let (_, block) = rpc(&s, call(30, "eth_blockNumber", json!([]))).await;
    assert_eq!(block["result"], "0x0");
    let (_, balance) = rpc(&s, call(31, "eth_getBalance", json!([stranger, "latest"]))).await;
    assert_eq!(balance["result"], "0x0");
    s.stop().await;

    // An operator may add methods for a chain (here trace_block); never a signing or admin one.
    let mut chains = dev_chain(&[&anvil.url]);
    chains.by_id.get_mut(DEV).unwrap().allow_methods = vec!["trace_block".into()];
    let s = server_for(chains, 10_000).await;
    let (status, body) = rpc(&s, call(1, "trace_block", json!(["0x0"]))).await;
    assert_eq!((status, body["error"].is_null()), (200, true), "{body}");
    s.stop().await;
}
