//! The pay area on SQLite and PostgreSQL: JSON-RPC at /v1/json-rpc as the AppKit client speaks
//! it. The exchange list (paging, includeOnly, exclude, an asset's filter), a deposit URL
//! built from the operator's template with the session, the status read from a real anvil
//! (IN_PROGRESS, then SUCCESS once a transfer of the amount landed; a smaller one is not
//! enough), an ERC-20 deposit, the sandbox exchange's page sending the deposit once however
//! many confirmations arrive, cancel and expiry as FAILED, every bad parameter as a JSON-RPC
//! error that names it, the per-project limit holding under concurrency, and one open session
//! per recipient and asset (a new one supersedes the older, so one deposit satisfies one
//! session, also when many are started at once).

mod common;

use common::{deploy_devchain, dev_chain, receipt, rpc, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sigil_server::config::Config;

/// anvil's account 0: the sandbox exchange's sender in these tests.
const SENDER_KEY: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ACCOUNT0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ETH: &str = "eip155:31337/slip44:60";

fn exchanges_file(dir: &tempfile::TempDir, extra: usize) -> std::path::PathBuf {
    let mut text = String::from(
        r#"[[exchange]]
id = "acme"
name = "Acme Exchange"
image_url = "https://acme.example/logo.png"
url = "https://acme.example/deposit?to={address}&chain={chainId}&network={network}&asset={asset}&amount={amount}&symbol={symbol}&ref={sessionId}"

[[exchange]]
id = "mainnet-only"
name = "Mainnet Only"
image_url = "https://m.example/logo.png"
url = "https://m.example/d/{sessionId}"
assets = ["eip155:1/slip44:60"]
"#,
    );
    for i in 0..extra {
        text.push_str(&format!(
            "\n[[exchange]]\nid = \"ex{i:02}\"\nname = \"Exchange {i:02}\"\nimage_url = \"https://ex{i}.example/i.png\"\nurl = \"https://ex{i}.example/?s={{sessionId}}\"\n"
        ));
    }
    let path = dir.path().join("exchanges.toml");
    std::fs::write(&path, text).unwrap();
    path
}

async fn server(backend: Backend, anvil: Option<&Anvil>, tweak: impl FnOnce(&mut Config)) -> Option<(TestServer, tempfile::TempDir)> {
    let dir = tempfile::tempdir().unwrap();
    let path = exchanges_file(&dir, 11);
    let url = anvil.map(|a| a.url.clone());
    let ts = TestServer::start_with(backend, &["*"], move |c| {
        if let Some(url) = url {
            c.chains = dev_chain(&[&url]);
        }
        c.settings.pay.exchanges = Some(path);
        c.settings.pay.sandbox_key = Some(SENDER_KEY.parse().unwrap());
        tweak(c);
    })
    .await?;
    Some((ts, dir))
}

/// One JSON-RPC call: the HTTP status and the body.
async fn call(ts: &TestServer, method: &str, params: Value) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let res = ts.http.post(ts.api("/v1/json-rpc")).json(&body).send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn result(ts: &TestServer, method: &str, params: Value) -> Value {
    let (status, body) = call(ts, method, params).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 7);
    assert!(body.get("error").is_none(), "{method}: {body}");
    body["result"].clone()
}

/// The JSON-RPC error of a call: code and message.
async fn error(ts: &TestServer, method: &str, params: Value) -> (i64, String) {
    let (status, body) = call(ts, method, params).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("result").is_none(), "{body}");
    (body["error"]["code"].as_i64().unwrap(), body["error"]["message"].as_str().unwrap().to_owned())
}

fn ids(result: &Value) -> Vec<String> {
    result["exchanges"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect()
}

async fn listing(backend: Backend) {
    let Some((ts, _dir)) = server(backend, None, |_| {}).await else { return };
    // 2 + 11 + the sandbox: pages of 10, in the file's order, the sandbox last.
    let first = result(&ts, "reown_getExchanges", json!({"page": 0})).await;
    assert_eq!(first["total"], 14);
    assert_eq!(ids(&first), ["acme", "mainnet-only", "ex00", "ex01", "ex02", "ex03", "ex04", "ex05", "ex06", "ex07"]);
    assert_eq!(first["exchanges"][0], json!({"id": "acme", "imageUrl": "https://acme.example/logo.png", "name": "Acme Exchange"}));
    let second = result(&ts, "reown_getExchanges", json!({"page": 1})).await;
    assert_eq!(ids(&second), ["ex08", "ex09", "ex10", "sigil-sandbox"]);
    assert_eq!(second["exchanges"][3]["name"], "Sigil sandbox exchange");
    // The server's public URL (its default here; the test server listens elsewhere).
    assert_eq!(second["exchanges"][3]["imageUrl"], "http://127.0.0.1:8080/public/getTokenImage/SBX");
    assert_eq!(ids(&result(&ts, "reown_getExchanges", json!({"page": 2})).await), Vec::<String>::new());
    // The AppKit client's extra params (projectId, st, sv) are ignored.
    let only =
        result(&ts, "reown_getExchanges", json!({"page": 0, "includeOnly": ["ex03", "acme", "nope"], "projectId": ts.project, "st": "appkit", "sv": "1.8.0"}))
            .await;
    assert_eq!((ids(&only), only["total"].clone()), (vec!["acme".to_owned(), "ex03".to_owned()], json!(2)));
    let without = result(&ts, "reown_getExchanges", json!({"page": 0, "includeOnly": ["ex03", "acme"], "exclude": ["acme"]})).await;
    assert_eq!(ids(&without), ["ex03"]);
    // An asset: exchanges with a list give only theirs; the sandbox only its chain's.
    let mainnet =
        result(&ts, "reown_getExchanges", json!({"page": 0, "asset": "eip155:1/slip44:60", "includeOnly": ["acme", "mainnet-only", "sigil-sandbox"]})).await;
    assert_eq!(ids(&mainnet), ["acme", "mainnet-only"]);
    let dev = result(&ts, "reown_getExchanges", json!({"page": 0, "asset": ETH, "includeOnly": ["acme", "mainnet-only", "sigil-sandbox"]})).await;
    assert_eq!(ids(&dev), ["acme", "sigil-sandbox"]);
    // Bad input.
    assert_eq!(
        error(&ts, "reown_getExchanges", json!({"page": -1})).await,
        (-32602, "Invalid parameter 'page': expected a whole number from 0 (the first page)".to_owned())
    );
    assert_eq!(error(&ts, "reown_getExchanges", json!({"page": "x"})).await.0, -32602);
    assert_eq!(
        error(&ts, "reown_getExchanges", json!({"includeOnly": "acme"})).await.1,
        "Invalid parameter 'includeOnly': expected a list of at most 100 exchange ids"
    );
    assert_eq!(
        error(&ts, "reown_getExchanges", json!({"exclude": [1]})).await.1,
        "Invalid parameter 'exclude': expected exchange ids (strings of at most 64 characters)"
    );
    assert!(error(&ts, "reown_getExchanges", json!({"asset": "ETH"})).await.1.starts_with("Invalid parameter 'asset': expected a CAIP-19 asset id"));
    assert_eq!(error(&ts, "reown_nope", json!({})).await, (-32601, "Method not found: reown_nope".to_owned()));
    // Not JSON-RPC at all: still an answer with error.message, never a 500.
    for body in ["not json", "[1,2]", "{\"id\": {}}", "{\"id\": 1}", "{\"method\": \"reown_getExchanges\", \"params\": [1]}"] {
        let res = ts.http.post(ts.api("/v1/json-rpc")).header("content-type", "application/json").body(body).send().await.unwrap();
        assert_eq!(res.status(), 200, "{body}");
        let v: Value = res.json().await.unwrap();
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}: {v}");
    }
    // The project gate as everywhere: error.message is there too for the AppKit client.
    let res =
        ts.http.post(ts.url("/v1/json-rpc?projectId=00000000000000000000000000000000")).json(&json!({"method": "reown_getExchanges"})).send().await.unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(res.json::<Value>().await.unwrap()["error"]["message"], "Invalid Project ID");
    ts.stop().await;

    // Pay off (nothing configured): no exchange.
    let Some(bare) = TestServer::start(backend, &["*"]).await else { return };
    assert_eq!(result(&bare, "reown_getExchanges", json!({"page": 0})).await, json!({"exchanges": [], "total": 0}));
    bare.stop().await;
}

fn address(n: u32) -> String {
    format!("0x{n:040x}")
}

fn pay_params(exchange: &str, asset: &str, amount: &str, recipient: &str) -> Value {
    json!({"exchangeId": exchange, "asset": asset, "amount": amount, "recipient": format!("eip155:31337:{recipient}")})
}

async fn balance(anvil: &Anvil, address: &str) -> u128 {
    let hex = rpc(&anvil.url, "eth_getBalance", json!([address, "latest"])).await;
    u128::from_str_radix(hex.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

async fn send_eth(anvil: &Anvil, to: &str, wei: u128) -> String {
    let hash = rpc(&anvil.url, "eth_sendTransaction", json!([{"from": ACCOUNT0, "to": to, "value": format!("{wei:#x}")}])).await;
    let hash = hash.as_str().unwrap().to_owned();
    receipt(&anvil.url, &hash).await;
    hash
}

async fn status(ts: &TestServer, session: &str, exchange: &str) -> Value {
    result(ts, "reown_getExchangeBuyStatus", json!({"sessionId": session, "exchangeId": exchange})).await
}

async fn deposits(backend: Backend) {
    let anvil = Anvil::start();
    let Some((ts, _dir)) = server(backend, Some(&anvil), |_| {}).await else { return };
    let to = address(0xa11ce);
    let checksummed = sigil_core::evm::checksummed(&to);
    // A head start: the status counts what arrives after the session began.
    send_eth(&anvil, &to, 5).await;

    // The operator's template, filled and encoded, with the session.
    let pay = result(&ts, "reown_getExchangePayUrl", pay_params("acme", ETH, "0.05", &to)).await;
    let session = pay["sessionId"].as_str().unwrap().to_owned();
    assert_eq!(session.len(), 32);
    assert_eq!(
        pay["url"],
        format!("https://acme.example/deposit?to={checksummed}&chain=31337&network=eip155%3A31337&asset=eip155%3A31337%2Fslip44%3A60&amount=0.05&symbol=ETH&ref={session}")
    );
    assert_eq!(status(&ts, &session, "acme").await, json!({"status": "IN_PROGRESS"}));
    // Less than the amount: still in progress.
    send_eth(&anvil, &to, 49_999_999_999_999_999).await;
    assert_eq!(status(&ts, &session, "acme").await, json!({"status": "IN_PROGRESS"}));
    send_eth(&anvil, &to, 1).await;
    assert_eq!(status(&ts, &session, "acme").await, json!({"status": "SUCCESS"}));
    // Final: it stays SUCCESS.
    assert_eq!(status(&ts, &session, "acme").await, json!({"status": "SUCCESS"}));
    // Another exchange's id, or a session never made: unknown.
    assert_eq!(
        error(&ts, "reown_getExchangeBuyStatus", json!({"sessionId": session, "exchangeId": "ex01"})).await,
        (-32602, "Invalid parameter 'sessionId': no such deposit session for this exchange".to_owned())
    );
    assert_eq!(error(&ts, "reown_getExchangeBuyStatus", json!({"sessionId": "f".repeat(32), "exchangeId": "acme"})).await.0, -32602);
    assert_eq!(
        error(&ts, "reown_getExchangeBuyStatus", json!({"sessionId": "../x", "exchangeId": "acme"})).await.1,
        "Invalid parameter 'sessionId': expected a session id (32 hex characters)"
    );
    // Another project's session is not this project's.
    let other = sigil_server::projects::create(&ts.db, "Other", &["*".to_owned()], Default::default()).await.unwrap().id;
    let res = ts
        .http
        .post(ts.url(&format!("/v1/json-rpc?projectId={other}")))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "reown_getExchangeBuyStatus", "params": {"sessionId": session, "exchangeId": "acme"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["error"]["message"], "Invalid parameter 'sessionId': no such deposit session for this exchange");

    // The sandbox exchange: its page, one deposit however many confirmations.
    let to2 = address(0xb0b);
    let pay = result(&ts, "reown_getExchangePayUrl", pay_params("sigil-sandbox", ETH, "1.25", &to2)).await;
    let session2 = pay["sessionId"].as_str().unwrap().to_owned();
    let path = format!("/pay/sandbox/{session2}");
    assert_eq!(pay["url"], format!("http://127.0.0.1:8080{path}"));
    let html = ts.http.get(ts.url(&path)).send().await.unwrap().text().await.unwrap();
    assert!(html.contains("Sigil sandbox exchange") && html.contains("1.25 ETH") && html.contains(&sigil_core::evm::checksummed(&to2)), "{html}");
    assert!(html.contains("<button name=action value=confirm>Confirm deposit</button>") && !html.contains("<script"), "{html}");
    assert_eq!(status(&ts, &session2, "sigil-sandbox").await, json!({"status": "IN_PROGRESS"}));
    let confirms = (0..6).map(|_| async {
        let res = ts.http.post(ts.url(&path)).form(&[("action", "confirm")]).send().await.unwrap();
        (res.status().as_u16(), res.text().await.unwrap())
    });
    let outcomes = futures::future::join_all(confirms).await;
    assert_eq!(outcomes.iter().filter(|(s, _)| *s == 200).count(), 1, "{outcomes:?}");
    assert!(outcomes.iter().filter(|(s, _)| *s != 200).all(|(s, t)| *s == 409 && t.contains("This deposit was already sent")), "{outcomes:?}");
    assert_eq!(balance(&anvil, &to2).await, 1_250_000_000_000_000_000);
    let done = status(&ts, &session2, "sigil-sandbox").await;
    assert_eq!(done["status"], "SUCCESS");
    let hash = done["txHash"].as_str().unwrap();
    let tx = rpc(&anvil.url, "eth_getTransactionByHash", json!([hash])).await;
    assert_eq!(tx["to"].as_str().unwrap().to_lowercase(), to2);
    assert!(outcomes.iter().any(|(_, t)| t.contains("Deposit sent") && t.contains(hash)));

    // Cancelled at the sandbox: FAILED, nothing sent.
    let to3 = address(0xc0c);
    let pay = result(&ts, "reown_getExchangePayUrl", pay_params("sigil-sandbox", ETH, "1", &to3)).await;
    let session3 = pay["sessionId"].as_str().unwrap().to_owned();
    let res = ts.http.post(ts.url(&format!("/pay/sandbox/{session3}"))).form(&[("action", "cancel")]).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(status(&ts, &session3, "sigil-sandbox").await, json!({"status": "FAILED"}));
    let res = ts.http.post(ts.url(&format!("/pay/sandbox/{session3}"))).form(&[("action", "confirm")]).send().await.unwrap();
    assert_eq!(res.status(), 409);
    assert_eq!(balance(&anvil, &to3).await, 0);

    // Expired with nothing arrived: FAILED.
    let now = sigil_server::db::now_ms();
    let expired = sigil_server::pay::store::PaySession {
        id: "e".repeat(32),
        project_id: ts.project.clone(),
        exchange_id: "acme".into(),
        network: "eip155:31337".into(),
        asset: ETH.into(),
        amount: "1".into(),
        amount_units: "1000000000000000000".into(),
        recipient: sigil_core::evm::checksummed(&address(0xd0d)),
        start_balance: "0".into(),
        status: "IN_PROGRESS".into(),
        deposit: None,
        tx_hash: None,
        created_at: now - 3_600_000,
        expires_at: now - 1_000,
        updated_at: now - 3_600_000,
    };
    expired.insert(&ts.db).await.unwrap();
    assert_eq!(status(&ts, &expired.id, "acme").await, json!({"status": "FAILED"}));

    // Expired while the sandbox's transfer (confirmed in time) is still being mined: not failed
    // by the expiry; its recorded outcome decides, SUCCESS with its hash once sent.
    let sending = sigil_server::pay::store::PaySession {
        id: "f".repeat(32),
        exchange_id: "sigil-sandbox".into(),
        recipient: sigil_core::evm::checksummed(&address(0xd0e)),
        deposit: Some("sending".into()),
        ..expired.clone()
    };
    sending.insert(&ts.db).await.unwrap();
    assert_eq!(status(&ts, &sending.id, "sigil-sandbox").await, json!({"status": "IN_PROGRESS"}));
    let hash = format!("0x{}", "ab".repeat(32));
    sigil_server::pay::store::PaySession::deposit_done(&ts.db, &sending.id, "sent", Some(&hash), now).await.unwrap();
    assert_eq!(status(&ts, &sending.id, "sigil-sandbox").await, json!({"status": "SUCCESS", "txHash": hash}));
    // One whose send never recorded an outcome (the server stopped meanwhile) fails after the grace.
    let stuck = sigil_server::pay::store::PaySession {
        id: "9".repeat(32),
        recipient: sigil_core::evm::checksummed(&address(0xd0f)),
        expires_at: now - 60_000,
        ..sending.clone()
    };
    stuck.insert(&ts.db).await.unwrap();
    assert_eq!(status(&ts, &stuck.id, "sigil-sandbox").await, json!({"status": "FAILED"}));
    ts.stop().await;
}

async fn token_deposit(backend: Backend) {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let sgl = deployed["tokens"].as_array().unwrap().iter().find(|t| t["symbol"] == "SGL").unwrap()["address"].as_str().unwrap().to_lowercase();
    let Some((ts, _dir)) = server(backend, None, |c| {
        let mut chains = sigil_server::chains::Chains::built_in();
        chains.apply_deployment(&deployed.to_string()).unwrap();
        c.chains = chains;
    })
    .await
    else {
        return;
    };
    let to = address(0x70c);
    let asset = format!("eip155:31337/erc20:{sgl}");
    // Six decimals more than SGL's 18 allow, then a token not in the chain's list.
    assert_eq!(
        error(&ts, "reown_getExchangePayUrl", pay_params("acme", &asset, "0.0000000000000000001", &to)).await.1,
        "Invalid parameter 'amount': at most 18 decimals"
    );
    assert_eq!(
        error(&ts, "reown_getExchangePayUrl", pay_params("acme", "eip155:31337/erc20:0x000000000000000000000000000000000000dead", "1", &to)).await.1,
        "Invalid parameter 'asset': 0x000000000000000000000000000000000000dead is not supported on Sigil Dev (not a token of its list)"
    );
    let pay = result(
        &ts,
        "reown_getExchangePayUrl",
        pay_params("acme", &asset.to_uppercase().replace("EIP155", "eip155").replace("ERC20:0X", "erc20:0x"), "2.5", &to),
    )
    .await;
    let session = pay["sessionId"].as_str().unwrap().to_owned();
    assert!(pay["url"].as_str().unwrap().contains(&format!("asset=eip155%3A31337%2Ferc20%3A{sgl}&amount=2.5&symbol=SGL")), "{pay}");
    assert_eq!(status(&ts, &session, "acme").await, json!({"status": "IN_PROGRESS"}));
    // 2.5 SGL from the deployer (account 0): transfer(to, 2.5e18).
    let data = format!("0xa9059cbb{:0>64}{:0>64x}", to.trim_start_matches("0x"), 2_500_000_000_000_000_000u128);
    let hash = rpc(&anvil.url, "eth_sendTransaction", json!([{"from": ACCOUNT0, "to": sgl, "data": data}])).await;
    assert_eq!(receipt(&anvil.url, hash.as_str().unwrap()).await["status"], "0x1");
    assert_eq!(status(&ts, &session, "acme").await, json!({"status": "SUCCESS"}));
    ts.stop().await;
}

async fn validation(backend: Backend) {
    let anvil = Anvil::start();
    let Some((ts, _dir)) = server(backend, Some(&anvil), |_| {}).await else { return };
    let to = address(0x123);
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "Invalid parameter 'exchangeId': required, e.g. an id from reown_getExchanges"),
        (
            json!({"exchangeId": "nope", "asset": ETH, "amount": "1", "recipient": format!("eip155:31337:{to}")}),
            "Invalid parameter 'exchangeId': no exchange 'nope'",
        ),
        (json!({"exchangeId": 5}), "Invalid parameter 'exchangeId': expected a string"),
        (
            pay_params("acme", "ETH", "1", &to),
            "Invalid parameter 'asset': expected a CAIP-19 asset id such as eip155:1/slip44:60 (the coin) or eip155:1/erc20:0x… (a token)",
        ),
        (pay_params("acme", "eip155:999/slip44:60", "1", &to), "Invalid parameter 'asset': network eip155:999 is not supported by this server"),
        (
            pay_params("acme", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/slip44:501", "1", &to),
            "Invalid parameter 'asset': only EVM (eip155) assets can be deposited",
        ),
        (pay_params("mainnet-only", ETH, "1", &to), "Invalid parameter 'asset': eip155:31337/slip44:60 is not supported by Mainnet Only"),
        (pay_params("acme", ETH, "", &to), "Invalid parameter 'amount': expected a decimal number such as 0.05"),
        (pay_params("acme", ETH, "-1", &to), "Invalid parameter 'amount': expected a decimal number such as 0.05"),
        (pay_params("acme", ETH, "1e-19", &to), "Invalid parameter 'amount': at most 18 decimals"),
        (pay_params("acme", ETH, "0x10", &to), "Invalid parameter 'amount': expected a decimal number such as 0.05"),
        (pay_params("acme", ETH, "0.000", &to), "Invalid parameter 'amount': must be above 0"),
        (pay_params("acme", ETH, &"9".repeat(90), &to), "Invalid parameter 'amount': expected a decimal number such as 0.05"),
        (pay_params("acme", ETH, &"9".repeat(79), &to), "Invalid parameter 'amount': too large"),
        (
            json!({"exchangeId": "acme", "asset": ETH, "amount": true, "recipient": format!("eip155:31337:{to}")}),
            "Invalid parameter 'amount': expected a decimal string such as \"0.05\"",
        ),
        (
            json!({"exchangeId": "acme", "asset": ETH, "amount": "1", "recipient": to}),
            "Invalid parameter 'recipient': expected a CAIP-10 account id such as eip155:1:0x…",
        ),
        (
            json!({"exchangeId": "acme", "asset": ETH, "amount": "1", "recipient": format!("eip155:1:{to}")}),
            "Invalid parameter 'recipient': must be on the asset's network eip155:31337",
        ),
        (
            json!({"exchangeId": "acme", "asset": ETH, "amount": "1", "recipient": "eip155:31337:0x12"}),
            "Invalid parameter 'recipient': expected an EVM address: 0x and 40 hex characters",
        ),
        (json!({"exchangeId": "acme", "asset": ETH, "amount": "1"}), "Invalid parameter 'recipient': required, e.g. eip155:1:0x…"),
    ];
    for (params, message) in cases {
        assert_eq!(error(&ts, "reown_getExchangePayUrl", params.clone()).await, (-32602, message.to_owned()), "{params}");
    }
    // A number amount is read as written.
    let pay =
        result(&ts, "reown_getExchangePayUrl", json!({"exchangeId": "acme", "asset": ETH, "amount": 0.5, "recipient": format!("eip155:31337:{to}")})).await;
    assert!(pay["url"].as_str().unwrap().contains("&amount=0.5&"));
    // As the AppKit client writes a small amount (Number(amount).toString()).
    let pay = result(&ts, "reown_getExchangePayUrl", pay_params("acme", ETH, "1e-7", &to)).await;
    assert!(pay["url"].as_str().unwrap().contains("&amount=0.0000001&"), "{pay}");
    // Nothing was stored for the refused ones.
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pay_sessions").fetch_one(&ts.db).await.unwrap();
    assert_eq!(count, 2);
    assert_eq!(
        error(&ts, "reown_getExchangeBuyStatus", json!({"exchangeId": "acme"})).await.1,
        "Invalid parameter 'sessionId': required, e.g. the sessionId of reown_getExchangePayUrl"
    );
    ts.stop().await;
}

async fn limit_under_concurrency(backend: Backend) {
    let anvil = Anvil::start();
    let Some((ts, _dir)) = server(backend, Some(&anvil), |c| {
        c.settings.pay.sessions_per_hour = 5;
        c.settings.auth.writes_per_minute = 1000;
    })
    .await
    else {
        return;
    };
    let calls = (0..24).map(|i| call(&ts, "reown_getExchangePayUrl", pay_params("acme", ETH, "1", &address(0x500 + i))));
    let outcomes = futures::future::join_all(calls).await;
    let ok = outcomes.iter().filter(|(_, b)| b.get("result").is_some()).count();
    assert_eq!(ok, 5, "{outcomes:?}");
    for (status, body) in outcomes.iter().filter(|(_, b)| b.get("result").is_none()) {
        assert_eq!(*status, 200);
        assert_eq!(body["error"], json!({"code": -32005, "message": "This project started its 5 deposits of this hour; try again later"}));
    }
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pay_sessions").fetch_one(&ts.db).await.unwrap();
    assert_eq!(count, 5);
    // Another project has its own.
    let other = sigil_server::projects::create(&ts.db, "Other", &["*".to_owned()], Default::default()).await.unwrap().id;
    let res = ts
        .http
        .post(ts.url(&format!("/v1/json-rpc?projectId={other}")))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "reown_getExchangePayUrl", "params": pay_params("acme", ETH, "1", &address(0x999))}))
        .send()
        .await
        .unwrap();
    assert!(res.json::<Value>().await.unwrap()["result"]["sessionId"].is_string());
    ts.stop().await;
}

async fn open_count(ts: &TestServer, recipient: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM pay_sessions WHERE recipient = $1 AND status = 'IN_PROGRESS'")
        .bind(sigil_core::evm::checksummed(recipient))
        .fetch_one(&ts.db)
        .await
        .unwrap()
}

async fn one_open_session(backend: Backend) {
    let anvil = Anvil::start();
    let Some((ts, _dir)) = server(backend, Some(&anvil), |c| {
        c.settings.pay.sessions_per_hour = 1000;
        c.settings.auth.writes_per_minute = 1000;
    })
    .await
    else {
        return;
    };
    let session = |pay: Value| pay["sessionId"].as_str().unwrap().to_owned();
    let to = address(0xfee);
    let other = address(0xf00);
    let first = session(result(&ts, "reown_getExchangePayUrl", pay_params("acme", ETH, "0.05", &to)).await);
    let elsewhere = session(result(&ts, "reown_getExchangePayUrl", pay_params("acme", ETH, "0.05", &other)).await);
    assert_eq!(status(&ts, &first, "acme").await, json!({"status": "IN_PROGRESS"}));
    // A second session for the same recipient and asset: the first is FAILED at once.
    let second = session(result(&ts, "reown_getExchangePayUrl", pay_params("ex01", ETH, "0.05", &to)).await);
    assert_eq!(status(&ts, &first, "acme").await, json!({"status": "FAILED"}));
    assert_eq!(status(&ts, &second, "ex01").await, json!({"status": "IN_PROGRESS"}));
    // Another recipient's session is its own.
    assert_eq!(status(&ts, &elsewhere, "acme").await, json!({"status": "IN_PROGRESS"}));
    // One deposit of the amount: only the second is SUCCESS.
    send_eth(&anvil, &to, 50_000_000_000_000_000).await;
    assert_eq!(status(&ts, &second, "ex01").await, json!({"status": "SUCCESS"}));
    assert_eq!(status(&ts, &first, "acme").await, json!({"status": "FAILED"}));
    assert_eq!(status(&ts, &elsewhere, "acme").await, json!({"status": "IN_PROGRESS"}));
    send_eth(&anvil, &other, 50_000_000_000_000_000).await;
    assert_eq!(status(&ts, &elsewhere, "acme").await, json!({"status": "SUCCESS"}));
    // A final session is not superseded: a new one for the same pair leaves it SUCCESS.
    let third = session(result(&ts, "reown_getExchangePayUrl", pay_params("acme", ETH, "0.05", &to)).await);
    assert_eq!(status(&ts, &second, "ex01").await, json!({"status": "SUCCESS"}));
    assert_eq!(status(&ts, &third, "acme").await, json!({"status": "IN_PROGRESS"}));

    // The sandbox: a superseded session cannot be confirmed any more.
    let to_sandbox = address(0xfab);
    let old = session(result(&ts, "reown_getExchangePayUrl", pay_params("sigil-sandbox", ETH, "1", &to_sandbox)).await);
    let new = session(result(&ts, "reown_getExchangePayUrl", pay_params("sigil-sandbox", ETH, "1", &to_sandbox)).await);
    let res = ts.http.post(ts.url(&format!("/pay/sandbox/{old}"))).form(&[("action", "confirm")]).send().await.unwrap();
    assert_eq!(res.status(), 410);
    assert_eq!(balance(&anvil, &to_sandbox).await, 0);
    assert_eq!(status(&ts, &old, "sigil-sandbox").await, json!({"status": "FAILED"}));
    assert_eq!(status(&ts, &new, "sigil-sandbox").await, json!({"status": "IN_PROGRESS"}));

    // The index itself refuses a second open session for the pair.
    let now = sigil_server::db::now_ms();
    let mut twin = sigil_server::pay::store::PaySession::get(&ts.db, &new).await.unwrap().unwrap();
    twin.id = "a".repeat(32);
    twin.created_at = now;
    let refused = twin.insert(&ts.db).await.unwrap_err();
    assert!(sigil_server::pay::store::is_unique_violation(&refused), "{refused}");

    // Many creations at once for one pair: exactly one stays open; the others are superseded
    // or refused with a clear error.
    let crowded = address(0xc0ffee);
    let calls = (0..12).map(|_| call(&ts, "reown_getExchangePayUrl", pay_params("acme", ETH, "0.05", &crowded)));
    let outcomes = futures::future::join_all(calls).await;
    let mut made = Vec::new();
    for (code, body) in &outcomes {
        assert_eq!(*code, 200);
        match body.get("result") {
            Some(r) => made.push(r["sessionId"].as_str().unwrap().to_owned()),
            None => {
                assert_eq!(body["error"], json!({"code": -32005, "message": "A deposit to this address is already being started; try again"}), "{outcomes:?}")
            }
        }
    }
    assert!(!made.is_empty(), "{outcomes:?}");
    assert_eq!(open_count(&ts, &crowded).await, 1);
    let mut open = 0;
    for id in &made {
        if status(&ts, id, "acme").await["status"] == "IN_PROGRESS" {
            open += 1;
        }
    }
    assert_eq!(open, 1, "{made:?}");
    assert_eq!(open_count(&ts, &to).await, 1);
    ts.stop().await;
}

both_backends!(listing, deposits, token_deposit, validation, limit_under_concurrency, one_open_session);
