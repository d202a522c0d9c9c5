//! Wallet directory API against a real server, on SQLite and PostgreSQL.

mod common;

use std::collections::HashSet;

use common::{Backend, TestServer};
use serde_json::{json, Value};

both_backends!(
    paging_covers_the_filtered_set,
    filters,
    search,
    bad_parameters,
    project_gate,
    cors,
    images,
    icon_set,
    origins_and_config,
    reloads_after_an_import
);

const ORIGINS: &[&str] = &["http://localhost:5173", "https://*.a.com"];

fn ids(v: &Value) -> Vec<String> {
    v["data"].as_array().unwrap().iter().map(|w| w["id"].as_str().unwrap().to_owned()).collect()
}

async fn all_pages(s: &TestServer, query: &str, entries: u32) -> (i64, Vec<Value>) {
    let mut out = Vec::new();
    let mut page = 1;
    let mut count;
    loop {
        let (status, body) = s.get_json(&s.api(&format!("/getWallets?page={page}&entries={entries}{query}"))).await;
        assert_eq!(status, 200, "{body}");
        count = body["count"].as_i64().unwrap();
        let data = body["data"].as_array().unwrap().clone();
        if data.is_empty() {
            break;
        }
        assert!(data.len() <= entries as usize);
        out.extend(data);
        page += 1;
    }
    (count, out)
}

async fn paging_covers_the_filtered_set(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let (status, first) = s.get_json(&s.api("/getWallets")).await;
    assert_eq!(status, 200);
    assert_eq!(
        first["count"], 659,
        "793 records less 100 without id or homepage, 3 with an id seen before, and 31 merged into another record of the same wallet"
    );
    assert_eq!(first["data"].as_array().unwrap().len(), 40, "default page size");

    let (count, all) = all_pages(&s, "", 40).await;
    assert_eq!(all.len() as i64, count);
    // One wallet, one entry: the only name listed twice is Keeper, two different wallets (keeper-wallet.app and Tonkeeper).
    let mut names: Vec<String> = all.iter().map(|w| w["name"].as_str().unwrap().to_lowercase()).collect();
    names.sort();
    let twice: Vec<&String> = names.windows(2).filter(|p| p[0] == p[1]).map(|p| &p[0]).collect();
    assert_eq!(twice, ["keeper"]);
    let unique: HashSet<&str> = all.iter().map(|w| w["id"].as_str().unwrap()).collect();
    assert_eq!(unique.len(), all.len(), "no duplicates across pages");

    // Ordered by `order` (nulls last), then name case-insensitively.
    let key = |w: &Value| (w["order"].is_null(), w["order"].as_i64().unwrap_or(0), w["name"].as_str().unwrap().to_lowercase());
    for pair in all.windows(2) {
        assert!(key(&pair[0]) <= key(&pair[1]), "{} before {}", pair[0]["name"], pair[1]["name"]);
    }
    assert_eq!(all[0]["name"], "MetaMask");

    // Another page size gives the same sequence.
    let (_, by_7) = all_pages(&s, "", 7).await;
    assert_eq!(by_7.iter().map(|w| &w["id"]).collect::<Vec<_>>(), all.iter().map(|w| &w["id"]).collect::<Vec<_>>());

    // Past the end: empty page, same count.
    let (status, past) = s.get_json(&s.api("/getWallets?page=99&entries=100")).await;
    assert_eq!((status, past["count"].as_i64().unwrap(), past["data"].as_array().unwrap().len()), (200, 659, 0));

    // Every field of the record is present.
    let mm = &all[0];
    for field in [
        "id",
        "name",
        "image_id",
        "image_url",
        "rdns",
        "homepage",
        "mobile_link",
        "desktop_link",
        "webapp_link",
        "app_store",
        "play_store",
        "chrome_store",
        "injected",
        "chains",
        "order",
    ] {
        assert!(mm.get(field).is_some(), "field {field} missing");
    }
    assert_eq!(mm["rdns"], "io.metamask");
    // Absolute, on the configured public URL (default http://<listen>).
    assert_eq!(mm["image_url"], "http://127.0.0.1:8080/getWalletImage/e30d09fe-c0dd-4b61-81e2-d6dc09eb9700");
    s.stop().await;
}

async fn filters(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let metamask = "c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96";

    let (_, body) = s.get_json(&s.api(&format!("/getWallets?include={metamask}"))).await;
    assert_eq!((body["count"].as_i64(), ids(&body)), (Some(1), vec![metamask.to_owned()]));

    let (_, body) = s.get_json(&s.api(&format!("/getWallets?exclude={metamask}&entries=100"))).await;
    assert_eq!(body["count"], 658);
    assert!(!ids(&body).contains(&metamask.to_owned()));

    // chains: every result supports at least one of the requested chains; counts differ by chain.
    let sol = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
    let (count, wallets) = all_pages(&s, &format!("&chains={sol}"), 100).await;
    assert!(count > 10 && count < 659, "{count}");
    assert!(wallets.iter().all(|w| w["chains"].as_array().unwrap().iter().any(|c| c == sol)));
    let (both, _) = all_pages(&s, &format!("&chains={sol},eip155:1"), 100).await;
    assert!(both > count);

    let (_, body) = s.get_json(&s.api("/getWallets?rdns=io.metamask")).await;
    assert_eq!(ids(&body), vec![metamask.to_owned()]);

    let (_, none) = s.get_json(&s.api("/getWallets?badge_type=none")).await;
    assert_eq!(none["count"], 659);
    let (_, certified) = s.get_json(&s.api("/getWallets?badge_type=certified")).await;
    assert_eq!(certified["count"], 0);
    s.stop().await;
}

async fn search(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let (_, upper) = s.get_json(&s.api("/getWallets?search=METAMASK")).await;
    let names: Vec<&str> = upper["data"].as_array().unwrap().iter().map(|w| w["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"MetaMask"), "{names:?}");
    // rdns is searched too.
    let (_, by_rdns) = s.get_json(&s.api("/getWallets?search=io.metamask")).await;
    assert_eq!(by_rdns["data"][0]["name"], "MetaMask");
    // LIKE wildcards are literal.
    let (_, pct) = s.get_json(&s.api("/getWallets?search=%25")).await;
    assert_eq!(pct["count"], 0);
    // At most 100 results, however many match.
    let (count, all) = all_pages(&s, "&search=a", 30).await;
    assert_eq!(count, 100);
    assert_eq!(all.len(), 100);
    assert!(all.iter().all(|w| format!("{} {}", w["name"].as_str().unwrap(), w["rdns"].as_str().unwrap_or("")).to_lowercase().contains('a')));
    s.stop().await;
}

async fn bad_parameters(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    for (query, param) in [
        ("page=0", "page"),
        ("page=x", "page"),
        ("entries=0", "entries"),
        ("entries=101", "entries"),
        ("include=xyz", "include"),
        ("exclude=123", "exclude"),
        ("chains=eip155", "chains"),
        ("badge_type=gold", "badge_type"),
        ("rdns=a%20b", "rdns"),
        ("sv=%01", "sv"),
    ] {
        let (status, body) = s.get_json(&s.url(&format!("/getWallets?{query}&projectId={}", s.project))).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["error"]["code"], "invalid_parameter");
        let msg = body["error"]["message"].as_str().unwrap();
        assert!(msg.starts_with(&format!("Invalid parameter '{param}'")), "{query}: {msg}");
    }
    s.stop().await;
}

async fn project_gate(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    for path in ["/getWallets", "/getAnalyticsConfig", "/projects/v1/origins", "/v1/supported-chains", "/auth/v1/nonce"] {
        let (status, body) = s.get_json(&s.url(path)).await;
        assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Project ID Not Configured")), "{path}");
        let (status, body) = s.get_json(&s.url(&format!("{path}?projectId=00000000000000000000000000000000"))).await;
        assert_eq!((status, body["error"]["message"].as_str()), (403, Some("Invalid Project ID")), "{path}");
        let (status, _) = s.get_json(&s.url(&format!("{path}?projectId=not-an-id"))).await;
        assert_eq!(status, 403);
    }
    s.stop().await;
}

async fn cors(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let get = |origin: &'static str| s.http.get(s.api("/getWallets?entries=1")).header("Origin", origin).send();

    let res = get("http://localhost:5173").await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["access-control-allow-origin"], "http://localhost:5173");

    let res = get("https://shop.a.com").await.unwrap();
    assert_eq!(res.headers()["access-control-allow-origin"], "https://shop.a.com");

    for bad in ["https://a.com", "http://localhost:5174", "https://evil.example"] {
        let res = get(bad).await.unwrap();
        assert_eq!(res.status(), 403, "{bad}");
        assert!(res.headers().get("access-control-allow-origin").is_none(), "{bad}");
        assert_eq!(res.headers()["vary"], "Origin", "{bad}");
    }

    let preflight = |origin: &'static str| {
        s.http
            .request(reqwest::Method::OPTIONS, s.api("/e"))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "content-type")
            .send()
    };
    let res = preflight("http://localhost:5173").await.unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(res.headers()["access-control-allow-origin"], "http://localhost:5173");
    assert!(res.headers()["access-control-allow-methods"].to_str().unwrap().contains("POST"));
    // The headers the API reads, never an echo of what was asked.
    assert_eq!(res.headers()["access-control-allow-headers"], "Content-Type, Authorization, X-Request-Id");
    assert_eq!(res.headers()["vary"], "Origin");
    let res = preflight("https://evil.example").await.unwrap();
    assert_eq!(res.status(), 403);
    assert!(res.headers().get("access-control-allow-origin").is_none());

    // A project that allows any origin answers every origin.
    let open = sigil_server::projects::create(&s.db, "Open", &["*".to_owned()], Default::default()).await.unwrap();
    let res = s.http.get(s.url(&format!("/getWallets?entries=1&projectId={}", open.id))).header("Origin", "https://anything.example").send().await.unwrap();
    assert_eq!(res.headers()["access-control-allow-origin"], "https://anything.example");
    // ...that is a web origin: never null (sandboxed frames, file pages) nor other strings.
    for not_an_origin in ["null", "file://", "chrome-extension://abcdef", "hello", "https://a.com/path"] {
        let res = s.http.get(s.url(&format!("/getWallets?entries=1&projectId={}", open.id))).header("Origin", not_an_origin).send().await.unwrap();
        assert_eq!(res.status(), 403, "{not_an_origin}");
        assert!(res.headers().get("access-control-allow-origin").is_none(), "{not_an_origin}");
    }
    s.stop().await;
}

async fn images(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    // MetaMask has a real logo in the data.
    let res = s.http.get(s.api("/getWalletImage/e30d09fe-c0dd-4b61-81e2-d6dc09eb9700")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/jpeg");
    assert!(res.headers()["cache-control"].to_str().unwrap().contains("max-age"));
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let bytes = res.bytes().await.unwrap();
    let file = std::fs::read(common::repo_root().join("data/wallet-logos/c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96.jpeg")).unwrap();
    assert_eq!(bytes.as_ref(), file.as_slice());
    let res = s.http.get(s.api("/getWalletImage/e30d09fe-c0dd-4b61-81e2-d6dc09eb9700")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(res.status(), 304);
    assert!(res.bytes().await.unwrap().is_empty());

    // Every image_url of the directory loads as it is, as an <img> fetches it: no project id,
    // no header; the same bytes, with the validators and long caching.
    let (_, body) = s.get_json(&s.api("/getWallets?entries=100")).await;
    let mm = body["data"].as_array().unwrap().iter().find(|w| w["name"] == "MetaMask").unwrap().clone();
    let as_is = mm["image_url"].as_str().unwrap().replace("http://127.0.0.1:8080", &s.base);
    let res = reqwest::get(&as_is).await.unwrap();
    assert_eq!((res.status().as_u16(), res.headers()["content-type"].to_str().unwrap()), (200, "image/jpeg"), "{as_is}");
    assert_eq!(res.headers()["etag"].to_str().unwrap(), etag);
    assert_eq!(res.headers()["cache-control"], "public, max-age=86400");
    assert_eq!(res.bytes().await.unwrap().as_ref(), file.as_slice());
    let res = reqwest::Client::new().get(&as_is).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(res.status(), 304);
    for w in body["data"].as_array().unwrap() {
        let url = w["image_url"].as_str().unwrap().replace("http://127.0.0.1:8080", &s.base);
        assert_eq!(reqwest::get(&url).await.unwrap().status(), 200, "{url}");
    }

    // A wallet without a logo file gets a generated SVG with its initials, by image id or wallet id.
    let (_, body) = s.get_json(&s.api("/getWallets?entries=100&page=7")).await;
    let mut checked = 0;
    for w in body["data"].as_array().unwrap() {
        let res = s.http.get(s.api(&format!("/getWalletImage/{}", w["image_id"].as_str().unwrap()))).send().await.unwrap();
        assert_eq!(res.status(), 200, "{}", w["name"]);
        if res.headers()["content-type"] == "image/svg+xml" {
            // A generated SVG can run nothing, even opened on its own.
            assert_eq!(res.headers()["content-security-policy"], "default-src 'none'; style-src 'unsafe-inline'; sandbox");
            assert_eq!(res.headers()["x-content-type-options"], "nosniff");
            let svg = res.text().await.unwrap();
            assert!(svg.starts_with("<svg"));
            let by_id = s.http.get(s.api(&format!("/getWalletImage/{}", w["id"].as_str().unwrap()))).send().await.unwrap().text().await.unwrap();
            assert_eq!(svg, by_id);
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");

    let (status, body) = s.get_json(&s.api("/getWalletImage/does-not-exist")).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("not_found")));

    for (path, known, unknown) in
        [("/public/getAssetImage", "eip155:1", "eip155:999999"), ("/public/getCurrencyImage", "USD", "XXX"), ("/public/getTokenImage", "ETH", "NOPE")]
    {
        let res = s.http.get(s.api(&format!("{path}/{known}"))).send().await.unwrap();
        assert_eq!((res.status().as_u16(), res.headers()["content-type"].to_str().unwrap()), (200, "image/svg+xml"), "{path}");
        let etag = res.headers()["etag"].to_str().unwrap().to_owned();
        let again = s.http.get(s.api(&format!("{path}/{known}"))).header("If-None-Match", &etag).send().await.unwrap();
        assert_eq!(again.status(), 304);
        assert_eq!(s.http.get(s.api(&format!("{path}/{unknown}"))).send().await.unwrap().status(), 404, "{path}");
    }
    s.stop().await;
}

/// GET `path` as an <img> would: (status, content type, bytes).
async fn fetch_image(s: &TestServer, path: &str) -> (u16, String, Vec<u8>) {
    let res = s.http.get(s.api(path)).send().await.unwrap();
    let content_type = res.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (res.status().as_u16(), content_type, res.bytes().await.unwrap().to_vec())
}

/// Networks, tokens and wallets show the icon set's SVG (data/icons, from @web3icons/core), the
/// dev chain its own; the generated initials only where the set has nothing.
async fn icon_set(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let icons = common::repo_root().join("data/icons");
    let file = |rel: &str| std::fs::read(icons.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let svg = "image/svg+xml".to_owned();

    for (id, rel) in [
        ("eip155:1", "networks/ethereum.svg"),
        ("ethereum", "networks/ethereum.svg"),
        ("eip155:42161", "networks/arbitrum-one.svg"),
        ("arbitrum", "networks/arbitrum-one.svg"),
        ("eip155:137", "networks/polygon.svg"),
        ("polygon", "networks/polygon.svg"),
        ("solana", "networks/solana.svg"),
        ("bitcoin", "networks/bitcoin.svg"),
        ("eip155:31337", "sigil/sigil-dev.svg"),
        ("sigil-dev", "sigil/sigil-dev.svg"),
    ] {
        assert_eq!(fetch_image(&s, &format!("/public/getAssetImage/{id}")).await, (200, svg.clone(), file(rel)), "{id}");
    }
    assert_ne!(file("sigil/sigil-dev.svg"), file("networks/ethereum.svg"), "the dev chain has its own icon");

    // Tokens by symbol (any case) or by address (an ERC-20 in any case, a Solana mint).
    for id in [
        "USDC",
        "usdc",
        "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
        "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
        "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    ] {
        assert_eq!(fetch_image(&s, &format!("/public/getTokenImage/{id}")).await, (200, svg.clone(), file("tokens/USDC.svg")), "{id}");
    }
    assert_eq!(fetch_image(&s, "/public/getTokenImage/ETH").await, (200, svg.clone(), file("tokens/ETH.svg")));

    // The icon's validators and caching, like every image route.
    let res = s.http.get(s.api("/public/getAssetImage/eip155:42161")).send().await.unwrap();
    assert_eq!(res.headers()["cache-control"], "public, max-age=86400");
    assert_eq!(res.headers()["content-security-policy"], "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let again = s.http.get(s.api("/public/getAssetImage/eip155:42161")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);

    // What the set does not have: the generated initials (a token and a network the catalogue
    // knows), and 404 for what nobody knows.
    let (status, content_type, body) = fetch_image(&s, "/public/getTokenImage/SGL").await;
    assert_eq!((status, content_type), (200, svg.clone()));
    assert!(String::from_utf8(body).unwrap().contains(">ST</text>"), "Sigil Token's initials");
    let (_, _, weth) = fetch_image(&s, "/public/getTokenImage/WETH").await;
    assert!(String::from_utf8(weth).unwrap().contains(">WE</text>"));
    let (_, _, polkadot) = fetch_image(&s, "/public/getAssetImage/polkadot").await;
    assert_eq!(polkadot, file("networks/polkadot.svg"));
    let (_, _, sepolia) = fetch_image(&s, "/public/getAssetImage/eip155:11155111").await;
    assert_eq!(sepolia, file("networks/ethereum.svg"), "a test network shows its chain's icon");
    assert_eq!(fetch_image(&s, "/public/getTokenImage/0x0000000000000000000000000000000000000bad").await.0, 404);

    // A directory wallet with no logo file that the set has (Phantom): the set's icon, by image
    // id and by wallet id; a wallet with the same name but another site (SafeWallet is not Safe)
    // keeps its initials; a logo file still wins (MetaMask, see `images`).
    let wallet = |name: &'static str| {
        let s = &s;
        async move {
            let (_, body) = s.get_json(&s.api(&format!("/getWallets?search={name}"))).await;
            body["data"].as_array().unwrap().iter().find(|w| w["name"] == name).unwrap_or_else(|| panic!("{name}: {body}")).clone()
        }
    };
    let phantom = wallet("Phantom").await;
    for id in [&phantom["image_id"], &phantom["id"]] {
        assert_eq!(fetch_image(&s, &format!("/getWalletImage/{}", id.as_str().unwrap())).await, (200, svg.clone(), file("wallets/phantom.svg")));
    }
    let safe = wallet("Safe").await;
    assert_eq!(fetch_image(&s, &format!("/getWalletImage/{}", safe["image_id"].as_str().unwrap())).await.2, file("wallets/safe.svg"));
    let other = wallet("SafeWallet").await;
    let (status, content_type, body) = fetch_image(&s, &format!("/getWalletImage/{}", other["image_id"].as_str().unwrap())).await;
    assert_eq!((status, content_type), (200, svg.clone()));
    assert!(String::from_utf8(body).unwrap().contains(">SA</text>"), "SafeWallet's initials");
    let (_, content_type, _) = fetch_image(&s, "/getWalletImage/e30d09fe-c0dd-4b61-81e2-d6dc09eb9700").await;
    assert_eq!(content_type, "image/jpeg", "MetaMask's logo file, not the set's icon");
    s.stop().await;
}

async fn origins_and_config(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let (status, body) = s.get_json(&s.api("/projects/v1/origins")).await;
    assert_eq!(status, 200);
    assert_eq!(body, serde_json::json!({"allowedOrigins": ["http://localhost:5173", "https://*.a.com"]}));
    let (_, body) = s.get_json(&s.api("/getAnalyticsConfig")).await;
    assert_eq!(body, serde_json::json!({"isAnalyticsEnabled": true}));
    let off = sigil_server::projects::create(&s.db, "Quiet", &["*".to_owned()], sigil_server::projects::Features { analytics: false }).await.unwrap();
    let (_, body) = s.get_json(&s.url(&format!("/getAnalyticsConfig?projectId={}", off.id))).await;
    assert_eq!(body, serde_json::json!({"isAnalyticsEnabled": false}));
    s.stop().await;
}

async fn reloads_after_an_import(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let (_, before) = s.get_json(&s.api("/getWallets?search=zeta%20test")).await;
    assert_eq!(before["count"], 0);
    // Another process imports a directory with one wallet more (here the same function on the
    // same database); the server sees the new version and serves it, without a restart.
    let text = std::fs::read_to_string(common::wallets_file()).unwrap();
    let mut records: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut extra = records[0].clone();
    extra["id"] = json!("ab".repeat(32));
    extra["name"] = json!("Zeta Test Wallet");
    extra["rdns"] = json!("dev.sigil.zeta");
    extra["order"] = json!(null);
    records.push(extra);
    let report = sigil_server::directory::import::import_records(&s.db, records, common::wallets_file().parent().unwrap()).await.unwrap();
    assert_eq!(report.inserted, 1);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let (_, found) = s.get_json(&s.api("/getWallets?search=zeta%20test")).await;
        if found["count"] == 1 {
            assert_eq!(found["data"][0]["rdns"], "dev.sigil.zeta");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the import was not served within 15 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (_, all) = s.get_json(&s.api("/getWallets")).await;
    assert_eq!(all["count"], 660);
    s.stop().await;
}
