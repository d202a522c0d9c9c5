//! An existing AppKit site pointed at Sigil: the shapes the AppKit client (up to 1.8.0) reads
//! and sends, against a real server. What it asks at start (`/appkit/v1/config`), its network
//! and connector image ids, its analytics event, its price request (projectId in the body
//! only) and its balances (tokens as CAIP-10 ids: tests/rpc.rs).

mod common;

use common::{Backend, TestServer};
use serde_json::{json, Value};
use sigil_server::appkit::ids::{Target, IMAGE_IDS};

const SITE: &str = "https://shop.example";

async fn server(tweak: impl FnOnce(&mut sigil_server::config::Config)) -> TestServer {
    TestServer::start_with(Backend::Sqlite, &[SITE], tweak).await.unwrap()
}

/// GET as the AppKit client does: projectId, st and sv in the query, from the site's origin.
async fn get(s: &TestServer, path: &str) -> reqwest::Response {
    let url = s.url(&format!("{path}?projectId={}&st=appkit&sv=html-wagmi-1.8.0", s.project));
    s.http.get(url).header("Origin", SITE).send().await.unwrap()
}

fn feature<'a>(body: &'a Value, id: &str) -> &'a Value {
    body["features"].as_array().unwrap().iter().find(|f| f["id"] == id).unwrap_or_else(|| panic!("{id} in {body}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_gives_the_features_this_server_serves() {
    // The built-in chains have swap sources; no onramp provider; the tests' history is off.
    let s = server(|_| {}).await;
    let res = get(&s, "/appkit/v1/config").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["access-control-allow-origin"], SITE);
    let body: Value = res.json().await.unwrap();
    let ids: Vec<&str> = body["features"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "activity",
            "swap",
            "onramp",
            "multi_wallet",
            "social_login",
            "reown_branding",
            "email_capture",
            "fund_from_exchange",
            "payments",
            "reown_authentication"
        ]
    );
    assert_eq!(*feature(&body, "swap"), json!({"id": "swap", "isEnabled": true, "config": ["1inch"]}));
    assert_eq!(*feature(&body, "multi_wallet"), json!({"id": "multi_wallet", "isEnabled": true, "config": []}));
    // Not served here: off, with an empty list (a null config would hand the choice back to
    // the site's own options).
    for id in ["activity", "onramp", "social_login", "reown_branding", "email_capture", "fund_from_exchange", "payments", "reown_authentication"] {
        assert_eq!(*feature(&body, id), json!({"id": id, "isEnabled": false, "config": []}));
    }
    // Without a project, refused like every project route.
    assert_eq!(s.http.get(s.url("/appkit/v1/config")).send().await.unwrap().status(), 400);
    s.stop().await;

    // The operator's list narrows what is served; history on turns activity on.
    let s = server(|c| {
        c.chains = Default::default();
        c.settings.history.enabled = true;
        c.settings.appkit.features = "activity,onramp".into();
    })
    .await;
    let body: Value = get(&s, "/appkit/v1/config").await.json().await.unwrap();
    assert_eq!(*feature(&body, "activity"), json!({"id": "activity", "isEnabled": true, "config": []}));
    for id in ["swap", "onramp", "multi_wallet"] {
        assert_eq!(feature(&body, id)["isEnabled"], false, "{id}");
    }
    s.stop().await;
}

#[test]
fn the_features_setting_is_checked() {
    let mut args = sigil_server::config::ServeArgs::default();
    args.settings.appkit_features = Some("swap,social_login".into());
    let err = sigil_server::config::Config::from_args(&args).unwrap_err().to_string();
    assert!(err.contains("appkit-features (SIGIL_APPKIT_FEATURES)") && err.contains("'social_login'"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn network_and_connector_image_ids() {
    let s = server(|_| {}).await;
    let icons = common::repo_root().join("data/icons");
    let file = |rel: &str| std::fs::read(icons.join(rel)).unwrap();
    let bytes = |res: reqwest::Response| async move { res.bytes().await.unwrap().to_vec() };

    for image in IMAGE_IDS {
        let res = get(&s, &format!("/public/getAssetImage/{}", image.id)).await;
        assert_eq!(res.status(), 200, "{}", image.id);
        assert_eq!(res.headers()["content-type"], "image/svg+xml");
        // The client reads it with fetch() from the site's origin.
        assert_eq!(res.headers()["access-control-allow-origin"], "*");
        if let Target::Network(caip2) = image.target {
            // The same image as the network's own id gives, when that one is known.
            let direct = get(&s, &format!("/public/getAssetImage/{caip2}")).await;
            if direct.status() == 200 {
                assert_eq!(bytes(res).await, bytes(direct).await, "{} = {caip2}", image.id);
            }
        }
    }
    let image = |id: &'static str| {
        let s = &s;
        async move { bytes(get(s, &format!("/public/getAssetImage/{id}")).await).await }
    };
    // Ethereum, Solana and Bitcoin (also the namespaces' ids), and the Coinbase and Ledger connectors.
    assert_eq!(image("ba0ba0cd-17c6-4806-ad93-f9d174f17900").await, file("networks/ethereum.svg"));
    assert_eq!(image("a1b58899-f671-4276-6a5e-56ca5bd59700").await, file("networks/solana.svg"));
    assert_eq!(image("0b4838db-0161-4ffe-022d-532bf03dba00").await, file("networks/bitcoin.svg"));
    assert_eq!(image("0c2840c3-5b04-4c44-9661-fbd4b49e1800").await, file("wallets/coinbase.svg"));
    assert_eq!(image("54a1aa77-d202-4f8d-0fb2-5d2bb6db0300").await, file("wallets/ledger.svg"));
    // WalletConnect and the browser wallet: generated, not one of the set's.
    assert!(String::from_utf8(image("ef1a1fcf-7fe8-4d69-bd6d-fda1345b4400").await).unwrap().starts_with("<svg"));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analytics_event_as_the_client_posts_it() {
    let s = server(|_| {}).await;
    // No Content-Type (a plain string body), the sdk in the query, the event's own shape.
    let url = s.url(&format!("/e?projectId={}&st=appkit&sv=html-wagmi-1.8.0", s.project));
    let event = json!({
        "eventId": "6f1c2a4e-3b5d-4c7e-9f80-1a2b3c4d5e6f",
        "url": "https://shop.example/checkout?step=2",
        "domain": "shop.example",
        "timestamp": 1_790_000_000_000_i64,
        "props": {"type": "track", "event": "MODAL_OPEN", "address": null, "properties": {"connected": false, "caipNetworkId": "eip155:1"}}
    });
    let res = s.http.post(&url).header("Origin", SITE).body(event.to_string()).send().await.unwrap();
    assert_eq!(res.status(), 202);
    assert_eq!(res.headers()["access-control-allow-origin"], SITE);
    let stored: (String, Option<String>) =
        sqlx::query_as("SELECT props, sdk_type FROM analytics_events WHERE project_id = $1").bind(&s.project).fetch_one(&s.db).await.unwrap();
    assert_eq!((serde_json::from_str::<Value>(&stored.0).unwrap(), stored.1.as_deref()), (event["props"].clone(), Some("appkit")));

    // Its error reports carry the time as an ISO string.
    let error = json!({
        "eventId": "0b7e1a52-9c3d-4e8f-a1b2-c3d4e5f60718",
        "url": "https://shop.example/",
        "domain": "shop.example",
        "timestamp": "2026-11-27T04:40:00.125Z",
        "props": {"type": "error", "event": "API_ERROR", "errorType": "Error", "errorMessage": "x", "stackTrace": "Error: x"}
    });
    let res = s.http.post(&url).header("Origin", SITE).body(error.to_string()).send().await.unwrap();
    assert_eq!(res.status(), 202);
    let (at,): (i64,) = sqlx::query_as("SELECT event_timestamp FROM analytics_events WHERE event_id = $1")
        .bind("0b7e1a52-9c3d-4e8f-a1b2-c3d4e5f60718")
        .fetch_one(&s.db)
        .await
        .unwrap();
    assert_eq!(at, 1_795_754_400_125);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn price_with_the_project_in_the_body_only() {
    let s = server(|c| c.chains = Default::default()).await;
    let price = |origin: &'static str, body: Value| {
        let s = &s;
        async move {
            let res = s.http.post(s.url("/v1/fungible/price")).header("Origin", origin).json(&body).send().await.unwrap();
            let status = res.status().as_u16();
            let allow = res.headers().get("access-control-allow-origin").map(|v| v.to_str().unwrap().to_owned());
            (status, allow, res.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let asked = json!({"currency": "usd", "addresses": ["eip155:1:native"], "projectId": s.project});
    assert_eq!(price(SITE, asked.clone()).await, (200, Some(SITE.to_owned()), json!({"fungibles": []})));
    // Still the project's gate: its origins, a project that exists, a project at all.
    assert_eq!(price("https://other.example", asked).await.0, 403);
    assert_eq!(price(SITE, json!({"currency": "usd", "addresses": [], "projectId": "0".repeat(32)})).await.0, 403);
    let (status, _, body) = price(SITE, json!({"currency": "usd", "addresses": []})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Project ID Not Configured")));

    // Its swap transaction names the project the same way: the gate lets it through to the
    // route (which says what is wrong with the swap itself).
    let swap = json!({"amount": "1", "eip155": {"slippage": "1"}, "projectId": s.project, "from": "eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
        "to": "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "userAddress": "eip155:1:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "disableEstimate": false});
    let res = s.http.post(s.url("/v1/convert/build-transaction")).header("Origin", SITE).json(&swap).send().await.unwrap();
    assert_eq!(res.headers()["access-control-allow-origin"], SITE);
    let body: Value = res.json().await.unwrap();
    assert_ne!(body["error"]["message"], "Project ID Not Configured", "{body}");

    // Its preflight (a JSON POST) carries no project: answered so that the POST may be sent.
    let res = s
        .http
        .request(reqwest::Method::OPTIONS, s.url("/v1/fungible/price"))
        .header("Origin", SITE)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(res.headers()["access-control-allow-origin"], SITE);
    assert!(res.headers()["access-control-allow-headers"].to_str().unwrap().contains("Content-Type"));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn balance_refreshed_after_a_swap() {
    // After a swap the client asks again with forceUpdate = the two tokens' CAIP-10 ids. (The
    // tokens' CAIP-10 addresses in the answer: tests/rpc.rs, against a chain.)
    let s = server(|c| c.chains = Default::default()).await;
    let tokens = "eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee,eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
    let url = s.url(&format!(
        "/v1/account/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/balance?currency=usd&chainId=eip155:1&forceUpdate={tokens}&st=appkit&sv=html-wagmi-1.8.0&projectId={}",
        s.project
    ));
    let res = s.http.get(url).header("Origin", SITE).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"balances": []}));
    s.stop().await;
}
