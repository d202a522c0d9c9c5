//! NFTs against a real anvil with the dev chain deployed, on SQLite and PostgreSQL: holdings
//! from the history index (after mints, after transfers away), metadata and images fetched by
//! the server from a local HTTP server standing in for IPFS and the web (the dev metadata files
//! of web/apps/demo/public/ipfs, and hostile answers: too large, wrong type, slow, redirect
//! loops, SVG with script), data: URIs, the refusal of private addresses (by address and by
//! name), no fetch for tokens the index has not seen, ETag/304, bad input.

mod common;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy_dyn_abi::DynSolValue;
use alloy_primitives::U256;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use common::{chain_with, deploy_devchain, fresh_database, receipt, rpc, Anvil, Backend};
use serde_json::{json, Value};
use sigil_server::chains::Chains;
use sigil_server::config::Config;
use sigil_server::projects::{self, Features};
use sigil_server::{db, AppState, RunningServer};

const DEV: &str = "eip155:31337";
/// anvil's account 1: the deployment mints badges #1, #2 and 5 of item 1 to it.
const OWNER: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
/// anvil's account 6.
const YOU: &str = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const BADGE: &str = "0x95401dc811bb5740090279Ba06cfA8fcF6113778";
const ITEMS: &str = "0x4826533B4897376654Bb4d4AD88B7faFD0C98528";
/// Badges minted with metadata the test server answers with nothing (404): enough for a second page.
const FILLER: std::ops::RangeInclusive<u64> = 12..=56;

async fn send(anvil: &str, from: &str, to: &str, data: String) -> Value {
    let hash = rpc(anvil, "eth_sendTransaction", json!([{"from": from, "to": to, "data": data}])).await;
    let receipt = receipt(anvil, hash.as_str().unwrap()).await;
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    receipt
}

fn word(v: DynSolValue) -> String {
    alloy_primitives::hex::encode(DynSolValue::Tuple(vec![v]).abi_encode_params())
}

fn address(a: &str) -> DynSolValue {
    DynSolValue::Address(a.parse().unwrap())
}

fn uint(n: u64) -> DynSolValue {
    DynSolValue::Uint(U256::from(n), 256)
}

async fn mint_badge(anvil: &str, to: &str) {
    send(anvil, YOU, BADGE, format!("0x6a627842{}", word(address(to)))).await;
}

async fn mint_items(anvil: &str, contract: &str, to: &str, id: u64, amount: u64) {
    send(anvil, YOU, contract, format!("0x156e29f6{}{}{}", word(address(to)), word(uint(id)), word(uint(amount)))).await;
}

/// Deploys a devchain contract (devchain/build) with one string argument; its address.
async fn deploy(anvil: &str, name: &str, arg: &str) -> String {
    let artifact: Value = serde_json::from_str(&std::fs::read_to_string(common::repo_root().join(format!("devchain/build/{name}.json"))).unwrap()).unwrap();
    let data = format!("{}{}", artifact["bytecode"].as_str().unwrap(), word(DynSolValue::String(arg.into())));
    let hash = rpc(anvil, "eth_sendTransaction", json!([{"from": YOU, "data": data}])).await;
    let receipt = receipt(anvil, hash.as_str().unwrap()).await;
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    receipt["contractAddress"].as_str().unwrap().to_owned()
}

fn demo_file(path: &str) -> Vec<u8> {
    std::fs::read(common::repo_root().join("web/apps/demo/public/ipfs").join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height).unwrap();
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(10, 200, 30, 255));
    pixmap.encode_png().unwrap()
}

fn typed(content_type: &'static str, body: impl Into<axum::body::Body>) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body.into()).into_response()
}

fn metadata(name: &str, image: &str) -> Response {
    typed("application/json", json!({"name": name, "description": format!("{name} described"), "image": image}).to_string())
}

/// What the stand-in for IPFS and the web answers (the gateway is `<this>/ipfs/`).
async fn metadata_server(Path(path): Path<String>) -> Response {
    match path.as_str() {
        p if p.starts_with("ipfs/sigil-dev/images/") || p.starts_with("ipfs/sigil-dev/items/") => {
            let bytes = demo_file(p.trim_start_matches("ipfs/"));
            if p.ends_with(".svg") {
                typed("image/svg+xml", bytes)
            } else {
                typed("application/json", bytes)
            }
        }
        // Served as the demo serves them: no type (no extension).
        "ipfs/sigil-dev/badge/1" | "ipfs/sigil-dev/badge/2" => demo_file(path.trim_start_matches("ipfs/")).into_response(),
        "ipfs/sigil-dev/badge/3" => metadata("Raster", "ipfs://x/png"),
        "ipfs/sigil-dev/badge/4" => typed("application/json", format!(r#"{{"name":"Huge","pad":"{}"}}"#, "x".repeat(300 * 1024))),
        "ipfs/sigil-dev/badge/5" => typed("text/html", r#"{"name":"Not JSON by type"}"#),
        "ipfs/sigil-dev/badge/6" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            metadata("Slow", "ipfs://x/png")
        }
        "ipfs/sigil-dev/badge/7" => metadata("Big image", "ipfs://x/big.png"),
        "ipfs/sigil-dev/badge/8" => metadata("HTML image", "ipfs://x/page.html"),
        "ipfs/sigil-dev/badge/9" => metadata("Scripted", "ipfs://x/evil.svg"),
        "ipfs/sigil-dev/badge/10" => metadata("Redirected", "ipfs://x/r/1"),
        "ipfs/sigil-dev/badge/11" => typed("application/json", r#"{"name":"No image"}"#),
        "ipfs/x/png" => typed("image/png", png(3, 2)),
        "ipfs/x/big.png" => {
            let mut bytes = png(1, 1);
            bytes.resize(6 * 1024 * 1024, 0);
            typed("image/png", bytes)
        }
        "ipfs/x/page.html" => typed("text/html", "<html><body>not an image</body></html>"),
        "ipfs/x/evil.svg" => typed(
            "image/svg+xml",
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" onload="alert(1)"><script>alert(document.cookie)</script><rect width="8" height="8" fill="blue"/></svg>"#,
        ),
        p if p.starts_with("ipfs/x/r/") => {
            let n: u32 = p["ipfs/x/r/".len()..].parse().unwrap();
            (StatusCode::FOUND, [(header::LOCATION, format!("/ipfs/x/r/{}", n + 1))]).into_response()
        }
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

/// The stand-in's address, and how many requests it has answered.
async fn start_metadata_server() -> (SocketAddr, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let handler = move |path: Path<String>| {
        counter.fetch_add(1, Ordering::SeqCst);
        metadata_server(path)
    };
    let app = axum::Router::new().route("/{*path}", axum::routing::get(handler));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, hits)
}

fn config(url: &str, anvil: &str, deployed: &Value, gateway: SocketAddr, allow_private: bool) -> Config {
    let mut chains: Chains = chain_with(&[anvil], true);
    chains.by_id.get_mut(DEV).unwrap().history.from_block = Some(0);
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let mut config = Config::for_database(url);
    config.chains = chains;
    config.settings.history.enabled = true;
    config.settings.history.poll_interval = Duration::from_millis(100);
    config.rpc.probe_interval = Duration::from_secs(3600);
    config.settings.nfts.ipfs_gateway = format!("http://{gateway}/ipfs/");
    config.settings.nfts.allow_private_hosts = allow_private;
    config.settings.nfts.fetch_timeout = Duration::from_secs(1);
    config
}

struct Node {
    server: RunningServer,
    base: String,
    project: String,
}

async fn start(backend: Backend, dir: &tempfile::TempDir, config: impl FnOnce(&str) -> Config) -> Option<Node> {
    let url = fresh_database(backend, dir).await?;
    let db = db::connect(&url).await.unwrap();
    let project = projects::create(&db, "NFTs", &["*".to_owned()], Features::default()).await.unwrap().id;
    let server = sigil_server::start(AppState::new(db, config(&url)), "127.0.0.1:0".parse().unwrap()).await.unwrap();
    Some(Node { base: format!("http://{}", server.addr), server, project })
}

impl Node {
    fn nfts_url(&self, address: &str, extra: &str) -> String {
        format!("{}/v1/account/{address}/nfts?projectId={}&chainId={DEV}{extra}", self.base, self.project)
    }

    async fn get(&self, url: &str) -> (u16, Value) {
        let res = reqwest::get(url).await.unwrap();
        (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
    }

    /// Every page of `address`'s NFTs.
    async fn all(&self, address: &str) -> (Vec<Value>, usize) {
        let (mut items, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
        loop {
            let extra = cursor.as_ref().map(|c| format!("&cursor={c}")).unwrap_or_default();
            let (status, body) = self.get(&self.nfts_url(address, &extra)).await;
            assert_eq!(status, 200, "{body}");
            pages += 1;
            let data = body["data"].as_array().unwrap();
            assert!(data.len() <= 50);
            items.extend(data.iter().cloned());
            match body["next"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => return (items, pages),
            }
        }
    }

    /// Waits until `address` holds exactly `want` (ids), newest first.
    async fn wait_for(&self, address: &str, want: &[String]) -> (Vec<Value>, usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (items, pages) = self.all(address).await;
            let ids: Vec<String> = items.iter().map(|i| i["id"].as_str().unwrap().to_owned()).collect();
            if ids == want {
                return (items, pages);
            }
            assert!(Instant::now() < deadline, "{address} holds {ids:?}, want {want:?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn image(&self, path: &str, etag: Option<&str>) -> reqwest::Response {
        let mut req = reqwest::Client::new().get(format!("{}{path}", self.base));
        if let Some(etag) = etag {
            req = req.header(header::IF_NONE_MATCH, etag);
        }
        req.send().await.unwrap()
    }
}

fn id(contract: &str, token: u64) -> String {
    format!("{DEV}:{}:{token}", contract.to_lowercase())
}

fn by_token<'a>(items: &'a [Value], contract: &str, token: u64) -> &'a Value {
    items.iter().find(|i| i["id"] == id(contract, token)).unwrap_or_else(|| panic!("no {contract} #{token}"))
}

async fn holdings_metadata_and_images(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    assert_eq!(deployed["nfts"]["erc721"]["address"], BADGE);
    let (gateway, hits) = start_metadata_server().await;
    let a = &anvil.url;
    for _ in 3..=*FILLER.end() {
        mint_badge(a, OWNER).await;
    }
    // An ERC-1155 whose metadata is a data: URI (JSON with an SVG image, both inline).
    let inline = deploy(
        a,
        "SigilItems",
        r#"data:application/json;utf8,{"name":"Inline {id}","description":"on chain","image":"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='4' height='2'><rect width='4' height='2' fill='red'/></svg>"}"#,
    )
    .await;
    mint_items(a, &inline, OWNER, 7, 2).await;
    let Some(node) = start(backend, &dir, |url| config(url, a, &deployed, gateway, true)).await else { return };

    // Newest first: the inline item, the fillers and badges 11..3 (minted in order), then the
    // deployment's item 1 and badges #2, #1.
    let mut want = vec![id(&inline, 7)];
    want.extend((3..=*FILLER.end()).rev().map(|n| id(BADGE, n)));
    want.extend([id(ITEMS, 1), id(BADGE, 2), id(BADGE, 1)]);
    let (items, pages) = node.wait_for(OWNER, &want).await;
    assert_eq!(pages, 2);
    let badge_path = |n: u64| format!("/v1/nft/image/{DEV}/{BADGE}/{n}");
    assert_eq!(
        by_token(&items, BADGE, 1),
        &json!({
            "id": id(BADGE, 1), "chain": DEV, "contract": BADGE, "tokenId": "1", "standard": "erc721", "amount": "1",
            "name": "Sigil Badge #1", "description": "The first badge of the Sigil dev chain: a violet seal with a gold star.",
            "image": badge_path(1), "collection": {"name": "Sigil Badge", "symbol": "SBG"}
        })
    );
    let item = by_token(&items, ITEMS, 1);
    assert_eq!((&item["standard"], &item["amount"], &item["name"]), (&json!("erc1155"), &json!("5"), &json!("Sigil Gem")));
    assert_eq!(item["image"], format!("/v1/nft/image/{DEV}/{ITEMS}/1"));
    let inline_item = by_token(&items, &inline, 7);
    assert_eq!(
        (&inline_item["name"], &inline_item["description"], &inline_item["amount"]),
        (&json!(format!("Inline {:064x}", 7)), &json!("on chain"), &json!("2"))
    );
    // Refused metadata: the collection's name and the id, no image. Too large, not JSON by type, slow.
    for n in [4, 5, 6, 12] {
        let badge = by_token(&items, BADGE, n);
        assert_eq!((&badge["name"], &badge["description"], &badge["image"]), (&json!(format!("Sigil Badge #{n}")), &Value::Null, &Value::Null), "#{n}");
    }
    assert_eq!(by_token(&items, BADGE, 11)["image"], Value::Null);
    assert_eq!(by_token(&items, BADGE, 3)["name"], "Raster");

    // Images: the dev SVG drawn to PNG, cacheable, with an ETag that answers 304.
    let res = node.image(&badge_path(1), None).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()[header::CONTENT_TYPE], "image/png");
    assert_eq!(res.headers()[header::CACHE_CONTROL], "public, max-age=86400");
    let etag = res.headers()[header::ETAG].to_str().unwrap().to_owned();
    let bytes = res.bytes().await.unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(&bytes[16..24], &[0, 0, 2, 0, 0, 0, 2, 0], "256x256 drawn 512x512");
    let res = node.image(&badge_path(1), Some(&etag)).await;
    assert_eq!(res.status(), 304);
    // A PNG as fetched; the item's SVG; the inline SVG of a data: URI.
    let res = node.image(&badge_path(3), None).await;
    assert_eq!((res.status().as_u16(), res.headers()[header::CONTENT_TYPE].to_str().unwrap().to_owned()), (200, "image/png".to_owned()));
    assert_eq!(res.bytes().await.unwrap().as_ref(), png(3, 2).as_slice());
    assert_eq!(node.image(&format!("/v1/nft/image/{DEV}/{ITEMS}/1"), None).await.status(), 200);
    let res = node.image(&format!("/v1/nft/image/{DEV}/{inline}/7"), None).await;
    assert_eq!(res.status(), 200);
    assert_eq!(&res.bytes().await.unwrap()[16..24], &[0, 0, 2, 0, 0, 0, 1, 0], "4x2 drawn 512x256");
    // An SVG with script: drawn, so nothing of it but pixels reaches the page.
    let res = node.image(&badge_path(9), None).await;
    assert_eq!((res.status().as_u16(), res.headers()[header::CONTENT_TYPE].to_str().unwrap().to_owned()), (200, "image/png".to_owned()));
    let bytes = res.bytes().await.unwrap();
    assert!(bytes.starts_with(b"\x89PNG") && !bytes.windows(6).any(|w| w == b"script"));
    // Hostile images: a 502 naming why, kept a while.
    for (n, why) in [(7, "larger than 5242880 bytes"), (8, "media type text/html is not allowed"), (10, "more than 3 redirects")] {
        let res = node.image(&badge_path(n), None).await;
        assert_eq!(res.status(), 502, "#{n}");
        assert_eq!(res.headers()[header::CACHE_CONTROL], "public, max-age=300");
        let body: Value = res.json().await.unwrap();
        assert!(body["error"]["message"].as_str().unwrap().contains(why), "#{n}: {body}");
    }
    // No image, unknown metadata: 404 and 502.
    assert_eq!(node.image(&badge_path(11), None).await.status(), 404);
    // A token the history index has never seen move: 404, and nothing is fetched for it (no
    // call, no request to the metadata host), whatever its contract would answer.
    let before = hits.load(Ordering::SeqCst);
    for path in [badge_path(999), format!("/v1/nft/image/{DEV}/{BADGE}/0"), format!("/v1/nft/image/{DEV}/{YOU}/1"), format!("/v1/nft/image/{DEV}/{ITEMS}/2")] {
        let res = node.image(&path, None).await;
        assert_eq!(res.status(), 404, "{path}");
        let body: Value = res.json().await.unwrap();
        assert!(body["error"]["message"].as_str().unwrap().contains("index"), "{path}: {body}");
    }
    assert_eq!(hits.load(Ordering::SeqCst), before, "no fetch for tokens not indexed");
    // Refused metadata, said by the image route: too large, not JSON by its type, too slow.
    for (n, why) in [(4, "larger than 262144 bytes"), (5, "media type text/html is not allowed"), (6, "no answer within the time allowed")] {
        let res = node.image(&badge_path(n), None).await;
        assert_eq!(res.status(), 502, "#{n}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"]["code"], "upstream_unavailable");
        assert_eq!(body["error"]["message"], format!("the token's metadata could not be fetched: {why}"), "#{n}");
    }

    // Transfers away: the badge is gone, the item's amount is what is left.
    send(a, OWNER, BADGE, format!("0x23b872dd{}{}{}", word(address(OWNER)), word(address(YOU)), word(uint(2)))).await;
    let args = DynSolValue::Tuple(vec![address(OWNER), address(YOU), uint(1), uint(2), DynSolValue::Bytes(vec![])]).abi_encode_params();
    send(a, OWNER, ITEMS, format!("0xf242432a{}", alloy_primitives::hex::encode(args))).await;
    let (theirs, _) = node.wait_for(YOU, &[id(ITEMS, 1), id(BADGE, 2)]).await;
    assert_eq!((&theirs[0]["amount"], &theirs[1]["name"]), (&json!("2"), &json!("Sigil Badge #2")));
    let (items, _) = node.all(OWNER).await;
    let mut left = want.clone();
    left.retain(|i| *i != id(BADGE, 2));
    assert_eq!(items.iter().map(|i| i["id"].as_str().unwrap().to_owned()).collect::<Vec<_>>(), left);
    assert_eq!(by_token(&items, ITEMS, 1)["amount"], "3");
    // All of an ERC-1155 sent away: gone from the list (received 5, sent 2 + 3), the other's 5.
    let args = DynSolValue::Tuple(vec![address(OWNER), address(YOU), uint(1), uint(3), DynSolValue::Bytes(vec![])]).abi_encode_params();
    send(a, OWNER, ITEMS, format!("0xf242432a{}", alloy_primitives::hex::encode(args))).await;
    let (theirs, _) = node.wait_for(YOU, &[id(ITEMS, 1), id(BADGE, 2)]).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while node.all(YOU).await.0[0]["amount"] != "5" {
        assert!(Instant::now() < deadline, "{theirs:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    left.retain(|i| *i != id(ITEMS, 1));
    node.wait_for(OWNER, &left).await;

    // Bad input: 400s naming the parameter; a chain not indexed is empty.
    for (url, param) in [
        (node.nfts_url("0x12", ""), "address"),
        (format!("{}/v1/account/{OWNER}/nfts?projectId={}&chainId=nope", node.base, node.project), "chainId"),
        (format!("{}/v1/account/{OWNER}/nfts?projectId={}", node.base, node.project), "chainId"),
        (format!("{}/v1/account/{OWNER}/nfts?projectId={}&chainId=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", node.base, node.project), "address"),
        (node.nfts_url(OWNER, "&cursor=zzz"), "cursor"),
        (format!("{}/v1/nft/image/{DEV}/0x12/1", node.base), "contract"),
        (format!("{}/v1/nft/image/{DEV}/{BADGE}/abc", node.base), "tokenId"),
        (format!("{}/v1/nft/image/{DEV}/{BADGE}/{}", node.base, "9".repeat(80)), "tokenId"),
        (format!("{}/v1/nft/image/nope/{BADGE}/1", node.base), "chainId"),
    ] {
        let (status, body) = node.get(&url).await;
        assert_eq!(status, 400, "{url}: {body}");
        assert!(body["error"]["message"].as_str().unwrap().contains(&format!("'{param}'")), "{url}: {body}");
    }
    let solana = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
    for (chain, address) in [("eip155:1", OWNER), (solana, "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM")] {
        let (status, body) = node.get(&format!("{}/v1/account/{address}/nfts?projectId={}&chainId={chain}", node.base, node.project)).await;
        assert_eq!((status, body), (200, json!({"data": [], "next": null})), "{chain}");
    }
    assert_eq!(node.image(&format!("/v1/nft/image/{solana}/{BADGE}/1"), None).await.status(), 404, "no EVM chain");
    let (status, _) = node.get(&format!("{}/v1/account/{OWNER}/nfts?chainId={DEV}", node.base)).await;
    assert_eq!(status, 400, "the project id is required");
    assert_eq!(node.image(&format!("/v1/nft/image/eip155:999/{BADGE}/1"), None).await.status(), 404);
    node.server.stop().await.unwrap();
}

/// With private hosts refused (the default), metadata on 127.0.0.1 is never fetched: the
/// holdings show the collection's name and no image, and the image route says why.
async fn private_hosts_refused(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let (gateway, hits) = start_metadata_server().await;
    let a = &anvil.url;
    let direct = deploy(a, "SigilBadge", &format!("http://{gateway}/ipfs/sigil-dev/badge/")).await;
    // The same host by name: refused once DNS answers with a loopback address.
    let named = deploy(a, "SigilBadge", &format!("http://localhost:{}/ipfs/sigil-dev/badge/", gateway.port())).await;
    mint_badge(a, OWNER).await;
    send(a, YOU, &direct, format!("0x6a627842{}", word(address(OWNER)))).await;
    send(a, YOU, &named, format!("0x6a627842{}", word(address(OWNER)))).await;
    let Some(node) = start(backend, &dir, |url| config(url, a, &deployed, gateway, false)).await else { return };
    let want = vec![id(&named, 1), id(&direct, 1), id(BADGE, 3), id(ITEMS, 1), id(BADGE, 2), id(BADGE, 1)];
    let (items, _) = node.wait_for(OWNER, &want).await;
    for contract in [&named, &direct] {
        let first = by_token(&items, contract, 1);
        assert_eq!((&first["name"], &first["image"]), (&json!("Sigil Badge #1"), &Value::Null), "{contract}");
    }
    assert_eq!(by_token(&items, BADGE, 1)["image"], Value::Null);
    for path in [format!("/v1/nft/image/{DEV}/{named}/1"), format!("/v1/nft/image/{DEV}/{direct}/1"), format!("/v1/nft/image/{DEV}/{BADGE}/1")] {
        let res = node.image(&path, None).await;
        assert_eq!(res.status(), 502);
        let body: Value = res.json().await.unwrap();
        assert!(body["error"]["message"].as_str().unwrap().contains("private, loopback or link-local"), "{path}: {body}");
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0, "nothing reached the private host");
    node.server.stop().await.unwrap();
}

/// The holdings route takes the project's upstream budget: one call for the page, one more for
/// each token whose metadata it fetches. At 1 a second nothing is left for metadata (names fall
/// back, no images, nothing fetched), and a second page at once is 429.
async fn metadata_within_the_budget(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let (gateway, hits) = start_metadata_server().await;
    let a = &anvil.url;
    let Some(node) = start(backend, &dir, |url| {
        let mut c = config(url, a, &deployed, gateway, true);
        c.rpc.requests_per_second = 1;
        c
    })
    .await
    else {
        return;
    };
    let want = vec![id(ITEMS, 1), id(BADGE, 2), id(BADGE, 1)];
    let deadline = Instant::now() + Duration::from_secs(60);
    let items = loop {
        tokio::time::sleep(Duration::from_millis(1100)).await;
        let (status, body) = node.get(&node.nfts_url(OWNER, "")).await;
        assert_eq!(status, 200, "{body}");
        let items = body["data"].as_array().unwrap().clone();
        if items.iter().map(|i| i["id"].as_str().unwrap().to_owned()).collect::<Vec<_>>() == want {
            break items;
        }
        assert!(Instant::now() < deadline, "{body}");
    };
    for (item, name) in items.iter().zip(["#1", "Sigil Badge #2", "Sigil Badge #1"]) {
        assert_eq!((&item["name"], &item["image"]), (&json!(name), &Value::Null), "{item}");
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0, "no metadata fetched beyond the budget");
    let res = reqwest::get(node.nfts_url(OWNER, "")).await.unwrap();
    assert_eq!(res.status(), 429);
    assert!(res.headers().contains_key(header::RETRY_AFTER));
    node.server.stop().await.unwrap();
}

both_backends!(holdings_metadata_and_images, private_hosts_refused, metadata_within_the_budget);
