//! Transaction history against a real anvil, on SQLite and PostgreSQL: the API's shape and
//! values, paging, spam, a server stopped mid-index and restarted, a reorganisation, and two
//! processes sharing one database (one indexes, the other takes over when it stops).

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use alloy_dyn_abi::DynSolValue;
use alloy_primitives::U256;
use common::{chain_with, deploy_devchain, fresh_database, receipt, rpc, Anvil, Backend};
use serde_json::{json, Value};
use sigil_server::chains::Chains;
use sigil_server::config::Config;
use sigil_server::projects::{self, Features};
use sigil_server::{db, AppState, RunningServer};
use sqlx::Row;

const DEV: &str = "eip155:31337";
const ACCOUNT0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
/// anvil's accounts 5, 6 and 9: the account whose history is read, its counterparty, and an
/// address poisoner. The deployment uses accounts 0..3 only.
const ME: &str = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const YOU: &str = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const POISONER: &str = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

/// Sends a transaction from one of anvil's unlocked accounts; its hash, once mined. anvil mines
/// each at once, but its receipt may follow the answer: waiting also keeps one per block.
async fn send(anvil: &str, tx: Value) -> String {
    let hash = rpc(anvil, "eth_sendTransaction", json!([tx])).await.as_str().unwrap().to_lowercase();
    receipt(anvil, &hash).await;
    hash
}

async fn pay(anvil: &str, from: &str, to: &str, wei: u128) -> String {
    send(anvil, json!({"from": from, "to": to, "value": format!("{wei:#x}")})).await
}

fn word_address(a: &str) -> String {
    format!("{:0>64}", a.trim_start_matches("0x").to_lowercase())
}

fn erc20_call(selector: &str, to: &str, amount: U256) -> String {
    format!("0x{selector}{}{amount:064x}", word_address(to))
}

async fn token_transfer(anvil: &str, token: &str, from: &str, to: &str, amount: U256) -> String {
    send(anvil, json!({"from": from, "to": token, "data": erc20_call("a9059cbb", to, amount)})).await
}

fn units(whole: u64, decimals: u8) -> U256 {
    U256::from(whole) * U256::from(10u64).pow(U256::from(decimals))
}

/// Deploys another SigilToken (devchain/build, built by the deployment) as `from`.
async fn deploy_token(anvil: &str, from: &str, name: &str, symbol: &str, decimals: u8) -> String {
    deploy_token_tx(anvil, from, name, symbol, decimals).await.0
}

/// `deploy_token`, and the hash of the transaction that created it.
async fn deploy_token_tx(anvil: &str, from: &str, name: &str, symbol: &str, decimals: u8) -> (String, String) {
    let artifact: Value = serde_json::from_str(&std::fs::read_to_string(common::repo_root().join("devchain/build/SigilToken.json")).unwrap()).unwrap();
    let args = DynSolValue::Tuple(vec![
        DynSolValue::String(name.into()),
        DynSolValue::String(symbol.into()),
        DynSolValue::Uint(U256::from(decimals), 8),
        DynSolValue::Uint(units(1_000_000, decimals), 256),
    ])
    .abi_encode_params();
    let data = format!("{}{}", artifact["bytecode"].as_str().unwrap(), alloy_primitives::hex::encode(args));
    let hash = send(anvil, json!({"from": from, "data": data})).await;
    (receipt(anvil, &hash).await["contractAddress"].as_str().unwrap().to_owned(), hash)
}

/// A server on an existing database (several may share one).
struct Node {
    server: RunningServer,
    base: String,
    instance: String,
}

fn indexed_chains(anvil: &str) -> Chains {
    let mut chains = chain_with(&[anvil], true);
    chains.by_id.get_mut(DEV).unwrap().history.from_block = Some(0);
    chains
}

fn history_config(url: &str, chains: Chains) -> Config {
    let mut config = Config::for_database(url);
    config.chains = chains;
    config.settings.history.enabled = true;
    config.settings.history.poll_interval = Duration::from_millis(100);
    config.settings.history.lease = Duration::from_secs(2);
    config.rpc.probe_interval = Duration::from_secs(3600);
    config
}

async fn start_node(db: &db::Db, config: Config) -> Node {
    let state = AppState::new(db.clone(), config);
    let instance = state.instance.clone();
    let server = sigil_server::start(state, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    Node { base: format!("http://{}", server.addr), server, instance }
}

/// A fresh database with one project; None when this backend is not configured.
async fn database(backend: Backend, dir: &tempfile::TempDir) -> Option<(String, db::Db, String)> {
    let url = fresh_database(backend, dir).await?;
    let db = db::connect(&url).await.unwrap();
    let project = projects::create(&db, "History", &["*".to_owned()], Features::default()).await.unwrap().id;
    Some((url, db, project))
}

async fn get(url: &str) -> (u16, Value) {
    let res = reqwest::get(url).await.unwrap();
    (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
}

fn history_url(base: &str, project: &str, address: &str, extra: &str) -> String {
    format!("{base}/v1/account/{address}/history?projectId={project}&chainId={DEV}{extra}")
}

/// Every page of an address's history, following `next`.
async fn all_pages(base: &str, project: &str, address: &str, include_spam: bool) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut pages = 0;
    let mut cursor: Option<String> = None;
    loop {
        let mut extra = String::new();
        if include_spam {
            extra.push_str("&includeSpam=true");
        }
        if let Some(c) = &cursor {
            extra.push_str(&format!("&cursor={c}"));
        }
        let (status, body) = get(&history_url(base, project, address, &extra)).await;
        assert_eq!(status, 200, "{body}");
        pages += 1;
        let data = body["data"].as_array().unwrap();
        assert!(data.len() <= 20);
        items.extend(data.iter().cloned());
        match body["next"].as_str() {
            Some(next) => {
                assert_eq!(data.len(), 20, "only a full page has a next");
                cursor = Some(next.to_owned());
            }
            None => return (items, pages),
        }
    }
}

fn hashes(items: &[Value]) -> Vec<String> {
    items.iter().map(|i| i["metadata"]["hash"].as_str().unwrap().to_owned()).collect()
}

/// Waits until `address`'s history (spam included) has exactly `want`, newest first.
async fn wait_for_history(base: &str, project: &str, address: &str, want: &[String]) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (items, _) = all_pages(base, project, address, true).await;
        if hashes(&items) == want {
            return items;
        }
        assert!(Instant::now() < deadline, "history of {address} is {:?}, want {want:?}", hashes(&items));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn count(db: &db::Db, sql: &str) -> i64 {
    sqlx::query(sql).fetch_one(db).await.unwrap().try_get::<i64, _>(0).unwrap()
}

async fn api_shape_values_spam_and_paging(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, db, project)) = database(backend, &dir).await else { return };
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let sgl = deployed["tokens"].as_array().unwrap().iter().find(|t| t["symbol"] == "SGL").unwrap()["address"].as_str().unwrap().to_lowercase();
    // A token named like the listed USDC, from someone else: a lookalike.
    let fake_usdc = deploy_token(&anvil.url, POISONER, "USD Coin", "USDC", 6).await;

    let a = &anvil.url;
    let mut mine = vec![
        pay(a, ACCOUNT0, ME, 1_500_000_000_000_000_000).await,
        token_transfer(a, &sgl, ACCOUNT0, ME, units(250, 18)).await,
        pay(a, ME, YOU, 250_000_000_000_000_000).await,
        token_transfer(a, &sgl, ME, YOU, units(1005, 17)).await,
        send(a, json!({"from": ME, "to": sgl, "data": erc20_call("095ea7b3", YOU, units(1, 18))})).await,
    ];
    let zero_value = token_transfer(a, &sgl, POISONER, ME, U256::ZERO).await;
    let lookalike = token_transfer(a, &fake_usdc, POISONER, ME, units(5, 6)).await;

    let mut chains = indexed_chains(a);
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let mut config = history_config(&url, chains);
    config.settings.history.batch_blocks = 7;
    let node = start_node(&db, config).await;

    // After the start: a reverted call (its gas given, so anvil mines it) and 22 payments.
    let failed = send(a, json!({"from": ME, "to": sgl, "gas": "0x30000", "data": erc20_call("a9059cbb", YOU, units(1_000_000, 18))})).await;
    assert_eq!(receipt(a, &failed).await["status"], "0x0");
    mine.push(failed.clone());
    for i in 0..22u128 {
        mine.push(pay(a, ME, YOU, 1_000_000_000_000 + i).await);
    }
    let mut everything = mine.clone();
    everything.extend([zero_value.clone(), lookalike.clone()]);
    // Newest first: blocks follow the order sent (anvil mines each at once).
    let order = |mut hashes: Vec<String>, all: &[String]| {
        hashes.sort_by_key(|h| std::cmp::Reverse(all.iter().position(|x| x == h)));
        hashes
    };
    let sent_order: Vec<String> = [&mine[..5], &[zero_value.clone(), lookalike.clone()], &mine[5..]].concat();
    let want_all = order(everything.clone(), &sent_order);
    let with_spam = wait_for_history(&node.base, &project, ME, &want_all).await;

    // Spam is left out by default, and pages stay full: 28 items in pages of 20 and 8.
    let (items, pages) = all_pages(&node.base, &project, ME, false).await;
    assert_eq!(hashes(&items), order(mine.clone(), &sent_order));
    assert_eq!((items.len(), pages), (28, 2));
    let distinct: BTreeSet<String> = hashes(&items).into_iter().collect();
    assert_eq!(distinct.len(), 28, "no duplicate across pages");
    // The address in another case gives the same history.
    let (lower, _) = all_pages(&node.base, &project, &ME.to_lowercase(), false).await;
    assert_eq!(hashes(&lower), hashes(&items));

    let by_hash = |h: &str| with_spam.iter().find(|i| i["metadata"]["hash"] == h).unwrap().clone();
    let tx0 = rpc(a, "eth_getTransactionByHash", json!([mine[0]])).await;
    let block0 = rpc(a, "eth_getBlockByNumber", json!([tx0["blockNumber"], false])).await;
    let nonce0 = u64::from_str_radix(tx0["nonce"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let secs = i64::from_str_radix(block0["timestamp"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let received = by_hash(&mine[0]);
    assert_eq!(received["id"], format!("{DEV}:{}", mine[0]));
    assert_eq!(received["metadata"]["minedAt"], sigil_server::history::routes::rfc3339(secs));
    assert_eq!(
        received["metadata"],
        json!({
            "minedAt": sigil_server::history::routes::rfc3339(secs), "chain": DEV, "status": "confirmed", "operationType": "receive",
            "sentFrom": ACCOUNT0, "sentTo": ME, "hash": mine[0], "nonce": nonce0, "spam": null
        })
    );
    let public_url = Config::for_database(&url).public_url;
    assert_eq!(
        received["transfers"],
        json!([{"fungible_info": {"name": "Ether", "symbol": "ETH", "icon": {"url": format!("{public_url}/public/getTokenImage/ETH?projectId={project}")}},
            "direction": "in", "quantity": {"numeric": "1.5"}, "value": 0.0, "price": 0.0, "sender": ACCOUNT0, "recipient": ME}])
    );
    let got_sgl = by_hash(&mine[1]);
    assert_eq!((got_sgl["metadata"]["operationType"].as_str(), got_sgl["metadata"]["sentTo"].as_str()), (Some("receive"), Some(checksum(&sgl).as_str())));
    assert_eq!(got_sgl["transfers"][0]["fungible_info"]["symbol"], "SGL");
    assert_eq!(got_sgl["transfers"][0]["fungible_info"]["name"], "Sigil");
    assert_eq!((got_sgl["transfers"][0]["direction"].as_str(), got_sgl["transfers"][0]["quantity"]["numeric"].as_str()), (Some("in"), Some("250")));
    let paid = by_hash(&mine[2]);
    assert_eq!(paid["metadata"]["operationType"], "send");
    assert_eq!((paid["transfers"][0]["direction"].as_str(), paid["transfers"][0]["quantity"]["numeric"].as_str()), (Some("out"), Some("0.25")));
    let sent_sgl = by_hash(&mine[3]);
    assert_eq!(sent_sgl["metadata"]["operationType"], "send");
    assert_eq!(sent_sgl["transfers"].as_array().unwrap().len(), 1);
    assert_eq!((sent_sgl["transfers"][0]["direction"].as_str(), sent_sgl["transfers"][0]["quantity"]["numeric"].as_str()), (Some("out"), Some("100.5")));
    // The token's receiver, which the transaction's sentTo (the token contract) does not name.
    assert_eq!((sent_sgl["transfers"][0]["sender"].as_str(), sent_sgl["metadata"]["sentTo"].as_str()), (Some(ME), Some(checksum(&sgl).as_str())));
    assert_eq!(sent_sgl["transfers"][0]["recipient"].as_str(), Some(YOU));
    let approved = by_hash(&mine[4]);
    assert_eq!((approved["metadata"]["operationType"].as_str(), approved["transfers"].clone()), (Some("approve"), json!([])));
    let reverted = by_hash(&failed);
    assert_eq!((reverted["metadata"]["status"].as_str(), reverted["metadata"]["operationType"].as_str()), (Some("failed"), Some("execute")));
    assert_eq!(reverted["transfers"], json!([]));
    let poisoned = by_hash(&zero_value);
    assert_eq!(poisoned["metadata"]["spam"], json!({"reason": "zero-value"}));
    assert_eq!((poisoned["transfers"][0]["quantity"]["numeric"].as_str(), poisoned["metadata"]["sentFrom"].as_str()), (Some("0"), Some(POISONER)));
    let fake = by_hash(&lookalike);
    assert_eq!(fake["metadata"]["spam"], json!({"reason": "lookalike"}));
    assert_eq!((fake["transfers"][0]["fungible_info"]["symbol"].as_str(), fake["transfers"][0]["quantity"]["numeric"].as_str()), (Some("USDC"), Some("5")));
    // A token outside the chain's list gets no icon: not the listed USDC's logo by its symbol.
    assert_eq!(fake["transfers"][0]["fungible_info"]["icon"]["url"], "");
    let sgl_icon = got_sgl["transfers"][0]["fungible_info"]["icon"]["url"].as_str().unwrap();
    assert!(sgl_icon.starts_with("http") && !sgl_icon.ends_with("/USDC"), "a listed token keeps its icon: {sgl_icon}");
    // The poisoner's own history shows its transactions as they are, not as spam.
    let (theirs, _) = all_pages(&node.base, &project, POISONER, false).await;
    assert!(hashes(&theirs).contains(&zero_value) && hashes(&theirs).contains(&lookalike));
    // The counterparty sees the payments as received.
    let (yours, _) = all_pages(&node.base, &project, YOU, false).await;
    let last = yours.iter().find(|i| i["metadata"]["hash"] == mine[mine.len() - 1]).unwrap();
    assert_eq!((last["metadata"]["operationType"].as_str(), last["transfers"][0]["direction"].as_str()), (Some("receive"), Some("in")));

    // The deployment minted badges #1 and #2 (ERC-721) and 5 of item 1 (ERC-1155) to account 1.
    let nfts = &deployed["nfts"];
    let account1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    let (theirs, _) = all_pages(&node.base, &project, account1, false).await;
    let mints: Vec<(String, String)> = theirs
        .iter()
        .filter(|i| i["metadata"]["operationType"] == "mint")
        .flat_map(|i| i["transfers"].as_array().unwrap().clone())
        .map(|t| (t["nft_info"]["name"].as_str().unwrap_or("").to_owned(), t["quantity"]["numeric"].as_str().unwrap().to_owned()))
        .collect();
    let badge = nfts["erc721"]["name"].as_str().unwrap();
    assert_eq!(mints.len(), 3, "{mints:?}");
    assert!(mints.contains(&(format!("{badge} #2"), "1".into())) && mints.contains(&(format!("{badge} #1"), "1".into())), "{mints:?}");
    assert!(mints.iter().any(|(name, n)| name.ends_with("#1") && n == "5"), "{mints:?}");
    assert!(theirs.iter().filter(|i| i["metadata"]["operationType"] == "mint").all(|i| i["transfers"][0]["direction"] == "in"));

    // Bad input is a clear 400; a chain that is not indexed has no history.
    let (status, body) = get(&history_url(&node.base, &project, "0x12", "")).await;
    assert_eq!(status, 400);
    assert!(body.to_string().contains("'address'"), "{body}");
    let (status, body) = get(&format!("{}/v1/account/{ME}/history?projectId={project}", node.base)).await;
    assert_eq!(status, 400);
    assert!(body.to_string().contains("'chainId'"), "{body}");
    for bad in ["!!", "MTIz", "LTEuMg"] {
        let (status, body) = get(&history_url(&node.base, &project, ME, &format!("&cursor={bad}"))).await;
        assert_eq!(status, 400, "{bad}");
        assert!(body.to_string().contains("'cursor'"), "{body}");
    }
    let (status, body) = get(&format!("{}/v1/account/{ME}/history?projectId={project}&chainId=eip155:999", node.base)).await;
    assert_eq!((status, body), (200, json!({"data": [], "next": null})));
    node.server.stop().await.unwrap();

    // History turned off: nothing is shown, though the index holds ME's transactions.
    let mut config = history_config(&url, indexed_chains(a));
    config.settings.history.enabled = false;
    let off = start_node(&db, config).await;
    let (status, body) = get(&history_url(&off.base, &project, ME, "")).await;
    assert_eq!((status, body), (200, json!({"data": [], "next": null})));
    off.server.stop().await.unwrap();
}

fn checksum(address: &str) -> String {
    address.parse::<alloy_primitives::Address>().unwrap().to_checksum(None)
}

async fn next_block(db: &db::Db) -> i64 {
    sqlx::query("SELECT next_block FROM history_cursors WHERE chain = 'eip155:31337'")
        .fetch_optional(db)
        .await
        .unwrap()
        .map_or(0, |r| r.try_get::<i64, _>("next_block").unwrap())
}

async fn resumes_after_a_stop_with_nothing_lost_or_doubled(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, db, project)) = database(backend, &dir).await else { return };
    let anvil = Anvil::start();
    let a = &anvil.url;
    // 240 payments to ME among 720 blocks (two empty blocks after each).
    let mut sent = Vec::new();
    for i in 0..240u128 {
        sent.push(pay(a, ACCOUNT0, ME, 1_000 + i).await);
        rpc(a, "anvil_mine", json!(["0x2"])).await;
    }
    sent.reverse();
    let mut config = history_config(&url, indexed_chains(a));
    config.settings.history.batch_blocks = 4;
    let node = start_node(&db, config.clone()).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while next_block(&db).await < 100 {
        assert!(Instant::now() < deadline, "the indexer did not start");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    node.server.stop().await.unwrap();
    let stopped_at = next_block(&db).await;
    assert!(stopped_at < 700, "stopped mid-index, at {stopped_at}");
    // What was written is whole: every transaction below the cursor, none above.
    let below = count(&db, &format!("SELECT COUNT(*) FROM history_txs WHERE block < {stopped_at}")).await;
    let above = count(&db, &format!("SELECT COUNT(*) FROM history_txs WHERE block >= {stopped_at}")).await;
    assert_eq!((below, above), (((stopped_at - 1 + 2) / 3), 0), "one payment every three blocks, from block 1");

    let node = start_node(&db, config).await;
    let items = wait_for_history(&node.base, &project, ME, &sent).await;
    assert_eq!(items.len(), 240);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM history_txs").await, 240);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM history_transfers").await, 240);
    assert_eq!(count(&db, &format!("SELECT COUNT(*) FROM history_appearances WHERE address = '{}'", ME.to_lowercase())).await, 240);
    let amounts: BTreeSet<String> = items.iter().map(|i| i["transfers"][0]["quantity"]["numeric"].as_str().unwrap().to_owned()).collect();
    assert_eq!(amounts.len(), 240, "each payment once, with its own amount");
    node.server.stop().await.unwrap();
}

async fn follows_a_reorganisation(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, db, project)) = database(backend, &dir).await else { return };
    let anvil = Anvil::start();
    let a = &anvil.url;
    let kept = pay(a, ACCOUNT0, ME, 1).await;
    let snapshot = rpc(a, "evm_snapshot", json!([])).await;
    let dropped = [pay(a, ACCOUNT0, ME, 2).await, pay(a, YOU, ME, 3).await];
    let node = start_node(&db, history_config(&url, indexed_chains(a))).await;
    wait_for_history(&node.base, &project, ME, &[dropped[1].clone(), dropped[0].clone(), kept.clone()]).await;

    // The chain goes back to the snapshot and grows another way, longer than before.
    assert_eq!(rpc(a, "evm_revert", json!([snapshot])).await, json!(true));
    let elsewhere = pay(a, ACCOUNT0, YOU, 4).await;
    let new = pay(a, YOU, ME, 5).await;
    rpc(a, "anvil_mine", json!(["0x2"])).await;
    let items = wait_for_history(&node.base, &project, ME, &[new.clone(), kept.clone()]).await;
    assert_eq!(items[0]["transfers"][0]["quantity"]["numeric"], "0.000000000000000005");
    for gone in &dropped {
        assert_eq!(count(&db, &format!("SELECT COUNT(*) FROM history_txs WHERE hash = '{gone}'")).await, 0);
        assert_eq!(count(&db, &format!("SELECT COUNT(*) FROM history_appearances WHERE hash = '{gone}'")).await, 0);
        assert_eq!(count(&db, &format!("SELECT COUNT(*) FROM history_transfers WHERE hash = '{gone}'")).await, 0);
    }
    wait_for_history(&node.base, &project, YOU, &[new, elsewhere]).await;
    // The kept block hashes are the node's.
    let head = rpc(a, "eth_getBlockByNumber", json!(["latest", false])).await;
    let stored: String = sqlx::query("SELECT hash FROM history_blocks WHERE number = (SELECT MAX(number) FROM history_blocks)")
        .fetch_one(&db)
        .await
        .unwrap()
        .try_get("hash")
        .unwrap();
    assert_eq!(stored, head["hash"].as_str().unwrap());
    node.server.stop().await.unwrap();
}

async fn lease_holder(db: &db::Db) -> Option<String> {
    sigil_server::history::store::lease_holder(db, DEV, db::now_ms()).await.unwrap()
}

async fn one_indexer_per_chain_and_a_takeover(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, db, project)) = database(backend, &dir).await else { return };
    let anvil = Anvil::start();
    let a = &anvil.url;
    let first = pay(a, ACCOUNT0, ME, 1).await;
    let one = start_node(&db, history_config(&url, indexed_chains(a))).await;
    wait_for_history(&one.base, &project, ME, std::slice::from_ref(&first)).await;
    let two = start_node(&db, history_config(&url, indexed_chains(a))).await;
    // Both serve; only the first indexes while it runs.
    let second = pay(a, ACCOUNT0, ME, 2).await;
    for node in [&one, &two] {
        wait_for_history(&node.base, &project, ME, &[second.clone(), first.clone()]).await;
    }
    for _ in 0..10 {
        assert_eq!(lease_holder(&db).await.as_deref(), Some(one.instance.as_str()));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The first stops and gives its lease up (2 s long): the second takes the chain over.
    one.server.stop().await.unwrap();
    assert_ne!(lease_holder(&db).await.as_deref(), Some(one.instance.as_str()), "a stopped server holds no lease");
    let third = pay(a, ACCOUNT0, ME, 3).await;
    let items = wait_for_history(&two.base, &project, ME, &[third.clone(), second, first]).await;
    assert_eq!(items[0]["transfers"][0]["quantity"]["numeric"], "0.000000000000000003");
    assert_eq!(lease_holder(&db).await.as_deref(), Some(two.instance.as_str()));
    assert_eq!(count(&db, "SELECT COUNT(*) FROM history_txs").await, 3);
    two.server.stop().await.unwrap();
}

/// A node in front of `anvil` that has no trace_filter (like geth): the indexer reads its
/// blocks one by one. Everything else is passed through.
async fn without_trace_filter(anvil: &str) -> String {
    use axum::{body::Bytes, routing::post, Router};
    let anvil = anvil.to_owned();
    let app = Router::new().route(
        "/",
        post(move |body: Bytes| {
            let anvil = anvil.clone();
            async move {
                let call: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                if call["method"] == "trace_filter" {
                    return json!({"jsonrpc": "2.0", "id": call["id"], "error": {"code": -32601, "message": "the method trace_filter does not exist/is not available"}}).to_string();
                }
                let res = reqwest::Client::new().post(&anvil).header("content-type", "application/json").body(body).send().await.unwrap();
                res.text().await.unwrap()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// Runtime code that sends the value it is called with on to YOU, and init code deploying it.
fn forwarder_init() -> String {
    let runtime = format!("0x60006000600060003473{}5af100", YOU.trim_start_matches("0x").to_lowercase());
    let len = (runtime.len() - 2) / 2;
    format!("0x60{len:02x}600c60003960{len:02x}6000f3{}", &runtime[2..])
}

/// The indexer reads a chain by its traces where the node has trace_filter, else block by
/// block: both give the same history (transactions, nonces, times, statuses, token and
/// internal transfers, a creation, a failure).
async fn both_ways_of_reading_agree(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, db, project)) = database(backend, &dir).await else { return };
    let other_dir = tempfile::tempdir().unwrap();
    let Some((other_url, other_db, other_project)) = database(backend, &other_dir).await else { return };
    let anvil = Anvil::start();
    let a = &anvil.url;
    let created = send(a, json!({"from": ME, "data": forwarder_init()})).await;
    let forwarder = receipt(a, &created).await["contractAddress"].as_str().unwrap().to_owned();
    let forwarded = send(a, json!({"from": ME, "to": forwarder, "value": "0x7"})).await;
    let paid = pay(a, YOU, ME, 11).await;
    let failed = send(a, json!({"from": ME, "gas": "0x30000", "data": "0x60006000fd"})).await;
    assert_eq!(receipt(a, &failed).await["status"], "0x0");
    let (token, token_created) = deploy_token_tx(a, ME, "Sigil Test", "STT", 6).await;
    let moved = token_transfer(a, &token, ME, YOU, units(3, 6)).await;
    let want: Vec<String> = [&moved, &token_created, &failed, &paid, &forwarded, &created].into_iter().cloned().collect();

    let traced = start_node(&db, history_config(&url, indexed_chains(a))).await;
    let proxy = without_trace_filter(a).await;
    let by_block = start_node(&other_db, history_config(&other_url, indexed_chains(&proxy))).await;
    let mine = wait_for_history(&traced.base, &project, ME, &want).await;
    // The same items, but for the project in icon addresses.
    let same = |items: Vec<Value>| -> Value { serde_json::from_str(&json!(items).to_string().replace(&other_project, &project)).unwrap() };
    assert_eq!(same(wait_for_history(&by_block.base, &other_project, ME, &want).await), json!(mine));

    // Values as the chain has them: nonces 0..4 of ME (the token's creation is nonce 3).
    let nonce = |hash: &str| mine.iter().find(|i| i["metadata"]["hash"] == hash).unwrap()["metadata"]["nonce"].clone();
    assert_eq!([nonce(&created), nonce(&forwarded), nonce(&failed), nonce(&token_created), nonce(&moved)], [0, 1, 2, 3, 4].map(|n| json!(n)));
    let item = |hash: &str| mine.iter().find(|i| i["metadata"]["hash"] == hash).unwrap().clone();
    assert_eq!(item(&created)["metadata"]["sentTo"], checksum(&forwarder));
    assert_eq!(item(&token_created)["metadata"]["sentTo"], checksum(&token));
    // A creation that failed created nothing: no receiver.
    assert_eq!((item(&failed)["metadata"]["status"].as_str(), item(&failed)["metadata"]["sentTo"].as_str()), (Some("failed"), Some("")));
    assert_eq!(item(&moved)["transfers"][0]["quantity"]["numeric"], "3");
    // The forwarded coin reaches YOU inside the call: an internal transfer in YOU's history.
    let yours = wait_for_history(&traced.base, &project, YOU, &[moved.clone(), paid.clone(), forwarded.clone()]).await;
    assert_eq!(same(wait_for_history(&by_block.base, &other_project, YOU, &[moved.clone(), paid.clone(), forwarded.clone()]).await), json!(yours));
    let got = &yours[2]["transfers"];
    assert_eq!((got[0]["direction"].as_str(), got[0]["quantity"]["numeric"].as_str()), (Some("in"), Some("0.000000000000000007")), "{got}");
    // The trace way read no block bodies: the nonces came from the node when first shown, and were kept.
    assert_eq!(count(&db, "SELECT COUNT(*) FROM history_txs WHERE nonce IS NULL").await, 0);
    traced.server.stop().await.unwrap();
    by_block.server.stop().await.unwrap();
}

both_backends!(
    api_shape_values_spam_and_paging,
    both_ways_of_reading_agree,
    resumes_after_a_stop_with_nothing_lost_or_doubled,
    follows_a_reorganisation,
    one_indexer_per_chain_and_a_takeover
);

/// A process stopped when dropped.
struct Process(std::process::Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A chain that does not answer when the server starts: the server serves, the indexer takes
/// the chain and retries with back-off; once the chain answers, indexing starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_chain_is_quietly_retried() {
    let dir = tempfile::tempdir().unwrap();
    let (url, db, project) = database(Backend::Sqlite, &dir).await.unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let node = start_node(&db, history_config(&url, indexed_chains(&format!("http://127.0.0.1:{port}")))).await;
    // The indexer ran: it holds the chain, and has no cursor (the chain never told its head).
    let deadline = Instant::now() + Duration::from_secs(60);
    while lease_holder(&db).await.as_deref() != Some(node.instance.as_str()) {
        assert!(Instant::now() < deadline, "the indexer did not take the chain");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(sigil_server::history::store::cursor(&db, DEV).await.unwrap(), None);
    let (status, body) = get(&history_url(&node.base, &project, ME, "")).await;
    assert_eq!((status, body), (200, json!({"data": [], "next": null})));
    let (status, _) = get(&format!("{}/health", node.base)).await;
    assert_eq!(status, 200);

    // The chain comes up where it was configured: the indexer's next try reads it.
    let _anvil = Process(
        std::process::Command::new(common::anvil_bin())
            .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--chain-id", "31337", "--hardfork", "prague"])
            // No state written to ~/.foundry/anvil/tmp, which anvil never cleans.
            .args(["--silent", "--max-persisted-states", "0"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("anvil starts"),
    );
    let chain = format!("http://127.0.0.1:{port}");
    while reqwest::Client::new().post(&chain).json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []})).send().await.is_err() {
        assert!(Instant::now() < deadline, "anvil did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let paid = pay(&chain, ACCOUNT0, ME, 7).await;
    wait_for_history(&node.base, &project, ME, &[paid]).await;
    node.server.stop().await.unwrap();
}
