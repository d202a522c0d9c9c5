//! A chain's history upstream against a real anvil and stand-in explorers, on SQLite and
//! PostgreSQL: an address's pages give the indexed rows first, then, past the index's first
//! block, the older history the explorer listed (Blockscout v2 paged by `next_page_params`,
//! Etherscan v2 paged by `endblock`), each once, with exact values; the API key is in no
//! answer; an explorer that fails leaves the indexed rows served and is tried again later.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::Json;
use common::{chain_with, fresh_database, receipt, rpc, Anvil, Backend};
use serde_json::{json, Value};
use sigil_server::chains::{HistoryUpstream, UpstreamKind};
use sigil_server::config::Config;
use sigil_server::projects::{self, Features};
use sigil_server::{db, AppState, RunningServer};
use sqlx::Row;

const DEV: &str = "eip155:31337";
const ACCOUNT0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
/// anvil's accounts 5 and 6: the account whose history is read, and its counterparty.
const ME: &str = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const YOU: &str = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const TOKEN: &str = "0x1111111111111111111111111111111111111111";
const NFT: &str = "0x2222222222222222222222222222222222222222";
const ITEMS: &str = "0x3333333333333333333333333333333333333333";
const PAYER: &str = "0x4444444444444444444444444444444444444444";
/// An address made to look like YOU's: a zero-value transferFrom out of ME to it is poisoning.
const POISON: &str = "0x976EA74026E726554dB657fA54763abd0C3a0aA8";
/// The index starts here; the explorers' records lie below it.
const FROM_BLOCK: u64 = 100;
const KEY_ENV: &str = "SIGIL_TEST_HISTORY_UPSTREAM_KEY";
const KEY: &str = "k3y-never-shown-7f3a";

fn h(n: u8) -> String {
    format!("0x{:064x}", 0xabcd_0000u64 + u64::from(n))
}

/// The older history, newest first: (hash, block, unix seconds).
fn older() -> Vec<(String, i64, i64)> {
    vec![
        (h(1), 90, 1_704_164_645), // A: ME pays YOU 2 ETH (nonce 7)
        (h(3), 85, 1_704_100_000), // C: ME pays YOU 0.001 ETH (nonce 6)
        (h(2), 80, 1_704_000_000), // B: ME's failed call
        (h(4), 60, 1_703_000_000), // D: YOU sends ME 1.2345 OLD
        (h(5), 50, 1_702_000_000), // E: ME sends YOU Punks #42
        (h(7), 45, 1_701_500_000), // G: YOU sends ME 5 of Items #7 (Etherscan only)
        (h(6), 40, 1_701_000_000), // F: a contract pays ME 0.003 ETH inside a call
    ]
}

fn iso(secs: i64) -> String {
    sigil_server::history::routes::rfc3339(secs).replace('Z', ".000000Z")
}

fn lower(a: &str) -> String {
    a.to_lowercase()
}

/// Pays `wei` from account 0 to ME; the hash once mined.
async fn pay(anvil: &str, wei: u128) -> String {
    let tx = json!({"from": ACCOUNT0, "to": ME, "value": format!("{wei:#x}")});
    let hash = rpc(anvil, "eth_sendTransaction", json!([tx])).await.as_str().unwrap().to_lowercase();
    receipt(anvil, &hash).await;
    hash
}

/// Blocks 1..99 empty, then 22 payments to ME from block 100: the indexed rows, newest first.
async fn indexed_payments(anvil: &str) -> Vec<String> {
    rpc(anvil, "anvil_mine", json!([format!("{:#x}", FROM_BLOCK - 1)])).await;
    let mut hashes = Vec::new();
    for i in 0..22u128 {
        hashes.push(pay(anvil, 1_000 + i).await);
    }
    let first = rpc(anvil, "eth_getTransactionReceipt", json!([hashes[0]])).await;
    assert_eq!(first["blockNumber"], format!("{FROM_BLOCK:#x}"));
    hashes.reverse();
    hashes
}

/// A stand-in explorer: its address, the requests it answered, whether it fails (500).
struct Explorer {
    url: String,
    hits: Arc<AtomicUsize>,
    failing: Arc<AtomicBool>,
    /// Every query it was asked, to check the paging.
    asked: Arc<Mutex<Vec<String>>>,
}

async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

fn party(a: &str) -> Value {
    json!({"hash": a, "is_contract": false, "name": null, "private_tags": [], "public_tags": [], "watchlist_names": []})
}

/// Blockscout v2's address lists for ME (one indexed transaction among them: it must not come
/// twice), transactions over two pages.
async fn blockscout(indexed: &str, indexed_block: i64) -> Explorer {
    let (hits, failing, asked) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new(Vec::new())));
    let (hits2, failing2, asked2) = (hits.clone(), failing.clone(), asked.clone());
    let indexed = indexed.to_owned();
    let handler = move |Path((address, list)): Path<(String, String)>, Query(q): Query<HashMap<String, String>>| {
        let (hits, failing, asked, indexed) = (hits2.clone(), failing2.clone(), asked2.clone(), indexed.clone());
        async move {
            hits.fetch_add(1, Ordering::SeqCst);
            let mut keys: Vec<String> = q.iter().map(|(k, v)| format!("{k}={v}")).collect();
            keys.sort();
            asked.lock().unwrap().push(format!("{list}?{}", keys.join("&")));
            if failing.load(Ordering::SeqCst) {
                return (StatusCode::INTERNAL_SERVER_ERROR, Json(json!({"message": "down"})));
            }
            if address.to_lowercase() != lower(ME) {
                return (StatusCode::OK, Json(json!({"items": [], "next_page_params": null})));
            }
            let o = older();
            let tx = |i: usize, from: &str, to: &str, value: &str, nonce: i64, position: i64, status: &str| {
                json!({"hash": o[i].0, "block_number": o[i].1, "timestamp": iso(o[i].2), "from": party(from), "to": party(to),
                    "created_contract": null, "value": value, "nonce": nonce, "position": position, "status": status, "result": "success",
                    "confirmations": 100, "type": 2, "fee": {"type": "actual", "value": "21000"}})
            };
            let body = match list.as_str() {
                "transactions" if !q.contains_key("block_number") => json!({
                    "items": [
                        {"hash": indexed, "block_number": indexed_block, "timestamp": iso(1_800_000_000), "from": party(ACCOUNT0), "to": party(ME),
                         "value": "1000", "nonce": 0, "position": 0, "status": "ok"},
                        tx(0, ME, YOU, "2000000000000000000", 7, 1, "ok"),
                        tx(1, ME, YOU, "1000000000000000", 6, 0, "ok"),
                    ],
                    "next_page_params": {"block_number": 85, "index": 0, "items_count": 50}
                }),
                "transactions" => {
                    assert_eq!((q.get("block_number").map(String::as_str), q.get("index").map(String::as_str)), (Some("85"), Some("0")));
                    json!({"items": [tx(2, ME, TOKEN, "0", 5, 3, "error")], "next_page_params": null})
                }
                "token-transfers" => {
                    assert_eq!(q.get("type").map(String::as_str), Some("ERC-20,ERC-721,ERC-1155"));
                    json!({"items": [
                        {"transaction_hash": o[3].0, "block_number": o[3].1, "block_hash": h(200), "log_index": 4, "timestamp": iso(o[3].2),
                         "from": party(YOU), "to": party(ME), "method": "transfer", "type": "token_transfer",
                         "token": {"address_hash": TOKEN, "symbol": "OLD", "name": "Old Token", "decimals": "6", "type": "ERC-20", "holders_count": "5"},
                         "total": {"decimals": "6", "value": "1234500"}},
                        {"transaction_hash": o[4].0, "block_number": o[4].1, "block_hash": h(201), "log_index": "2", "timestamp": iso(o[4].2),
                         "from": party(ME), "to": party(YOU), "method": "transferFrom", "type": "token_transfer",
                         "token": {"address": NFT, "symbol": "PUNK", "name": "Punks", "decimals": null, "type": "ERC-721"},
                         "total": {"token_id": "42"}},
                        {"transaction_hash": h(8), "block_number": 55, "block_hash": h(202), "log_index": 0, "timestamp": iso(1_702_500_000),
                         "from": party(ME), "to": party(POISON), "method": "transferFrom", "type": "token_transfer",
                         "token": {"address_hash": TOKEN, "symbol": "OLD", "name": "Old Token", "decimals": "6", "type": "ERC-20"},
                         "total": {"decimals": "6", "value": "0"}}
                    ], "next_page_params": null})
                }
                _ => json!({"items": [
                    {"transaction_hash": o[6].0, "block_number": o[6].1, "index": 0, "timestamp": iso(o[6].2), "type": "call",
                     "from": party(YOU), "to": party(PAYER), "value": "0", "success": true, "error": null},
                    {"transaction_hash": o[6].0, "block_number": o[6].1, "index": 1, "timestamp": iso(o[6].2), "type": "call",
                     "from": party(PAYER), "to": party(ME), "value": "3000000000000000", "success": true, "error": null},
                    {"transaction_hash": o[6].0, "block_number": o[6].1, "index": 2, "timestamp": iso(o[6].2), "type": "call",
                     "from": party(PAYER), "to": party(ME), "value": "9", "success": false, "error": "Reverted"}
                ], "next_page_params": null}),
            };
            (StatusCode::OK, Json(body))
        }
    };
    let app = axum::Router::new().route("/api/v2/addresses/{address}/{list}", axum::routing::get(handler));
    Explorer { url: serve(app).await, hits, failing, asked }
}

/// Etherscan v2's account actions for ME, honouring startblock, endblock, offset and desc order.
async fn etherscan(indexed: &str, indexed_block: i64) -> Explorer {
    let (hits, failing, asked) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new(Vec::new())));
    let (hits2, failing2, asked2) = (hits.clone(), failing.clone(), asked.clone());
    let indexed = indexed.to_owned();
    let handler = move |Query(q): Query<HashMap<String, String>>| {
        let (hits, failing, asked, indexed) = (hits2.clone(), failing2.clone(), asked2.clone(), indexed.clone());
        async move {
            hits.fetch_add(1, Ordering::SeqCst);
            let get = |k: &str| q.get(k).cloned().unwrap_or_default();
            asked.lock().unwrap().push(format!("{} endblock={} offset={}", get("action"), get("endblock"), get("offset")));
            if failing.load(Ordering::SeqCst) {
                return (StatusCode::INTERNAL_SERVER_ERROR, Json(json!({"message": "down"})));
            }
            if get("apikey") != KEY || get("chainid") != "31337" || get("module") != "account" || get("sort") != "desc" {
                return (StatusCode::OK, Json(json!({"status": "0", "message": "NOTOK", "result": "Invalid API Key (#err2)|v2"})));
            }
            let o = older();
            let base = |i: usize| json!({"blockNumber": o[i].1.to_string(), "timeStamp": o[i].2.to_string(), "hash": o[i].0, "blockHash": h(210), "confirmations": "100"});
            let with = |mut v: Value, more: Value| {
                v.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
                v
            };
            let records: Vec<Value> = match get("action").as_str() {
                "txlist" => vec![
                    json!({"blockNumber": indexed_block.to_string(), "timeStamp": "1800000000", "hash": indexed, "nonce": "0", "transactionIndex": "0",
                        "from": lower(ACCOUNT0), "to": lower(ME), "value": "1000", "isError": "0", "txreceipt_status": "1", "contractAddress": ""}),
                    with(
                        base(0),
                        json!({"nonce": "7", "transactionIndex": "1", "from": lower(ME), "to": lower(YOU), "value": "2000000000000000000",
                        "isError": "0", "txreceipt_status": "1", "contractAddress": "", "input": "0x"}),
                    ),
                    with(
                        base(1),
                        json!({"nonce": "6", "transactionIndex": "0", "from": lower(ME), "to": lower(YOU), "value": "1000000000000000",
                        "isError": "0", "txreceipt_status": "1", "contractAddress": "", "input": "0x"}),
                    ),
                    with(
                        base(2),
                        json!({"nonce": "5", "transactionIndex": "3", "from": lower(ME), "to": TOKEN, "value": "0",
                        "isError": "1", "txreceipt_status": "0", "contractAddress": "", "input": "0xa9059cbb"}),
                    ),
                ],
                "tokentx" => vec![with(
                    base(3),
                    json!({"nonce": "11", "transactionIndex": "2", "logIndex": "4", "from": lower(YOU), "to": lower(ME),
                    "contractAddress": TOKEN, "value": "1234500", "tokenName": "Old Token", "tokenSymbol": "OLD", "tokenDecimal": "6"}),
                )],
                "tokennfttx" => vec![with(
                    base(4),
                    json!({"nonce": "4", "transactionIndex": "1", "logIndex": "2", "from": lower(ME), "to": lower(YOU),
                    "contractAddress": NFT, "tokenID": "42", "tokenName": "Punks", "tokenSymbol": "PUNK", "tokenDecimal": "0"}),
                )],
                "token1155tx" => vec![with(
                    base(5),
                    json!({"nonce": "12", "transactionIndex": "0", "logIndex": "9", "from": lower(YOU), "to": lower(ME),
                    "contractAddress": ITEMS, "tokenID": "7", "tokenValue": "5", "tokenName": "Items", "tokenSymbol": "ITM"}),
                )],
                "txlistinternal" => vec![
                    with(
                        base(6),
                        json!({"from": lower(PAYER), "to": lower(ME), "value": "3000000000000000", "contractAddress": "", "type": "call",
                        "traceId": "0_1", "isError": "0", "errCode": ""}),
                    ),
                    with(
                        base(6),
                        json!({"from": lower(PAYER), "to": lower(ME), "value": "9", "contractAddress": "", "type": "call",
                        "traceId": "0_2", "isError": "1", "errCode": "Reverted"}),
                    ),
                ],
                _ => vec![],
            };
            let (start, end): (i64, i64) = (get("startblock").parse().unwrap_or(0), get("endblock").parse().unwrap_or(i64::MAX));
            let offset: usize = get("offset").parse().unwrap_or(10_000);
            let mut page: Vec<Value> = records
                .into_iter()
                .filter(|r| {
                    let b: i64 = r["blockNumber"].as_str().unwrap().parse().unwrap();
                    b >= start && b <= end
                })
                .collect();
            page.sort_by_key(|r| std::cmp::Reverse(r["blockNumber"].as_str().unwrap().parse::<i64>().unwrap()));
            page.truncate(offset);
            let body = if page.is_empty() {
                json!({"status": "0", "message": "No transactions found", "result": []})
            } else {
                json!({"status": "1", "message": "OK", "result": page})
            };
            (StatusCode::OK, Json(body))
        }
    };
    let app = axum::Router::new().route("/v2/api", axum::routing::get(handler));
    Explorer { url: serve(app).await, hits, failing, asked }
}

fn config(url: &str, anvil: &str, upstream: HistoryUpstream, max_records: u32) -> Config {
    let mut chains = chain_with(&[anvil], true);
    let dev = chains.by_id.get_mut(DEV).unwrap();
    dev.history.from_block = Some(FROM_BLOCK);
    dev.history.upstream = Some(upstream);
    let mut config = Config::for_database(url);
    config.chains = chains;
    config.settings.history.enabled = true;
    config.settings.history.poll_interval = Duration::from_millis(100);
    config.settings.history.upstream_page_size = 2;
    config.settings.history.upstream_max_records = max_records;
    config.rpc.probe_interval = Duration::from_secs(3600);
    config
}

struct Node {
    server: RunningServer,
    base: String,
    db: db::Db,
    project: String,
    /// Every answer's text, to look for the API key in.
    seen: Vec<String>,
}

async fn start(backend: Backend, dir: &tempfile::TempDir, anvil: &str, upstream: HistoryUpstream) -> Option<Node> {
    start_with(backend, dir, anvil, upstream, 10_000).await
}

async fn start_with(backend: Backend, dir: &tempfile::TempDir, anvil: &str, upstream: HistoryUpstream, max_records: u32) -> Option<Node> {
    let url = fresh_database(backend, dir).await?;
    let db = db::connect(&url).await.unwrap();
    let project = projects::create(&db, "History", &["*".to_owned()], Features::default()).await.unwrap().id;
    let server = sigil_server::start(AppState::new(db.clone(), config(&url, anvil, upstream, max_records)), "127.0.0.1:0".parse().unwrap()).await.unwrap();
    Some(Node { base: format!("http://{}", server.addr), server, db, project, seen: Vec::new() })
}

impl Node {
    /// Every page of ME's history, following `next`; the pages' items.
    async fn pages(&mut self) -> Vec<Vec<Value>> {
        self.pages_with("").await
    }

    async fn pages_with(&mut self, extra: &str) -> Vec<Vec<Value>> {
        let mut pages = Vec::new();
        let mut cursor = String::new();
        loop {
            let url = format!("{}/v1/account/{ME}/history?projectId={}&chainId={DEV}{extra}{cursor}", self.base, self.project);
            let res = reqwest::get(&url).await.unwrap();
            assert_eq!(res.status(), 200);
            let text = res.text().await.unwrap();
            let body: Value = serde_json::from_str(&text).unwrap();
            self.seen.push(text);
            pages.push(body["data"].as_array().unwrap().clone());
            match body["next"].as_str() {
                Some(next) => cursor = format!("&cursor={next}"),
                None => return pages,
            }
        }
    }

    /// Waits until the indexer has read every block up to `block`.
    async fn indexed_to(&self, block: i64) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let next = sqlx::query("SELECT next_block FROM history_cursors WHERE chain = 'eip155:31337'")
                .fetch_optional(&self.db)
                .await
                .unwrap()
                .map_or(0, |r| r.try_get::<i64, _>("next_block").unwrap());
            if next > block {
                return;
            }
            assert!(Instant::now() < deadline, "the indexer did not reach block {block}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn count(&self, sql: &str) -> i64 {
        sqlx::query(sql).fetch_one(&self.db).await.unwrap().try_get::<i64, _>(0).unwrap()
    }
}

fn hashes(items: &[Value]) -> Vec<String> {
    items.iter().map(|i| i["metadata"]["hash"].as_str().unwrap().to_owned()).collect()
}

fn by_hash(items: &[Value], hash: &str) -> Value {
    items.iter().find(|i| i["metadata"]["hash"] == hash).unwrap_or_else(|| panic!("{hash} is listed")).clone()
}

/// (direction, quantity, symbol or NFT name, sender, recipient) of each transfer.
fn moves(item: &Value) -> Vec<(String, String, String, String, String)> {
    item["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let what = t["fungible_info"]["symbol"].as_str().or(t["nft_info"]["name"].as_str()).unwrap_or("").to_owned();
            let s = |k: &str| t[k].as_str().unwrap().to_owned();
            (s("direction"), t["quantity"]["numeric"].as_str().unwrap().to_owned(), what, s("sender"), s("recipient"))
        })
        .collect()
}

fn checksum(a: &str) -> String {
    a.parse::<alloy_primitives::Address>().unwrap().to_checksum(None)
}

fn t(direction: &str, quantity: &str, what: &str, sender: &str, recipient: &str) -> (String, String, String, String, String) {
    (direction.into(), quantity.into(), what.into(), checksum(sender), checksum(recipient))
}

/// The older rows' values, the same from either explorer.
fn check_older(items: &[Value], o: &[(String, i64, i64)]) {
    let mined = |i: usize| sigil_server::history::routes::rfc3339(o[i].2);
    let a = by_hash(items, &o[0].0);
    assert_eq!(
        a["metadata"],
        json!({"minedAt": mined(0), "chain": DEV, "status": "confirmed", "operationType": "send", "sentFrom": ME, "sentTo": YOU,
            "hash": o[0].0, "nonce": 7, "spam": null})
    );
    assert_eq!(a["id"], format!("{DEV}:{}", o[0].0));
    assert_eq!(moves(&a), [t("out", "2", "ETH", ME, YOU)]);
    let c = by_hash(items, &o[1].0);
    assert_eq!((c["metadata"]["minedAt"].as_str(), c["metadata"]["nonce"].as_i64()), (Some(mined(1).as_str()), Some(6)));
    assert_eq!(moves(&c), [t("out", "0.001", "ETH", ME, YOU)]);
    let b = by_hash(items, &o[2].0);
    assert_eq!((b["metadata"]["status"].as_str(), b["metadata"]["operationType"].as_str()), (Some("failed"), Some("execute")));
    assert_eq!(b["transfers"], json!([]));
    let d = by_hash(items, &o[3].0);
    assert_eq!((d["metadata"]["minedAt"].as_str(), d["metadata"]["operationType"].as_str()), (Some(mined(3).as_str()), Some("receive")));
    assert_eq!(moves(&d), [t("in", "1.2345", "OLD", YOU, ME)]);
    assert_eq!(d["transfers"][0]["fungible_info"]["name"], "Old Token");
    let e = by_hash(items, &o[4].0);
    assert_eq!((e["metadata"]["minedAt"].as_str(), e["metadata"]["operationType"].as_str()), (Some(mined(4).as_str()), Some("send")));
    assert_eq!(moves(&e), [t("out", "1", "Punks #42", ME, YOU)]);
    let f = by_hash(items, &o[6].0);
    assert_eq!((f["metadata"]["minedAt"].as_str(), f["metadata"]["operationType"].as_str()), (Some(mined(6).as_str()), Some("receive")));
    assert_eq!(moves(&f), [t("in", "0.003", "ETH", PAYER, ME)], "the failed internal call and the top-level call are left out");
}

/// The pages: the indexed rows first (20, then 2), then the older ones; each once.
fn check_pages(pages: &[Vec<Value>], indexed: &[String], older: &[String]) -> Vec<Value> {
    assert_eq!(pages.len(), 2, "{} pages", pages.len());
    assert_eq!(hashes(&pages[0]), indexed[..20]);
    let all: Vec<Value> = pages.concat();
    let want: Vec<String> = indexed.iter().chain(older).cloned().collect();
    assert_eq!(hashes(&all), want);
    let distinct: BTreeSet<String> = hashes(&all).into_iter().collect();
    assert_eq!(distinct.len(), all.len(), "no duplicates");
    all
}

async fn fills_from_blockscout(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    let indexed = indexed_payments(&anvil.url).await;
    let explorer = blockscout(&indexed[21], FROM_BLOCK as i64).await;
    explorer.failing.store(true, Ordering::SeqCst);
    let upstream = HistoryUpstream { kind: UpstreamKind::Blockscout, url: explorer.url.clone(), api_key_env: None };
    let Some(mut node) = start(backend, &dir, &anvil.url, upstream).await else { return };
    node.indexed_to(FROM_BLOCK as i64 + 21).await;

    // The explorer fails: the indexed rows are served all the same, and the fill is not done.
    let pages = node.pages().await;
    assert_eq!(hashes(&pages.concat()), indexed);
    assert!(explorer.hits.load(Ordering::SeqCst) >= 1);
    let me = lower(ME);
    assert_eq!(node.count(&format!("SELECT COUNT(*) FROM history_upstream_fills WHERE address = '{me}' AND filled = 0")).await, 1);
    // Within the wait after a failure, the explorer is not asked again.
    let hits = explorer.hits.load(Ordering::SeqCst);
    node.pages().await;
    assert_eq!(explorer.hits.load(Ordering::SeqCst), hits);

    // It answers again, and the wait is over: the older history follows the indexed rows.
    explorer.failing.store(false, Ordering::SeqCst);
    sqlx::query("UPDATE history_upstream_fills SET claimed_until = 0").execute(&node.db).await.unwrap();
    let pages = node.pages().await;
    let o = older();
    let want: Vec<String> = [0, 1, 2, 3, 4, 6].iter().map(|i| o[*i].0.clone()).collect();
    let all = check_pages(&pages, &indexed, &want);
    check_older(&all, &o);
    // The indexed transaction the explorer listed too keeps the index's values.
    assert_eq!(moves(&by_hash(&all, &indexed[21])), [t("in", "0.000000000000001", "ETH", ACCOUNT0, ME)]);
    let asked = explorer.asked.lock().unwrap().clone();
    assert!(asked.iter().any(|q| q == "transactions?block_number=85&index=0&items_count=50"), "the second page follows next_page_params: {asked:?}");
    // The zero-value transferFrom out of ME, in a transaction someone else sent, is poisoning:
    // left out unless asked for, then flagged.
    let with_spam = node.pages_with("&includeSpam=true").await.concat();
    let mut want_spam = want.clone();
    want_spam.insert(4, h(8));
    assert_eq!(hashes(&with_spam)[22..], want_spam);
    let poisoned = by_hash(&with_spam, &h(8));
    assert_eq!(poisoned["metadata"]["spam"], json!({"reason": "zero-value"}));
    assert_eq!((poisoned["metadata"]["sentFrom"].as_str(), poisoned["metadata"]["status"].as_str()), (Some(checksum(POISON).as_str()), Some("confirmed")));
    assert_eq!(moves(&poisoned), [t("out", "0", "OLD", ME, POISON)]);

    // Asked again: the same pages from the stored rows; the explorer is not asked again.
    let hits = explorer.hits.load(Ordering::SeqCst);
    assert_eq!(hashes(&node.pages().await.concat()), hashes(&all));
    assert_eq!(explorer.hits.load(Ordering::SeqCst), hits);
    assert_eq!(node.count("SELECT COUNT(*) FROM history_txs").await, 22 + 7);
    assert_eq!(node.count(&format!("SELECT COUNT(*) FROM history_appearances WHERE address = '{me}'")).await, 22 + 7);
    assert_eq!(node.count(&format!("SELECT COUNT(*) FROM history_upstream_fills WHERE address = '{me}' AND filled = 1")).await, 1);
    node.server.stop().await.unwrap();
}

async fn fills_from_etherscan(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    let indexed = indexed_payments(&anvil.url).await;
    let explorer = etherscan(&indexed[21], FROM_BLOCK as i64).await;
    std::env::set_var(KEY_ENV, KEY);
    let upstream = HistoryUpstream { kind: UpstreamKind::Etherscan, url: explorer.url.clone(), api_key_env: Some(KEY_ENV.into()) };
    let Some(mut node) = start(backend, &dir, &anvil.url, upstream).await else { return };
    node.indexed_to(FROM_BLOCK as i64 + 21).await;

    let pages = node.pages().await;
    let o = older();
    let want: Vec<String> = o.iter().map(|r| r.0.clone()).collect();
    let all = check_pages(&pages, &indexed, &want);
    check_older(&all, &o);
    let g = by_hash(&all, &o[5].0);
    assert_eq!((g["metadata"]["minedAt"].as_str(), g["metadata"]["nonce"].as_i64()), (Some(sigil_server::history::routes::rfc3339(o[5].2).as_str()), Some(12)));
    assert_eq!(moves(&g), [t("in", "5", "Items #7", YOU, ME)]);
    // Paged by endblock, two records a call, from the block below the index down.
    let asked = explorer.asked.lock().unwrap().clone();
    for want in ["txlist endblock=99 offset=2", "txlist endblock=85 offset=2", "txlist endblock=80 offset=2"] {
        assert!(asked.iter().any(|q| q == want), "{want} in {asked:?}");
    }
    assert!(node.seen.iter().all(|text| !text.contains(KEY)), "the API key is in no answer");

    // Asked again: nothing new, nothing doubled.
    let hits = explorer.hits.load(Ordering::SeqCst);
    assert_eq!(hashes(&node.pages().await.concat()), hashes(&all));
    assert_eq!(explorer.hits.load(Ordering::SeqCst), hits);
    assert_eq!(node.count("SELECT COUNT(*) FROM history_txs").await, 22 + 7);
    node.server.stop().await.unwrap();

    // An explorer that fails from the start: the indexed rows alone, and no key shown.
    let dir = tempfile::tempdir().unwrap();
    let explorer = etherscan(&indexed[21], FROM_BLOCK as i64).await;
    explorer.failing.store(true, Ordering::SeqCst);
    let upstream = HistoryUpstream { kind: UpstreamKind::Etherscan, url: explorer.url.clone(), api_key_env: Some(KEY_ENV.into()) };
    let Some(mut node) = start(backend, &dir, &anvil.url, upstream).await else { return };
    node.indexed_to(FROM_BLOCK as i64 + 21).await;
    assert_eq!(hashes(&node.pages().await.concat()), indexed);
    assert!(explorer.hits.load(Ordering::SeqCst) >= 1);
    assert!(node.seen.iter().all(|text| !text.contains(KEY)));
    node.server.stop().await.unwrap();

    // Five records at most: the first round of pages gives five (A, D, E, G, F; C waits for
    // txlist's next page), so the lists stop there. txlist stopped at block 85: what lies at or
    // below it is left out of every list, so the stored history has no hole.
    let dir = tempfile::tempdir().unwrap();
    let explorer = etherscan(&indexed[21], FROM_BLOCK as i64).await;
    let upstream = HistoryUpstream { kind: UpstreamKind::Etherscan, url: explorer.url.clone(), api_key_env: Some(KEY_ENV.into()) };
    let Some(mut node) = start_with(backend, &dir, &anvil.url, upstream, 5).await else { return };
    node.indexed_to(FROM_BLOCK as i64 + 21).await;
    let all = node.pages().await.concat();
    assert_eq!(hashes(&all), [indexed.clone(), vec![o[0].0.clone()]].concat());
    assert_eq!(explorer.hits.load(Ordering::SeqCst), 5, "one round of the five lists");
    assert_eq!(node.count("SELECT COUNT(*) FROM history_upstream_fills WHERE filled = 1").await, 1);
    node.server.stop().await.unwrap();
}

both_backends!(fills_from_blockscout, fills_from_etherscan);

/// Requests naming ever new addresses start at most four fills at once: the others are answered
/// with the indexed rows at once, their fills left to a later request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fills_at_once_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    // An explorer that answers nothing until released.
    let released = Arc::new(AtomicBool::new(false));
    let held = released.clone();
    let app = axum::Router::new().route(
        "/api/v2/addresses/{address}/{list}",
        axum::routing::get(move || {
            let held = held.clone();
            async move {
                while !held.load(Ordering::SeqCst) {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                Json(json!({"items": [], "next_page_params": null}))
            }
        }),
    );
    let upstream = HistoryUpstream { kind: UpstreamKind::Blockscout, url: serve(app).await, api_key_env: None };
    let Some(node) = start(Backend::Sqlite, &dir, &anvil.url, upstream).await else { return };
    let requests: Vec<_> = (1..=6u32)
        .map(|i| {
            let url = format!("{}/v1/account/0x{i:040x}/history?projectId={}&chainId={DEV}", node.base, node.project);
            tokio::spawn(async move { reqwest::get(&url).await.unwrap().status().as_u16() })
        })
        .collect();
    // Two are answered (no indexed rows) while four fills wait on the explorer.
    let deadline = Instant::now() + Duration::from_secs(30);
    while requests.iter().filter(|r| r.is_finished()).count() < 2 || node.count("SELECT COUNT(*) FROM history_upstream_fills").await < 4 {
        assert!(Instant::now() < deadline, "two requests were not answered while four fills ran");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(requests.iter().filter(|r| r.is_finished()).count(), 2);
    assert_eq!(node.count("SELECT COUNT(*) FROM history_upstream_fills").await, 4);
    released.store(true, Ordering::SeqCst);
    for request in requests {
        assert_eq!(request.await.unwrap(), 200);
    }
    assert_eq!(node.count("SELECT COUNT(*) FROM history_upstream_fills WHERE filled = 1").await, 4);
    node.server.stop().await.unwrap();
}
