//! Analytics ingest, operations routes, error shapes, import and storage, on SQLite and PostgreSQL.

mod common;

use common::{Backend, TestServer};
use serde_json::{json, Value};
use sqlx::Row;

both_backends!(
    analytics_ingest,
    analytics_rate_limits,
    operations,
    openapi_is_true,
    error_shapes,
    junk_never_breaks_the_server,
    import_reports_and_is_idempotent
);

const ORIGINS: &[&str] = &["http://localhost:5173"];

fn event(kind: &str) -> Value {
    json!({"eventId": uuid::Uuid::new_v4().to_string(), "url": "http://localhost:5173/", "domain": "localhost", "timestamp": 1_763_700_000_000i64,
           "props": {"type": kind, "event": "MODAL_OPEN", "properties": {"connected": false}}})
}

async fn stored_events(s: &TestServer) -> i64 {
    sqlx::query("SELECT COUNT(*) AS n FROM analytics_events").fetch_one(&s.db).await.unwrap().try_get("n").unwrap()
}

async fn analytics_ingest(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let e = event("track");
    let res = s.http.post(s.api("/e")).json(&e).send().await.unwrap();
    assert_eq!(res.status(), 202);
    let row = sqlx::query("SELECT project_id, domain, props, sdk_type, sdk_version, event_timestamp FROM analytics_events").fetch_one(&s.db).await.unwrap();
    assert_eq!(row.try_get::<String, _>("project_id").unwrap(), s.project);
    assert_eq!(row.try_get::<String, _>("domain").unwrap(), "localhost");
    assert_eq!(row.try_get::<String, _>("sdk_type").unwrap(), "sigil");
    assert_eq!(row.try_get::<String, _>("sdk_version").unwrap(), "test");
    assert_eq!(row.try_get::<i64, _>("event_timestamp").unwrap(), 1_763_700_000_000);
    let props: Value = serde_json::from_str(&row.try_get::<String, _>("props").unwrap()).unwrap();
    assert_eq!(props["event"], "MODAL_OPEN");

    // The same event id twice is stored once.
    assert_eq!(s.http.post(s.api("/e")).json(&e).send().await.unwrap().status(), 202);
    assert_eq!(stored_events(&s).await, 1);

    // Bad events name what is wrong and store nothing.
    let mut bad = event("track");
    bad["eventId"] = json!("123");
    let res = s.http.post(s.api("/e")).json(&bad).send().await.unwrap();
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["message"], "Invalid parameter 'eventId': expected a UUID");
    let res = s.http.post(s.api("/e")).body("{not json").send().await.unwrap();
    assert_eq!(res.status(), 400);
    let res = s.http.post(s.api("/e")).json(&json!({"eventId": uuid::Uuid::new_v4().to_string()})).send().await.unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(stored_events(&s).await, 1);

    // A project with analytics off refuses events.
    let off = sigil_server::projects::create(&s.db, "Quiet", &["*".to_owned()], sigil_server::projects::Features { analytics: false }).await.unwrap();
    let res = s.http.post(s.url(&format!("/e?projectId={}", off.id))).json(&event("track")).send().await.unwrap();
    assert_eq!(res.status(), 403);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "analytics_disabled");
    assert_eq!(stored_events(&s).await, 1);
    s.stop().await;
}

async fn analytics_rate_limits(b: Backend) {
    let Some(s) = TestServer::start_with(b, ORIGINS, |c| c.settings.analytics.events_per_minute = 20).await else { return };
    for i in 0..5 {
        assert_eq!(s.http.post(s.api("/e")).json(&event("error")).send().await.unwrap().status(), 202, "error event {i}");
    }
    let res = s.http.post(s.api("/e")).json(&event("error")).send().await.unwrap();
    assert_eq!(res.status(), 429);
    let retry: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    // Other events still pass until the overall limit (20 a minute, 5 used).
    for i in 0..15 {
        assert_eq!(s.http.post(s.api("/e")).json(&event("track")).send().await.unwrap().status(), 202, "track event {i}");
    }
    assert_eq!(s.http.post(s.api("/e")).json(&event("track")).send().await.unwrap().status(), 429);
    assert_eq!(stored_events(&s).await, 20);
    s.stop().await;
}

async fn operations(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let (status, body) = s.get_json(&s.url("/health")).await;
    assert_eq!((status, &body["status"], &body["database"]), (200, &json!("ok"), &json!("ok")));

    for _ in 0..3 {
        s.http.get(s.api("/getWallets?entries=1")).send().await.unwrap();
    }
    s.http.get(s.api("/getWallets?entries=0")).send().await.unwrap();
    let res = s.http.get(s.url("/metrics")).send().await.unwrap();
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let text = res.text().await.unwrap();
    assert!(text.contains("sigil_http_requests_total{method=\"GET\",route=\"/getWallets\",status=\"200\"} 3"), "{text}");
    assert!(text.contains("sigil_http_requests_total{method=\"GET\",route=\"/getWallets\",status=\"400\"} 1"), "{text}");
    assert!(text.contains("sigil_http_request_duration_seconds_count{method=\"GET\",route=\"/getWallets\"} 4"), "{text}");

    // Every response carries a request id; a given one is echoed.
    let res = s.http.get(s.url("/health")).header("x-request-id", "abc-123").send().await.unwrap();
    assert_eq!(res.headers()["x-request-id"], "abc-123");
    let res = s.http.get(s.url("/health")).send().await.unwrap();
    assert_eq!(res.headers()["x-request-id"].len(), 36);

    // Health reports a database that stopped answering.
    s.db.close().await;
    let (status, body) = s.get_json(&s.url("/health")).await;
    assert_eq!((status, &body["database"]), (503, &json!("unavailable")));
    s.stop().await;
}

/// Every route the router serves is in /openapi.json, and every documented path is served.
async fn openapi_is_true(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let (status, doc) = s.get_json(&s.url("/openapi.json")).await;
    assert_eq!(status, 200);
    let paths: Vec<String> = doc["paths"].as_object().unwrap().keys().cloned().collect();
    let expected = [
        "/appkit/v1/config",
        "/auth/v1/authenticate",
        "/auth/v1/nonce",
        "/auth/v1/session",
        "/auth/v1/sessions",
        "/auth/v1/sessions/{id}/revoke",
        "/auth/v1/signout",
        "/e",
        "/getAnalyticsConfig",
        "/getWalletImage/{id}",
        "/getWallets",
        "/health",
        "/metrics",
        "/onramp/sandbox/{sessionId}",
        "/openapi.json",
        "/pay/sandbox/{sessionId}",
        "/projects/v1/origins",
        "/public/getAssetImage/{id}",
        "/public/getCurrencyImage/{id}",
        "/public/getTokenImage/{id}",
        "/relay",
        "/v1",
        "/v1/",
        "/v1/account/{address}/balance",
        "/v1/account/{address}/history",
        "/v1/account/{address}/nfts",
        "/v1/convert/allowance",
        "/v1/convert/build-approve",
        "/v1/convert/build-transaction",
        "/v1/convert/gas-price",
        "/v1/convert/quotes",
        "/v1/convert/tokens",
        "/v1/fungible/price",
        "/v1/generators/onrampurl",
        "/v1/identity/resolve/{name}",
        "/v1/identity/{address}",
        "/v1/json-rpc",
        "/v1/nft/image/{chainId}/{contract}/{tokenId}",
        "/v1/onramp/options",
        "/v1/onramp/quote",
        "/v1/onramp/sessions/{sessionId}",
        "/v1/profile/account",
        "/v1/profile/account/{name}",
        "/v1/profile/gateway",
        "/v1/profile/gateway/{sender}/{data}",
        "/v1/profile/reverse/{address}",
        "/v1/profile/suggestions/{name}",
        "/v1/supported-chains",
        "/v3/attestation",
        "/v3/public-key",
    ];
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(sorted, expected);
    for path in &paths {
        for (method, op) in doc["paths"][path].as_object().unwrap() {
            let concrete = path.replace("{id}", "ETH").replace("{address}", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
            let url = if concrete.starts_with("/health") || concrete.starts_with("/metrics") || concrete.starts_with("/openapi") {
                s.url(&concrete)
            } else {
                s.api(&concrete)
            };
            let req = match method.as_str() {
                "get" => s.http.get(&url),
                "post" => s.http.post(&url).json(&event("track")),
                other => panic!("unexpected method {other}"),
            };
            let res = req.send().await.unwrap();
            let code = res.status().as_u16();
            let documented: Vec<u16> = op["responses"].as_object().unwrap().keys().map(|k| k.parse().unwrap()).collect();
            assert!(documented.contains(&code), "{method} {path} answered {code}, documented {documented:?}");
        }
    }
    // The route table and the document come from the same registrations.
    let state = sigil_server::AppState::new(s.db.clone(), sigil_server::config::Config::for_database("sqlite://unused.db"));
    let (_, api) = sigil_server::routes(&state);
    let mut from_code: Vec<String> = api.paths.paths.keys().cloned().collect();
    from_code.sort();
    assert_eq!(from_code, expected);
    s.stop().await;
}

async fn error_shapes(b: Backend) {
    let Some(s) = TestServer::start_with(b, ORIGINS, |c| c.settings.server.body_limit = 1024).await else { return };
    let (status, body) = s.get_json(&s.url("/nope")).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("not_found")));
    let res = s.http.delete(s.url("/health")).send().await.unwrap();
    assert_eq!(res.status(), 405);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "method_not_allowed");

    let mut big = event("track");
    big["props"]["blob"] = json!("x".repeat(4096));
    let res = s.http.post(s.api("/e")).json(&big).send().await.unwrap();
    assert_eq!(res.status(), 413);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["message"], "Request body is larger than 1024 bytes");
    s.stop().await;
}

/// Random paths, queries and bodies: never a 5xx, always a JSON error.
async fn junk_never_breaks_the_server(b: Backend) {
    let Some(s) = TestServer::start(b, ORIGINS).await else { return };
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet: Vec<char> = "abcXYZ019%&=?,:;/._-~!*'()[]{}\"\\ \u{e9}\u{1F600}".chars().collect();
    for i in 0..300 {
        let junk: String = (0..(next() % 40)).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
        let encoded: String = url::form_urlencoded::byte_serialize(junk.as_bytes()).collect();
        let targets = [
            s.api(&format!("/getWallets?search={encoded}&page={encoded}")),
            s.api(&format!("/getWallets?chains={encoded}&include={encoded}")),
            s.api(&format!("/getWalletImage/{encoded}")),
            s.api(&format!("/public/getTokenImage/{encoded}")),
            s.url(&format!("/getWallets?projectId={encoded}")),
        ];
        let url = &targets[i % targets.len()];
        let res = s.http.get(url).send().await.unwrap();
        assert!(res.status().as_u16() < 500, "{url} -> {}", res.status());
        let res = s.http.post(s.api("/e")).body(junk.clone()).send().await.unwrap();
        assert_eq!(res.status(), 400, "body {junk:?}");
        let body: Value = res.json().await.unwrap();
        assert!(body["error"]["message"].is_string());
    }
    s.stop().await;
}

async fn import_reports_and_is_idempotent(b: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = common::fresh_database(b, &dir).await else { return };
    let db = sigil_server::db::connect(&url).await.unwrap();
    let logo_dir = dir.path().join("logos");
    std::fs::create_dir_all(&logo_dir).unwrap();
    std::fs::write(logo_dir.join("a.png"), b"\x89PNG fake").unwrap();
    let good = "aa".repeat(32);
    let records = json!([
        {"id": good, "name": "Alpha", "homepage": "https://alpha.example", "chains": ["eip155:1"], "order": 2, "logo_file": "logos/a.png"},
        {"id": null, "name": "Beta", "homepage": "https://Beta.Example/path", "chains": ["eip155:1", "eip155:1"]},
        {"id": null, "name": "Nohome", "homepage": null},
        {"id": "xyz", "name": "Badid"},
        {"id": good, "name": "Alpha again"},
        {"name": "", "homepage": "https://c.example"},
        {"name": "Badchain", "homepage": "https://d.example", "chains": ["nope"]},
        {"name": "Missing logo", "homepage": "https://e.example", "logo_file": "logos/none.png"},
        "not an object"
    ]);
    let list = records.as_array().unwrap().clone();
    let report = sigil_server::directory::import::import_records(&db, list.clone(), dir.path()).await.unwrap();
    assert_eq!((report.total, report.inserted, report.updated, report.unchanged, report.logos_written), (9, 3, 0, 0, 1));
    let rejected: Vec<usize> = report.rejected.iter().map(|r| r.0).collect();
    assert_eq!(rejected, vec![2, 3, 4, 5, 6, 8]);
    assert!(report.rejected[0].2.contains("no id"));
    assert!(report.rejected[2].2.contains("same id"));
    assert_eq!(report.warnings.len(), 1);
    assert_eq!(report.warnings[0].0, 7);

    // The derived id: sha256 of the lower-cased host.
    let beta = sigil_core::wallet_id::derive_from_homepage("https://beta.example").unwrap();
    let row = sqlx::query("SELECT doc, position FROM wallets WHERE id = $1").bind(&beta).fetch_one(&db).await.unwrap();
    let doc: Value = serde_json::from_str(&row.try_get::<String, _>("doc").unwrap()).unwrap();
    assert_eq!(doc["chains"], json!(["eip155:1"]));
    // Alpha has an order, so it ranks first.
    let alpha: i64 = sqlx::query("SELECT position FROM wallets WHERE id = $1").bind(&good).fetch_one(&db).await.unwrap().try_get("position").unwrap();
    assert_eq!(alpha, 1);

    let again = sigil_server::directory::import::import_records(&db, list.clone(), dir.path()).await.unwrap();
    assert_eq!((again.inserted, again.updated, again.unchanged, again.logos_written), (0, 0, 3, 0));

    let mut changed = list;
    changed[1]["mobile_link"] = json!("beta://");
    let third = sigil_server::directory::import::import_records(&db, changed.clone(), dir.path()).await.unwrap();
    assert_eq!((third.inserted, third.updated, third.unchanged), (0, 1, 2));

    // A later file has Beta twice, one of them ranked: one wallet, the ranked record's id, and
    // the row the earlier import stored is removed.
    let ranked = "bb".repeat(32);
    let mut twice = changed.clone();
    twice.push(json!({"id": ranked, "name": "Beta", "homepage": "https://beta.example", "order": 1, "chains": ["eip155:10"]}));
    let fourth = sigil_server::directory::import::import_records(&db, twice, dir.path()).await.unwrap();
    assert_eq!((fourth.inserted, fourth.removed), (1, 1), "{fourth}");
    assert_eq!(fourth.merged, vec![(9, "Beta".to_owned(), vec![(1, beta.clone())])]);
    let doc: String = sqlx::query("SELECT doc FROM wallets WHERE id = $1").bind(&ranked).fetch_one(&db).await.unwrap().try_get("doc").unwrap();
    let doc: Value = serde_json::from_str(&doc).unwrap();
    assert_eq!((doc["chains"].clone(), doc["mobile_link"].clone()), (json!(["eip155:10", "eip155:1"]), json!("beta://")));
    let gone: i64 = sqlx::query("SELECT COUNT(*) AS n FROM wallets WHERE id = $1").bind(&beta).fetch_one(&db).await.unwrap().try_get("n").unwrap();
    assert_eq!(gone, 0);

    // Data survives closing and reopening the database.
    db.close().await;
    let db = sigil_server::db::connect(&url).await.unwrap();
    let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM wallets").fetch_one(&db).await.unwrap().try_get("n").unwrap();
    assert_eq!(n, 3);
}
