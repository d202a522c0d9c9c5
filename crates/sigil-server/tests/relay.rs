//! The WalletConnect relay as clients use it, over real WebSockets: the handshake and its
//! refusals, publish and delivery, acks, the mailbox across a restart, the session methods of
//! 2.21 clients, limits, pings, several processes on one PostgreSQL, and the Verify endpoints.
//! (The official SDK against this relay: web/e2e, walletconnect interop.)

mod common;

use std::time::{Duration, Instant};

use common::{Backend, TestServer};
use ed25519_dalek::SigningKey;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sigil_server::config::Config;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

fn relay_url(s: &TestServer) -> String {
    format!("{}/relay", s.base.replace("http://", "ws://"))
}

fn token(seed: u8, aud: &str) -> String {
    sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[seed; 32]), aud, now(), now() + 86_400)
}

async fn open(s: &TestServer, query: &str, origin: Option<&str>) -> Ws {
    let mut request = format!("{}?{query}", relay_url(s)).into_client_request().unwrap();
    if let Some(origin) = origin {
        request.headers_mut().insert("origin", origin.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// A socket opened from the loopback address `source` (another client address).
async fn open_from(s: &TestServer, source: &str, query: &str) -> Ws {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    let stream = socket.connect(s.base.trim_start_matches("http://").parse().unwrap()).await.unwrap();
    let request = format!("{}?{query}", relay_url(s)).into_client_request().unwrap();
    tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(stream)).await.unwrap().0
}

/// A client with key `seed` on the test project, from loopback address `source`.
async fn client_from(s: &TestServer, seed: u8, source: &str) -> Ws {
    let aud = relay_url(s);
    open_from(s, source, &format!("auth={}&projectId={}&ua=wc-2/js-2.21.8/test", token(seed, &aud), s.project)).await
}

/// A client with key `seed` on the test project.
async fn client(s: &TestServer, seed: u8) -> Ws {
    let aud = relay_url(s);
    open(s, &format!("auth={}&projectId={}&ua=wc-2/js-2.21.8/test&useOnCloseEvent=true", token(seed, &aud), s.project), None).await
}

/// The next text frame as JSON (pings skipped), within 5 s.
async fn next(ws: &mut Ws) -> Value {
    let read = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => return serde_json::from_str::<Value>(&t).unwrap(),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                other => panic!("expected a text frame, got {other:?}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read).await.expect("a frame within 5 s")
}

/// Nothing arrives within `ms`.
async fn quiet(ws: &mut Ws, ms: u64) {
    match tokio::time::timeout(Duration::from_millis(ms), ws.next()).await {
        Err(_) => {}
        Ok(Some(Ok(Message::Ping(_)))) => {}
        Ok(other) => panic!("expected nothing, got {other:?}"),
    }
}

/// The close frame a refused handshake ends with.
async fn closed_with(mut ws: Ws) -> (u16, String) {
    let read = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(Some(frame)))) => return (u16::from(frame.code), frame.reason.to_string()),
                Some(Ok(_)) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read).await.expect("closed within 5 s")
}

async fn request(ws: &mut Ws, id: Value, method: &str, params: Value) -> Value {
    ws.send(Message::text(json!({"id": id, "jsonrpc": "2.0", "method": method, "params": params}).to_string())).await.unwrap();
    let frame = next(ws).await;
    assert!(frame.get("method").is_none(), "a push arrived before the answer to {method}: {frame}");
    frame
}

fn topic(n: u8) -> String {
    format!("{n:02x}").repeat(32)
}

fn publish(t: &str, message: &str, tag: i64) -> Value {
    json!({"topic": t, "message": message, "ttl": 300, "tag": tag, "prompt": false})
}

async fn ack(ws: &mut Ws, push: &Value) {
    ws.send(Message::text(json!({"id": push["id"], "jsonrpc": "2.0", "result": true}).to_string())).await.unwrap();
}

async fn stored(s: &TestServer) -> i64 {
    sqlx::query_scalar("SELECT (SELECT COUNT(*) FROM relay_messages) + (SELECT COUNT(*) FROM relay_inbox_messages)").fetch_one(&s.db).await.unwrap()
}

/// Waits until `n` acknowledgements are recorded (the writer records them shortly after).
async fn wait_for_acks_in(db: &sigil_server::db::Db, n: i64) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while sqlx::query_scalar::<_, i64>("SELECT (SELECT COUNT(*) FROM relay_acks) + (SELECT COUNT(*) FROM relay_inbox_acks)").fetch_one(db).await.unwrap() < n {
        assert!(Instant::now() < deadline, "the ack was not recorded");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn wait_for_acks(s: &TestServer, n: i64) {
    wait_for_acks_in(&s.db, n).await
}

both_backends!(
    handshake_refusals,
    publish_deliver_ack,
    acknowledgements_are_per_subscriber,
    mailbox_limits,
    sockets_per_address,
    mailbox_survives_a_restart,
    answered_publishes_survive_kill_9,
    session_methods_of_2_21_clients,
    limits_and_pings,
    a_failed_ack_write_leaves_the_publisher_unknown
);

async fn handshake_refusals(b: Backend) {
    let Some(s) = TestServer::start(b, &["https://shop.example"]).await else { return };
    let aud = relay_url(&s);
    let good = token(1, &aud);
    let p = &s.project;
    let cases = [
        (format!("auth={good}"), "Authorization error: Project ID is missing"),
        (format!("auth={good}&projectId=00000000000000000000000000000000"), "Authorization error: Invalid Project ID"),
        (format!("projectId={p}"), "Authorization error: JWT is missing"),
        (format!("auth=abc&projectId={p}"), "Authorization error: JWT validation error: the auth token is not a JWT"),
        (
            format!("auth={}&projectId={p}", token(1, "ws://elsewhere/relay")),
            "Authorization error: JWT validation error: the auth token is for another relay (ws://elsewhere/relay)",
        ),
        (
            format!("auth={}&projectId={p}", sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[1; 32]), &aud, now() - 90_000, now() - 3_600)),
            "Authorization error: JWT validation error: JWT Token is expired",
        ),
        (
            format!("auth={}&projectId={p}", sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[1; 32]), &aud, now() + 3_600, now() + 90_000)),
            "Authorization error: JWT validation error: JWT Token is not yet valid",
        ),
    ];
    // A token valid for far longer than clients make them (the probe's expired in 2200).
    let cases = cases.into_iter().chain([(
        format!("auth={}&projectId={p}", sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[1; 32]), &aud, now(), 7_258_118_400)),
        "Authorization error: JWT validation error: the auth token is valid for longer than 7 days",
    )]);
    for (query, reason) in cases {
        let (code, got) = closed_with(open(&s, &query, None).await).await;
        assert_eq!((code, got.as_str()), (3000, reason), "{query}");
    }
    // A browser page outside the project's origins may not use its relay; one inside may.
    let (code, reason) = closed_with(open(&s, &format!("auth={good}&projectId={p}"), Some("https://evil.example")).await).await;
    assert_eq!((code, reason.as_str()), (3000, "Authorization error: Origin https://evil.example is not allowed for this project"));
    let mut ok = open(&s, &format!("auth={good}&projectId={p}"), Some("https://shop.example")).await;
    let answer = request(&mut ok, json!(1_000_000_001u64), "irn_subscribe", json!({"topic": topic(1)})).await;
    assert!(answer["result"].is_string(), "{answer}");
    // A plain GET is told what the address is.
    let res = s.http.get(format!("{}/relay", s.base)).send().await.unwrap();
    assert_eq!(res.status(), 400);
    s.stop().await;
}

async fn publish_deliver_ack(b: Backend) {
    let Some(s) = TestServer::start(b, &["*"]).await else { return };
    let (mut dapp, mut wallet) = (client(&s, 1).await, client(&s, 2).await);
    let t = topic(7);
    // 19-digit ids come back exactly as sent, string or number.
    let answer = request(&mut dapp, json!("1795469354893530112"), "irn_subscribe", json!({"topic": t})).await;
    assert_eq!(answer["id"], json!("1795469354893530112"));
    let dapp_did = sigil_core::relay_auth::public_key_to_did_key(SigningKey::from_bytes(&[1; 32]).verifying_key().as_bytes());
    assert_eq!(answer["result"].as_str().unwrap(), sigil_server::relay::subscription_id(&t, &dapp_did));
    ws_send_raw(&mut wallet, r#"{"id":1795469354893530113,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"TOPIC","message":"AKV1","ttl":300,"tag":1108,"prompt":true,"attestation":"","tvf":{"rpcMethods":["personal_sign"]}}}"#.replace("TOPIC", &t)).await;
    let reply = next(&mut wallet).await;
    assert_eq!(reply.to_string(), r#"{"id":1795469354893530113,"jsonrpc":"2.0","result":true}"#);
    // Delivered to the subscriber, attestation kept as it was; never back to the publisher.
    let push = next(&mut dapp).await;
    assert_eq!((push["method"].as_str(), push["params"]["data"]["topic"].as_str()), (Some("irn_subscription"), Some(t.as_str())));
    assert_eq!((push["params"]["data"]["message"].as_str(), push["params"]["data"]["tag"].as_i64()), (Some("AKV1"), Some(1108)));
    assert_eq!(push["params"]["data"]["attestation"], "");
    assert!(push["id"].as_u64().unwrap() < 1 << 53);
    quiet(&mut wallet, 300).await;
    // Published again (no answer seen): stored and sent once.
    request(&mut wallet, json!(5_000_000_000u64), "irn_publish", publish(&t, "AKV1", 1108)).await;
    quiet(&mut dapp, 300).await;
    assert_eq!(stored(&s).await, 1);
    // Acknowledged: never sent to that client again, not even on a new subscription (the
    // message stays for the topic's other subscribers until its TTL: see the next test).
    ack(&mut dapp, &push).await;
    wait_for_acks(&s, 1).await;
    assert_eq!(stored(&s).await, 1);
    let mut again = client(&s, 1).await;
    request(&mut again, json!(1_000_000_002u64), "irn_subscribe", json!({"topic": t})).await;
    quiet(&mut again, 300).await;
    // Unsubscribed topics get nothing.
    request(&mut again, json!(1_000_000_003u64), "irn_unsubscribe", json!({"topic": t, "id": "x"})).await;
    request(&mut dapp, json!(1_000_000_004u64), "irn_unsubscribe", json!({"topic": t, "id": "x"})).await;
    request(&mut wallet, json!(1_000_000_005u64), "irn_publish", publish(&t, "AKV2", 1108)).await;
    quiet(&mut again, 300).await;
    s.stop().await;
}

/// Issue 20, N13: a client that knows a topic acknowledges (or fetches and receipts) its
/// messages for itself only; the others still get them.
async fn acknowledgements_are_per_subscriber(b: Backend) {
    let Some(s) = TestServer::start(b, &["*"]).await else { return };
    let (mut dapp, mut wallet, mut snoop) = (client(&s, 1).await, client(&s, 2).await, client(&s, 3).await);
    let t = topic(8);
    request(&mut snoop, json!(1_000_000_001u64), "irn_subscribe", json!({"topic": t})).await;
    request(&mut dapp, json!(1_000_000_002u64), "irn_publish", publish(&t, "U0VDUkVU", 1108)).await;
    let push = next(&mut snoop).await;
    ack(&mut snoop, &push).await;
    // Fetched and receipted too, by the snoop.
    let fetched = request(&mut snoop, json!(1_000_000_003u64), "irn_fetchMessages", json!({"topic": t})).await;
    assert_eq!(fetched["result"]["messages"], json!([]), "acknowledged: not fetched again by the snoop");
    let id = sigil_server::relay::message_id("U0VDUkVU");
    let receipt = request(&mut snoop, json!(1_000_000_004u64), "irn_batchReceive", json!({"receipts": [{"topic": t, "messageId": id}]})).await;
    assert_eq!(receipt["result"], true, "{receipt}");
    wait_for_acks(&s, 1).await;
    // The wallet subscribing later still gets it, by push and by fetch.
    request(&mut wallet, json!(1_000_000_005u64), "irn_subscribe", json!({"topic": t})).await;
    let push = next(&mut wallet).await;
    assert_eq!(push["params"]["data"]["message"], "U0VDUkVU");
    let fetched = request(&mut wallet, json!(1_000_000_006u64), "irn_fetchMessages", json!({"topic": t})).await;
    assert_eq!(fetched["result"]["messages"][0]["message"], "U0VDUkVU");
    assert_eq!(stored(&s).await, 1);
    s.stop().await;
}

/// Issue 20, N2: three self-made identities at one address once stored 37.6 MB in 6.4 s, kept
/// 30 days. Now each identity, each address and the whole mailbox have a limit, refused with a
/// clear error; an identity nobody ever acknowledged keeps undelivered messages an hour at most;
/// /metrics shows the mailbox's size.
async fn mailbox_limits(b: Backend) {
    let Some(s) = TestServer::start_with(b, &["*"], |c| {
        c.settings.relay.client_mailbox_bytes = 300_000;
        c.settings.relay.address_mailbox_bytes = 700_000;
        c.settings.relay.mailbox_max_bytes = 1_000_000;
        c.settings.relay.publishes_per_second = 1000;
    })
    .await
    else {
        return;
    };
    let message = |n: u32| format!("{n:08}{}", "A".repeat(128 * 1024 - 8));
    let month = |t: &str, m: &str| json!({"topic": t, "message": m, "ttl": 30 * 86_400, "tag": 1108});
    // A month-long 128 KiB message, numbered.
    let big = |n: u32| month(&topic(50), &message(n));
    let mut first = client(&s, 11).await;
    for n in 0..2 {
        assert_eq!(request(&mut first, json!(1_000_000_000u64 + u64::from(n)), "irn_publish", big(n)).await["result"], true);
    }
    let third = request(&mut first, json!(1_000_000_002u64), "irn_publish", big(2)).await;
    assert_eq!(third["error"]["data"], "MailboxLimitExceeded", "{third}");
    assert!(third["error"]["message"].as_str().unwrap().contains("this client has 300000 bytes of messages waiting"), "{third}");
    // More identities from the same address: the address's limit.
    let mut second = client(&s, 12).await;
    let mut third_id = client(&s, 13).await;
    assert_eq!(request(&mut second, json!(1_000_000_010u64), "irn_publish", big(10)).await["result"], true);
    assert_eq!(request(&mut second, json!(1_000_000_011u64), "irn_publish", big(11)).await["result"], true);
    assert_eq!(request(&mut third_id, json!(1_000_000_020u64), "irn_publish", big(20)).await["result"], true);
    let refused = request(&mut third_id, json!(1_000_000_021u64), "irn_publish", big(21)).await;
    assert!(refused["error"]["message"].as_str().unwrap().contains("this address has 700000 bytes"), "{refused}");
    // Another address: its own limits, until the whole mailbox (1 MB here) is full.
    let mut elsewhere = client_from(&s, 16, "127.0.0.2").await;
    assert_eq!(request(&mut elsewhere, json!(1_000_000_030u64), "irn_publish", big(30)).await["result"], true);
    assert_eq!(request(&mut elsewhere, json!(1_000_000_031u64), "irn_publish", big(31)).await["result"], true);
    let mut elsewhere_too = client_from(&s, 17, "127.0.0.2").await;
    let full = request(&mut elsewhere_too, json!(1_000_000_040u64), "irn_publish", big(40)).await;
    assert_eq!(full["error"]["message"], "Request handler error: the relay's mailbox is full; try again later", "{full}");
    // An identity nobody acknowledged: its month-long messages live an hour at most.
    let expires: Vec<i64> =
        sqlx::query_scalar("SELECT expires_at FROM relay_messages UNION ALL SELECT expires_at FROM relay_inbox_messages").fetch_all(&s.db).await.unwrap();
    let hour_from_now = (now() + 3600) * 1000;
    assert!(expires.iter().all(|e| *e <= hour_from_now + 5000), "{expires:?}");
    // The mailbox's size is on /metrics.
    let metrics = s.http.get(s.url("/metrics")).send().await.unwrap().text().await.unwrap();
    let line = metrics.lines().find(|l| l.starts_with("sigil_relay_mailbox_bytes ")).unwrap();
    assert_eq!(line, format!("sigil_relay_mailbox_bytes {}", 7 * 128 * 1024));
    // Acknowledged by another client, an identity is known: its next message keeps its TTL.
    let mut reader = client(&s, 14).await;
    request(&mut reader, json!(1_000_000_100u64), "irn_subscribe", json!({"topic": topic(60)})).await;
    let mut known = client(&s, 15).await;
    request(&mut known, json!(1_000_000_101u64), "irn_publish", publish(&topic(60), "SEVMTE8=", 1108)).await;
    let push = next(&mut reader).await;
    ack(&mut reader, &push).await;
    wait_for_acks(&s, 1).await;
    request(&mut known, json!(1_000_000_102u64), "irn_publish", month(&topic(61), "TU9OVEg=")).await;
    let expires: i64 =
        sqlx::query_scalar("SELECT expires_at FROM relay_messages WHERE topic = $1 UNION ALL SELECT expires_at FROM relay_inbox_messages WHERE topic = $1")
            .bind(topic(61))
            .fetch_one(&s.db)
            .await
            .unwrap();
    assert!(expires > (now() + 29 * 86_400) * 1000, "{expires}");
    s.stop().await;
}

/// Issue 20, N3: one address cannot take every relay socket.
async fn sockets_per_address(b: Backend) {
    let Some(s) = TestServer::start_with(b, &["*"], |c| c.settings.relay.max_sockets_per_address = 3).await else { return };
    let mut held = Vec::new();
    for seed in 0..3 {
        let mut ws = client(&s, 20 + seed).await;
        assert!(request(&mut ws, json!(1_000_000_001u64), "irn_subscribe", json!({"topic": topic(70)})).await["result"].is_string());
        held.push(ws);
    }
    let (code, reason) = closed_with(client(&s, 30).await).await;
    assert_eq!((code, reason.as_str()), (1013, "Too many relay connections from this address; try again later"));
    let mut other = client_from(&s, 31, "127.0.0.2").await;
    assert!(request(&mut other, json!(1_000_000_002u64), "irn_subscribe", json!({"topic": topic(70)})).await["result"].is_string());
    // A place frees when a socket closes.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut ws = client(&s, 32).await;
        match tokio::time::timeout(Duration::from_secs(2), request(&mut ws, json!(1_000_000_003u64), "irn_subscribe", json!({"topic": topic(70)}))).await {
            Ok(answer) if answer["result"].is_string() => break,
            _ => assert!(Instant::now() < deadline, "the closed socket's place never freed"),
        }
    }
    s.stop().await;
}

async fn ws_send_raw(ws: &mut Ws, text: String) {
    ws.send(Message::text(text)).await.unwrap();
}

async fn mailbox_survives_a_restart(b: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = common::fresh_database(b, &dir).await else { return };
    let db = sigil_server::db::connect(&url).await.unwrap();
    let project = sigil_server::projects::create(&db, "Relay", &["*".to_owned()], Default::default()).await.unwrap().id;
    let start = || async {
        let state = sigil_server::AppState::new(db.clone(), Config::for_database(&url));
        sigil_server::start(state, "127.0.0.1:0".parse().unwrap()).await.unwrap()
    };
    let t = topic(9);
    let first = start().await;
    let base = format!("ws://{}/relay", first.addr);
    let connect = |seed: u8, base: String| {
        let project = project.clone();
        async move {
            let t = sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[seed; 32]), &base, now(), now() + 3600);
            tokio_tungstenite::connect_async(format!("{base}?auth={t}&projectId={project}")).await.unwrap().0
        }
    };
    // The dapp publishes while nobody listens, then the server goes down.
    let mut dapp = connect(1, base).await;
    request(&mut dapp, json!(1_000_000_001u64), "irn_publish", publish(&t, "QUJD", 1100)).await;
    drop(dapp);
    first.stop().await.unwrap();

    let second = start().await;
    let base = format!("ws://{}/relay", second.addr);
    let mut wallet = connect(2, base.clone()).await;
    let answer = request(&mut wallet, json!(1_000_000_002u64), "irn_batchSubscribe", json!({"topics": [t, topic(10)]})).await;
    assert_eq!(answer["result"].as_array().unwrap().len(), 2);
    let push = next(&mut wallet).await;
    assert_eq!(push["params"]["data"]["message"], "QUJD");
    assert_eq!(push["params"]["data"]["tag"], 1100);
    // Fetching shows it too until acknowledged.
    let fetched = request(&mut wallet, json!(1_000_000_003u64), "irn_fetchMessages", json!({"topic": t})).await;
    assert_eq!(fetched["result"]["messages"][0]["message"], "QUJD");
    ack(&mut wallet, &push).await;
    wait_for_acks_in(&db, 1).await;
    let fetched = request(&mut wallet, json!(1_000_000_004u64), "irn_fetchMessages", json!({"topic": t})).await;
    assert_eq!(fetched["result"], json!({"messages": [], "hasMore": false}));
    second.stop().await.unwrap();
}

/// On SQLite a publish is answered once it is in the inbox (migration 0020): the writer files
/// the inbox into the mailbox's tables by itself within a fraction of a second, and what a
/// stopped process left there is filed and delivered by the next one.
#[tokio::test]
async fn sqlite_inbox_is_filed() {
    let dir = tempfile::tempdir().unwrap();
    let url = common::fresh_database(Backend::Sqlite, &dir).await.unwrap();
    let db = sigil_server::db::connect(&url).await.unwrap();
    let project = sigil_server::projects::create(&db, "Relay", &["*".to_owned()], Default::default()).await.unwrap().id;
    let start = || async {
        let state = sigil_server::AppState::new(db.clone(), Config::for_database(&url));
        sigil_server::start(state, "127.0.0.1:0".parse().unwrap()).await.unwrap()
    };
    let count = |table: &'static str| {
        let db = db.clone();
        async move { sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&db).await.unwrap() }
    };
    let server = start().await;
    let base = format!("ws://{}/relay", server.addr);
    let connect = |seed: u8| {
        let (project, base) = (project.clone(), base.clone());
        async move {
            let t = sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[seed; 32]), &base, now(), now() + 3600);
            tokio_tungstenite::connect_async(format!("{base}?auth={t}&projectId={project}")).await.unwrap().0
        }
    };
    let mut dapp = connect(1).await;
    request(&mut dapp, json!(1_000_000_001u64), "irn_publish", publish(&topic(20), "QUJD", 1100)).await;
    // Nobody reads: filed all the same, the inbox emptied.
    let deadline = Instant::now() + Duration::from_secs(5);
    while count("relay_messages").await < 1 {
        assert!(Instant::now() < deadline, "the inbox was not filed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!((count("relay_messages").await, count("relay_inbox_messages").await), (1, 0));
    // Published again once filed, or twice while in the inbox: stored once.
    request(&mut dapp, json!(1_000_000_002u64), "irn_publish", publish(&topic(20), "QUJD", 1100)).await;
    request(&mut dapp, json!(1_000_000_003u64), "irn_publish", publish(&topic(22), "REVG", 1100)).await;
    request(&mut dapp, json!(1_000_000_004u64), "irn_publish", publish(&topic(22), "REVG", 1100)).await;
    drop(dapp);
    server.stop().await.unwrap();
    assert_eq!(count("relay_messages").await + count("relay_inbox_messages").await, 2);

    // What a process killed before filing leaves: a message and an ack of another one.
    let at = now() * 1000;
    sqlx::query(
        "INSERT INTO relay_inbox_messages (topic, id, message, tag, attestation, publisher, publisher_address, published_at, expires_at, seq, bytes) \
         VALUES ($1, 'left', 'TEVGVA==', 1100, NULL, 'did:key:left', '127.0.0.1', $2, $3, 1, 8)",
    )
    .bind(topic(21))
    .bind(at)
    .bind(at + 300_000)
    .execute(&db)
    .await
    .unwrap();
    sqlx::query("INSERT INTO relay_inbox_acks (topic, id, client, expires_at) VALUES ($1, $2, 'did:key:someone', $3)")
        .bind(topic(20))
        .bind(sigil_server::relay::message_id("QUJD"))
        .bind(at + 300_000)
        .execute(&db)
        .await
        .unwrap();
    let server = start().await;
    let base = format!("ws://{}/relay", server.addr);
    let t = sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[2; 32]), &base, now(), now() + 3600);
    let mut wallet = tokio_tungstenite::connect_async(format!("{base}?auth={t}&projectId={project}")).await.unwrap().0;
    request(&mut wallet, json!(1_000_000_003u64), "irn_subscribe", json!({"topic": topic(21)})).await;
    let push = next(&mut wallet).await;
    assert_eq!(push["params"]["data"]["message"], "TEVGVA==");
    assert_eq!((count("relay_messages").await, count("relay_acks").await), (3, 1));
    assert_eq!((count("relay_inbox_messages").await, count("relay_inbox_acks").await), (0, 0));
    server.stop().await.unwrap();
}

/// A server process, killed with SIGKILL when dropped (also when the test fails).
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The `sigil serve` binary on `url`, once it answers on a free port; its relay URL.
async fn serve_process(url: &str) -> (Killed, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_sigil"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("SIGIL_DATABASE_URL", url)
        .env("SIGIL_LOG", "error")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let child = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while reqwest::get(format!("http://127.0.0.1:{port}/health")).await.map(|r| r.status().as_u16()).ok() != Some(200) {
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (child, format!("ws://127.0.0.1:{port}/relay"))
}

/// A publish is answered only once its message would survive a crash. Eight clients publish
/// at once (the writer commits them together, in batches), the process is killed with SIGKILL
/// while publishes are still coming, and a new process delivers every message that had been
/// answered.
async fn answered_publishes_survive_kill_9(b: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = common::fresh_database(b, &dir).await else { return };
    let db = sigil_server::db::connect(&url).await.unwrap();
    let project = sigil_server::projects::create(&db, "Relay", &["*".to_owned()], Default::default()).await.unwrap().id;
    let connect = |seed: u8, base: String| {
        let project = project.clone();
        async move {
            let t = sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[seed; 32]), &base, now(), now() + 3600);
            tokio_tungstenite::connect_async(format!("{base}?auth={t}&projectId={project}")).await.unwrap().0
        }
    };
    let (mut server, base) = serve_process(&url).await;
    let answered = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(String, String)>::new()));
    let mut publishers = Vec::new();
    for p in 0..8u8 {
        let mut ws = connect(40 + p, base.clone()).await;
        let answered = answered.clone();
        publishers.push(tokio::spawn(async move {
            let t = topic(60 + p);
            // Sent without waiting for the answers, so the writer has many at once.
            for k in 0..40u64 {
                let publish =
                    json!({"id": 1_000_000_000u64 + k, "jsonrpc": "2.0", "method": "irn_publish", "params": publish(&t, &format!("m-{p}-{k}"), 1108)});
                if ws.send(Message::text(publish.to_string())).await.is_err() {
                    return;
                }
            }
            while let Some(Ok(frame)) = ws.next().await {
                let Message::Text(text) = frame else { continue };
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["result"] == true {
                    let k = v["id"].as_u64().unwrap() - 1_000_000_000;
                    answered.lock().unwrap().push((t.clone(), format!("m-{p}-{k}")));
                }
            }
        }));
    }
    // Killed once some publishes are answered, while the rest are still on their way.
    let deadline = Instant::now() + Duration::from_secs(20);
    while answered.lock().unwrap().len() < 60 {
        assert!(Instant::now() < deadline, "publishes were not answered");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    for p in publishers {
        p.await.unwrap();
    }
    let answered = answered.lock().unwrap().clone();
    assert!(answered.len() >= 60);

    let (_server, base) = serve_process(&url).await;
    let mut wallet = connect(39, base).await;
    let topics: Vec<String> = (0..8u8).map(|p| topic(60 + p)).collect();
    request(&mut wallet, json!(1_000_000_001u64), "irn_batchSubscribe", json!({"topics": topics})).await;
    let mut delivered = std::collections::HashSet::new();
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(Duration::from_millis(1500), wallet.next()).await {
        let Message::Text(text) = frame else { continue };
        let v: Value = serde_json::from_str(&text).unwrap();
        let data = &v["params"]["data"];
        delivered.insert((data["topic"].as_str().unwrap().to_owned(), data["message"].as_str().unwrap().to_owned()));
    }
    let lost: Vec<_> = answered.iter().filter(|m| !delivered.contains(*m)).collect();
    assert!(lost.is_empty(), "{} of {} answered publishes were lost: {lost:?}", lost.len(), answered.len());
}

async fn session_methods_of_2_21_clients(b: Backend) {
    let Some(s) = TestServer::start(b, &["*"]).await else { return };
    let (mut dapp, mut wallet) = (client(&s, 1).await, client(&s, 2).await);
    let (pairing, session) = (topic(1), topic(2));
    // The dapp proposes without subscribing; the relay subscribes it and keeps the proposal.
    let answer = request(
        &mut dapp,
        json!("1795469354864990464"),
        "wc_proposeSession",
        json!({"pairingTopic": pairing, "sessionProposal": "UFJPUE9TRQ==", "ttl": 300, "correlationId": 1795469354858111u64}),
    )
    .await;
    assert_eq!(answer["result"], true);
    request(&mut wallet, json!(1_000_000_001u64), "irn_subscribe", json!({"topic": pairing})).await;
    let proposal = next(&mut wallet).await;
    assert_eq!((proposal["params"]["data"]["message"].as_str(), proposal["params"]["data"]["tag"].as_i64()), (Some("UFJPUE9TRQ=="), Some(1100)));
    ack(&mut wallet, &proposal).await;
    // The wallet approves: the answer reaches the dapp on the pairing topic, the settlement
    // waits on the session topic until the dapp subscribes.
    let approve = json!({"sessionTopic": session, "pairingTopic": pairing, "sessionProposalResponse": "UkVTUE9OU0U=", "sessionSettlementRequest": "U0VUVExF", "ttl": 300});
    assert_eq!(request(&mut wallet, json!(1_000_000_002u64), "wc_approveSession", approve).await["result"], true);
    let response = next(&mut dapp).await;
    assert_eq!((response["params"]["data"]["topic"].as_str(), response["params"]["data"]["tag"].as_i64()), (Some(pairing.as_str()), Some(1101)));
    ack(&mut dapp, &response).await;
    request(&mut dapp, json!(1_000_000_003u64), "irn_subscribe", json!({"topic": session})).await;
    let settle = next(&mut dapp).await;
    assert_eq!((settle["params"]["data"]["message"].as_str(), settle["params"]["data"]["tag"].as_i64()), (Some("U0VUVExF"), Some(1102)));
    // The wallet was subscribed to the session topic by its approval: the dapp's answer reaches it.
    request(&mut dapp, json!(1_000_000_004u64), "irn_publish", publish(&session, "QUNL", 1103)).await;
    let acked = next(&mut wallet).await;
    assert_eq!(acked["params"]["data"]["tag"], 1103);
    s.stop().await;
}

async fn limits_and_pings(b: Backend) {
    let Some(s) = TestServer::start_with(b, &["*"], |c| {
        c.settings.relay.max_message_bytes = 2048;
        c.settings.relay.max_subscriptions = 3;
        c.settings.relay.publishes_per_second = 5;
        c.settings.relay.ping = std::time::Duration::from_secs(1);
    })
    .await
    else {
        return;
    };
    let mut ws = client(&s, 3).await;
    let error =
        |v: &Value| (v["error"]["code"].as_i64().unwrap(), v["error"]["data"].as_str().unwrap().to_owned(), v["error"]["message"].as_str().unwrap().to_owned());
    let big = request(&mut ws, json!(1_000_000_001u64), "irn_publish", publish(&topic(1), &"A".repeat(2049), 1108)).await;
    assert_eq!(error(&big), (-32600, "PayloadSizeExceeded".into(), "Invalid payload: the message has 2049 bytes; at most 2048 are relayed".into()));
    let long = request(&mut ws, json!(1_000_000_002u64), "irn_publish", json!({"topic": topic(1), "message": "x", "ttl": 31 * 24 * 3600})).await;
    assert_eq!(error(&long).1, "TtlTooLong");
    let short = request(&mut ws, json!(1_000_000_003u64), "irn_publish", json!({"topic": topic(1), "message": "x", "ttl": 5})).await;
    assert_eq!(error(&short).1, "TtlTooShort");
    let bad_topic = request(&mut ws, json!(1_000_000_004u64), "irn_subscribe", json!({"topic": "nope"})).await;
    assert_eq!(error(&bad_topic).1, "InvalidTopic");
    let too_many: Vec<String> = (0..501).map(|i| format!("{i:064x}")).collect();
    let batch = request(&mut ws, json!(1_000_000_005u64), "irn_batchSubscribe", json!({"topics": too_many})).await;
    assert_eq!(error(&batch).1, "BatchLimitExceeded");
    for n in 0..3 {
        assert!(request(&mut ws, json!(1_000_000_010u64 + n), "irn_subscribe", json!({"topic": topic(n as u8 + 20)})).await["result"].is_string());
    }
    let fourth = request(&mut ws, json!(1_000_000_020u64), "irn_subscribe", json!({"topic": topic(30)})).await;
    assert_eq!(error(&fourth).1, "SubscriberLimitExceeded");
    let unknown = request(&mut ws, json!(1_000_000_021u64), "irn_nope", json!({})).await;
    assert_eq!(error(&unknown).1, "InvalidMethod");
    // Five a second, bursting to ten: on a fresh socket, the eleventh in a row is refused
    // (refused publishes count too, so the ones above spent part of that socket's budget).
    let mut fresh = client(&s, 4).await;
    let mut codes = Vec::new();
    for n in 0..11 {
        let reply = request(&mut fresh, json!(1_000_000_100u64 + n), "irn_publish", publish(&topic(40), &format!("m{n}"), 1108)).await;
        codes.push(reply["error"]["code"].as_i64().unwrap_or(0));
    }
    assert_eq!(&codes[..10], &[0; 10]);
    assert_eq!(codes[10], 3001);
    // Pings come every second here; a client that answers stays connected.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut pings = 0;
    while pings < 2 {
        match tokio::time::timeout(deadline.saturating_duration_since(Instant::now()), ws.next()).await {
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(_))) => {}
            other => panic!("no pings: {other:?}"),
        }
    }
    s.stop().await;
}

/// An ack whose write fails does not make its publisher known (its messages would keep their
/// whole TTL on this process while the database says otherwise, and never say so later); the
/// message comes again, and its ack then records the publisher.
async fn a_failed_ack_write_leaves_the_publisher_unknown(b: Backend) {
    let Some(s) = TestServer::start(b, &["*"]).await else { return };
    let month = |t: &str, m: &str| json!({"topic": t, "message": m, "ttl": 30 * 86_400, "tag": 1108});
    let expiry = |t: String| {
        let db = s.db.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT expires_at FROM relay_messages WHERE topic = $1 UNION ALL SELECT expires_at FROM relay_inbox_messages WHERE topic = $1",
            )
            .bind(t)
            .fetch_one(&db)
            .await
            .unwrap()
        }
    };
    let (mut reader, mut publisher) = (client(&s, 14).await, client(&s, 15).await);
    request(&mut reader, json!(1_000_000_001u64), "irn_subscribe", json!({"topic": topic(62)})).await;
    request(&mut publisher, json!(1_000_000_002u64), "irn_publish", publish(&topic(62), "SEVMTE8=", 1108)).await;
    let push = next(&mut reader).await;
    // The ack's write fails (its batch records the publisher in relay_clients, gone for now).
    sqlx::query("ALTER TABLE relay_clients RENAME TO relay_clients_away").execute(&s.db).await.unwrap();
    ack(&mut reader, &push).await;
    // A fetch is answered once the writer got through what was queued before it: the ack.
    request(&mut reader, json!(1_000_000_003u64), "irn_fetchMessages", json!({"topic": topic(63)})).await;
    sqlx::query("ALTER TABLE relay_clients_away RENAME TO relay_clients").execute(&s.db).await.unwrap();
    let acks: i64 = sqlx::query_scalar("SELECT (SELECT COUNT(*) FROM relay_acks) + (SELECT COUNT(*) FROM relay_inbox_acks)").fetch_one(&s.db).await.unwrap();
    assert_eq!(acks, 0, "the ack's write was to fail");
    request(&mut publisher, json!(1_000_000_004u64), "irn_publish", month(&topic(64), "TU9OVEg=")).await;
    assert!(expiry(topic(64)).await <= (now() + 3600 + 5) * 1000, "still unknown: an hour at most");
    // Not acknowledged after all: delivered again, and this ack makes the publisher known.
    let mut again = client(&s, 14).await;
    request(&mut again, json!(1_000_000_005u64), "irn_subscribe", json!({"topic": topic(62)})).await;
    let push = next(&mut again).await;
    assert_eq!(push["params"]["data"]["message"], "SEVMTE8=");
    ack(&mut again, &push).await;
    wait_for_acks(&s, 1).await;
    let known: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM relay_clients").fetch_one(&s.db).await.unwrap();
    assert_eq!(known, 1);
    request(&mut publisher, json!(1_000_000_006u64), "irn_publish", month(&topic(65), "TU9OVEgy")).await;
    assert!(expiry(topic(65)).await > (now() + 29 * 86_400) * 1000, "known now: its TTL");
    s.stop().await;
}

/// A message another process announced and did not store (yet) reaches a subscriber only as a
/// stored one would: not once its TTL ended, not to a client that acknowledged it. Here the
/// announcements come from the test, as from a process that never stores them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn announced_messages_obey_expiry_and_acks() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = common::fresh_database(Backend::Postgres, &dir).await else { return };
    let db = sigil_server::db::connect(&url).await.unwrap();
    let project = sigil_server::projects::create(&db, "Relay", &["*".to_owned()], Default::default()).await.unwrap().id;
    let state = sigil_server::AppState::new(db.clone(), Config::for_database(&url));
    let server = sigil_server::start(state.clone(), "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !state.relay.is_listening() {
        assert!(Instant::now() < deadline, "the relay listener did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let connect = |seed: u8| {
        let (project, base) = (project.clone(), format!("ws://{}/relay", server.addr));
        async move {
            let t = sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[seed; 32]), &base, now(), now() + 3600);
            tokio_tungstenite::connect_async(format!("{base}?auth={t}&projectId={project}")).await.unwrap().0
        }
    };
    let announce = |t: String, message: &str, expires_at: i64| {
        let id = sigil_server::relay::message_id(message);
        let carried = json!({"message": message, "tag": 1108, "attestation": "", "publisher": "did:key:elsewhere", "publisher_address": "127.0.0.9",
            "published_at": now() * 1000, "expires_at": expires_at, "seq": 1});
        let note = format!("E elsewhere {t} {id} {carried}");
        let db = db.clone();
        async move { sqlx::query("SELECT pg_notify($1, $2)").bind(sigil_server::relay::CHANNEL).bind(note).execute(&db).await.unwrap() }
    };
    let (old, new) = (topic(90), topic(91));
    let both = json!({"topics": [old, new]});
    let mut dapp = connect(1).await;
    request(&mut dapp, json!(1_000_000_001u64), "irn_batchSubscribe", both.clone()).await;
    announce(old.clone(), "RVhQSVJFRA==", now() * 1000 - 1000).await;
    announce(new.clone(), "TElWRQ==", (now() + 300) * 1000).await;
    // In order: an expired one would come first.
    let push = next(&mut dapp).await;
    assert_eq!(push["params"]["data"]["message"], "TElWRQ==");
    ack(&mut dapp, &push).await;
    wait_for_acks_in(&db, 1).await;
    // Subscribing again: neither the expired one nor the acknowledged one.
    let mut dapp_again = connect(1).await;
    request(&mut dapp_again, json!(1_000_000_002u64), "irn_batchSubscribe", both.clone()).await;
    quiet(&mut dapp_again, 500).await;
    // Another client gets the live one, and only that.
    let mut wallet = connect(2).await;
    request(&mut wallet, json!(1_000_000_003u64), "irn_batchSubscribe", both).await;
    let push = next(&mut wallet).await;
    assert_eq!(push["params"]["data"]["message"], "TElWRQ==");
    quiet(&mut wallet, 500).await;
    server.stop().await.unwrap();
}

/// Two server processes on one PostgreSQL database: a client on one reaches a client on the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_postgres_deliver_to_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = common::fresh_database(Backend::Postgres, &dir).await else { return };
    let db = sigil_server::db::connect(&url).await.unwrap();
    let project = sigil_server::projects::create(&db, "Relay", &["*".to_owned()], Default::default()).await.unwrap().id;
    let mut servers = Vec::new();
    let mut states = Vec::new();
    for _ in 0..2 {
        let db = sigil_server::db::connect(&url).await.unwrap();
        let state = sigil_server::AppState::new(db, Config::for_database(&url));
        states.push(state.clone());
        servers.push(sigil_server::start(state, "127.0.0.1:0".parse().unwrap()).await.unwrap());
    }
    // Both processes hear each other before anything is published.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !states.iter().all(|s| s.relay.is_listening()) {
        assert!(Instant::now() < deadline, "the relay listeners did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let connect = |seed: u8, addr: std::net::SocketAddr| {
        let project = project.clone();
        async move {
            let base = format!("ws://{addr}/relay");
            let t = sigil_core::relay_auth::sign(&SigningKey::from_bytes(&[seed; 32]), &base, now(), now() + 3600);
            tokio_tungstenite::connect_async(format!("{base}?auth={t}&projectId={project}")).await.unwrap().0
        }
    };
    let mut dapp = connect(1, servers[0].addr).await;
    let mut wallet = connect(2, servers[1].addr).await;
    let t = topic(5);
    request(&mut dapp, json!(1_000_000_001u64), "irn_subscribe", json!({"topic": t})).await;
    for n in 0..5 {
        request(&mut wallet, json!(1_000_000_010u64 + n), "irn_publish", publish(&t, &format!("from-two-{n}"), 1108)).await;
        let push = next(&mut dapp).await;
        assert_eq!(push["params"]["data"]["message"], format!("from-two-{n}"));
        ack(&mut dapp, &push).await;
    }
    // A burst: announced together (several to a notification), each delivered once, in order.
    for n in 0..40u64 {
        let frame = json!({"id": 1_000_000_100u64 + n, "jsonrpc": "2.0", "method": "irn_publish", "params": publish(&t, &format!("burst-{n}"), 1108)});
        wallet.send(Message::text(frame.to_string())).await.unwrap();
    }
    for n in 0..40 {
        let push = next(&mut dapp).await;
        assert_eq!(push["params"]["data"]["message"], format!("burst-{n}"));
        ack(&mut dapp, &push).await;
    }
    quiet(&mut dapp, 300).await;
    for s in servers {
        s.stop().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_attests_the_page_origin_for_the_project() {
    let s = TestServer::start(Backend::Sqlite, &["https://shop.example"]).await.unwrap();
    let key: Value = s.http.get(s.url("/v3/public-key")).send().await.unwrap().json().await.unwrap();
    assert_eq!((key["publicKey"]["kty"].as_str(), key["publicKey"]["crv"].as_str()), (Some("EC"), Some("P-256")));
    let page = |referer: &str| {
        s.http
            .get(s.url(&format!("/v3/attestation?projectId={}&origin=https://liar.example&id=abc123&decryptedId=ff", s.project)))
            .header("referer", referer)
            .send()
    };
    for (referer, verified, origin) in
        [("https://shop.example/checkout", true, "https://shop.example"), ("https://evil.example/", false, "https://evil.example")]
    {
        let res = page(referer).await.unwrap();
        assert!(res.headers()["content-security-policy"].to_str().unwrap().ends_with("frame-ancestors https://shop.example"));
        let html = res.text().await.unwrap();
        let token = html.split("\\\"attestation\\\":\\\"").nth(1).unwrap().split("\\\"").next().unwrap().to_owned();
        let payload = token.split('.').nth(1).unwrap();
        use base64::Engine;
        let claims: Value = serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
        // The origin is the page's (Referer), never what the page says of itself.
        assert_eq!((claims["isVerified"].as_bool(), claims["origin"].as_str(), claims["id"].as_str()), (Some(verified), Some(origin), Some("abc123")));
    }
    s.stop().await;
}
