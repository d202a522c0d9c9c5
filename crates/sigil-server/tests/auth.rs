//! Sign in with the wallet, end to end against a real anvil chain, on SQLite and PostgreSQL:
//! EOA signatures from anvil's personal_sign, an EIP-1271 contract wallet, Solana ed25519, and
//! every refusal (replayed nonce, tampered or expired message, wrong domain or chain).

mod common;

use common::{deploy_devchain, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sigil_server::chains::Chains;

both_backends!(
    eoa_sign_in_sessions_and_refusals,
    contract_wallet_and_solana,
    ended_nonces_and_sessions_are_pruned,
    the_server_bounds_sessions_and_compares_evm_accounts_by_checksum
);

const ACCOUNT0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ACCOUNT1: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ORIGIN: &str = "http://localhost:5173";

async fn server(b: Backend, anvil: &Anvil) -> Option<TestServer> {
    let mut chains = Chains::built_in();
    chains.set_dev_rpc(&anvil.url);
    TestServer::start_with(b, &[ORIGIN], move |c| c.chains = chains).await
}

/// Now plus `offset_secs` (may be negative), whole seconds, RFC 3339.
fn now_rfc3339(offset_secs: i64) -> String {
    let now = sigil_core::siwx::OffsetDateTime::now_utc().replace_nanosecond(0).unwrap();
    let d = std::time::Duration::from_secs(offset_secs.unsigned_abs());
    sigil_core::siwx::format_rfc3339(if offset_secs < 0 { now - d } else { now + d })
}

struct Msg<'a> {
    issued_at: Option<String>,
    domain: &'a str,
    account_line: String,
    kind: &'a str,
    chain: &'a str,
    nonce: String,
    extra: String,
}

impl Msg<'_> {
    fn text(&self) -> String {
        format!(
            "{} wants you to sign in with your {} account:\n{}\n\nSign in to Sigil.\n\nURI: http://{}\nVersion: 1\nChain ID: {}\nNonce: {}\nIssued At: {}{}",
            self.domain,
            self.kind,
            self.account_line,
            self.domain,
            self.chain,
            self.nonce,
            self.issued_at.clone().unwrap_or_else(|| now_rfc3339(-5)),
            self.extra
        )
    }
}

async fn nonce(s: &TestServer) -> String {
    let res = s.http.post(s.api("/auth/v1/nonce")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert!(body["expiresAt"].as_i64().unwrap() > 0);
    body["nonce"].as_str().unwrap().to_owned()
}

/// personal_sign by one of anvil's unlocked accounts.
async fn personal_sign(anvil: &Anvil, message: &str, account: &str) -> String {
    let hex_msg = format!("0x{}", hex::encode(message.as_bytes()));
    let res: Value = reqwest::Client::new()
        .post(&anvil.url)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "personal_sign", "params": [hex_msg, account]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    res["result"].as_str().unwrap_or_else(|| panic!("{res}")).to_owned()
}

async fn authenticate(s: &TestServer, message: &str, signature: &str) -> (u16, Value) {
    let res = s.http.post(s.api("/auth/v1/authenticate")).json(&json!({"message": message, "signature": signature})).send().await.unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

async fn eoa_sign_in_sessions_and_refusals(b: Backend) {
    let anvil = Anvil::start();
    let Some(s) = server(b, &anvil).await else { return };
    let msg = |nonce: String, extra: &str| Msg {
        issued_at: None,
        domain: "localhost:5173",
        account_line: ACCOUNT0.into(),
        kind: "Ethereum",
        chain: "31337",
        nonce,
        extra: extra.into(),
    };

    let text = msg(nonce(&s).await, "").text();
    let signature = personal_sign(&anvil, &text, ACCOUNT0).await;
    let (status, body) = authenticate(&s, &text, &signature).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().unwrap().to_owned();
    let session = &body["session"];
    assert_eq!(session["data"]["accountAddress"], ACCOUNT0);
    assert_eq!(session["data"]["chainId"], "eip155:31337");
    assert_eq!(session["message"], text);
    assert_eq!(session["signature"], signature);
    assert_eq!(session["cacao"]["p"]["iss"], format!("did:pkh:eip155:31337:{ACCOUNT0}"));
    assert_eq!(session["cacao"]["s"]["t"], "eip191");

    // The session reads back with its token, and lists for its account.
    let current: Value = s.http.get(s.api("/auth/v1/session")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(current["id"], session["id"]);
    let listed: Value =
        s.http.get(s.api(&format!("/auth/v1/sessions?account=eip155:31337:{ACCOUNT0}"))).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(listed["sessions"].as_array().unwrap().len(), 1);
    let other = s.http.get(s.api(&format!("/auth/v1/sessions?account=eip155:31337:{ACCOUNT1}"))).bearer_auth(&token).send().await.unwrap();
    assert_eq!(other.status(), 403);
    assert_eq!(s.http.get(s.api("/auth/v1/session")).send().await.unwrap().status(), 401);
    assert_eq!(s.http.get(s.api("/auth/v1/session")).bearer_auth("nope").send().await.unwrap().status(), 401);

    // Replay: the same signed message again.
    let (status, body) = authenticate(&s, &text, &signature).await;
    assert_eq!((status, body["error"]["message"].as_str()), (409, Some("Nonce has already been used")));

    // Tampered: signed, then the statement changed.
    let text2 = msg(nonce(&s).await, "").text();
    let sig2 = personal_sign(&anvil, &text2, ACCOUNT0).await;
    let (status, body) = authenticate(&s, &text2.replace("Sign in to Sigil.", "Send all funds."), &sig2).await;
    assert_eq!((status, body["error"]["message"].as_str()), (401, Some("Invalid signature")));
    // Signed by another account.
    let sig3 = personal_sign(&anvil, &text2, ACCOUNT1).await;
    assert_eq!(authenticate(&s, &text2, &sig3).await.0, 401);

    // Expired and not yet valid.
    let expired = msg(nonce(&s).await, &format!("\nExpiration Time: {}", now_rfc3339(-1))).text();
    let sig = personal_sign(&anvil, &expired, ACCOUNT0).await;
    let (status, body) = authenticate(&s, &expired, &sig).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Message has expired")));
    let early = msg(nonce(&s).await, &format!("\nNot Before: {}", now_rfc3339(3600))).text();
    let sig = personal_sign(&anvil, &early, ACCOUNT0).await;
    assert_eq!(authenticate(&s, &early, &sig).await.1["error"]["message"], "Message is not yet valid");

    // Wrong domain (not an allowed origin) and an unknown chain.
    let evil = Msg { issued_at: None, domain: "evil.example", ..msg(nonce(&s).await, "") }.text();
    let sig = personal_sign(&anvil, &evil, ACCOUNT0).await;
    let (status, body) = authenticate(&s, &evil, &sig).await;
    assert_eq!(status, 403, "{body}");
    let wrong_chain = Msg { chain: "999", ..msg(nonce(&s).await, "") }.text();
    let sig = personal_sign(&anvil, &wrong_chain, ACCOUNT0).await;
    assert_eq!(authenticate(&s, &wrong_chain, &sig).await.1["error"]["message"], "Chain eip155:999 is not supported");
    // A nonce the server never issued, and a malformed message naming its line.
    let forged = msg("abcdefgh12345678".into(), "").text();
    let sig = personal_sign(&anvil, &forged, ACCOUNT0).await;
    assert_eq!(authenticate(&s, &forged, &sig).await.1["error"]["code"], "unknown_nonce");
    let (status, body) = authenticate(&s, &text.replace("Version: 1", "Version: 2"), &signature).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().contains("Version"), "{body}");

    // Sign out: the token stops working.
    let out: Value = s.http.post(s.api("/auth/v1/signout")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(out, json!({"revoked": true}));
    assert_eq!(s.http.get(s.api("/auth/v1/session")).bearer_auth(&token).send().await.unwrap().status(), 401);
    s.stop().await;
}

async fn contract_wallet_and_solana(b: Backend) {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let wallet = deployed["contractWallet"]["address"].as_str().unwrap().to_owned();
    let Some(s) = server(b, &anvil).await else { return };

    // EIP-1271: the contract account's owner (account 0) signs; the server asks the contract.
    let text = Msg {
        issued_at: None,
        domain: "localhost:5173",
        account_line: wallet.clone(),
        kind: "Ethereum",
        chain: "31337",
        nonce: nonce(&s).await,
        extra: String::new(),
    }
    .text();
    let signature = personal_sign(&anvil, &text, ACCOUNT0).await;
    let (status, body) = authenticate(&s, &text, &signature).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["session"]["data"]["accountAddress"], wallet);
    let text = Msg {
        issued_at: None,
        domain: "localhost:5173",
        account_line: wallet.clone(),
        kind: "Ethereum",
        chain: "31337",
        nonce: nonce(&s).await,
        extra: String::new(),
    }
    .text();
    let by_stranger = personal_sign(&anvil, &text, ACCOUNT1).await;
    assert_eq!(authenticate(&s, &text, &by_stranger).await.0, 401);

    // Solana: ed25519 over the message bytes, base58 key and signature.
    use ed25519_dalek::Signer;
    let key = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
    let pubkey = bs58::encode(key.verifying_key().as_bytes()).into_string();
    let text = Msg {
        issued_at: None,
        domain: "localhost:5173",
        account_line: pubkey.clone(),
        kind: "Solana",
        chain: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        nonce: nonce(&s).await,
        extra: String::new(),
    }
    .text();
    let sig = bs58::encode(key.sign(text.as_bytes()).to_bytes()).into_string();
    let (status, body) = authenticate(&s, &text, &sig).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["session"]["data"]["chainId"], "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
    assert_eq!(body["session"]["cacao"]["s"]["t"], "ed25519");
    let text = Msg {
        issued_at: None,
        domain: "localhost:5173",
        account_line: pubkey,
        kind: "Solana",
        chain: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        nonce: nonce(&s).await,
        extra: String::new(),
    }
    .text();
    let wrong = bs58::encode(ed25519_dalek::SigningKey::from_bytes(&[8u8; 32]).sign(text.as_bytes()).to_bytes()).into_string();
    assert_eq!(authenticate(&s, &text, &wrong).await.0, 401);
    s.stop().await;
}

/// Nonces and sessions that ended over a day ago are deleted; live ones and recent ones stay.
async fn ended_nonces_and_sessions_are_pruned(b: Backend) {
    let Some(s) = TestServer::start_with(b, &[ORIGIN], |_| {}).await else { return };
    let now = 1_900_000_000_000i64;
    let (hour, day) = (3_600_000i64, sigil_server::auth::RETENTION_MS);
    for (nonce, expires) in [("old", now - day - hour), ("recent", now - hour), ("live", now + hour)] {
        sqlx::query("INSERT INTO auth_nonces (nonce, project_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(nonce)
            .bind(&s.project)
            .bind(expires - 600_000)
            .bind(expires)
            .execute(&s.db)
            .await
            .unwrap();
    }
    let sessions: [(&str, i64, Option<i64>); 4] = [
        ("expired-long-ago", now - day - hour, None),
        ("revoked-long-ago", now + day, Some(now - day - hour)),
        ("revoked-recently", now + day, Some(now - hour)),
        ("live", now + day, None),
    ];
    for (id, expires, revoked) in sessions {
        sqlx::query(
            "INSERT INTO auth_sessions (id, project_id, token_hash, account, chain_id, message, signature, created_at, expires_at, revoked_at) \
             VALUES ($1, $2, $3, 'a', 'eip155:1', 'm', 's', $4, $5, $6)",
        )
        .bind(id)
        .bind(&s.project)
        .bind(format!("hash-{id}"))
        .bind(now - 2 * day)
        .bind(expires)
        .bind(revoked)
        .execute(&s.db)
        .await
        .unwrap();
    }
    assert_eq!(sigil_server::auth::prune(&s.db, now).await.unwrap(), 3);
    let left = |table: &'static str, column: &'static str| {
        let db = s.db.clone();
        async move {
            let rows = sqlx::query(&format!("SELECT {column} FROM {table} ORDER BY {column}")).fetch_all(&db).await.unwrap();
            rows.iter().map(|r| sqlx::Row::get::<String, _>(r, 0)).collect::<Vec<_>>()
        }
    };
    assert_eq!(left("auth_nonces", "nonce").await, ["live", "recent"]);
    assert_eq!(left("auth_sessions", "id").await, ["live", "revoked-recently"]);
    // Nothing more to do the second time.
    assert_eq!(sigil_server::auth::prune(&s.db, now).await.unwrap(), 0);
    s.stop().await;
}

async fn the_server_bounds_sessions_and_compares_evm_accounts_by_checksum(b: Backend) {
    let anvil = Anvil::start();
    let Some(s) = server(b, &anvil).await else { return };
    let msg = |nonce: String, account_line: String, issued_at: Option<String>, extra: String| Msg {
        issued_at,
        domain: "localhost:5173",
        account_line,
        kind: "Ethereum",
        chain: "31337",
        nonce,
        extra,
    };
    let now_ms = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    const WEEK_MS: i64 = 7 * 24 * 3600 * 1000;

    // The message asks for 30 days; the server's cap (7 days by default) wins.
    let text = msg(nonce(&s).await, ACCOUNT0.into(), None, format!("\nExpiration Time: {}", now_rfc3339(30 * 24 * 3600))).text();
    let (status, body) = authenticate(&s, &text, &personal_sign(&anvil, &text, ACCOUNT0).await).await;
    assert_eq!(status, 200, "{body}");
    let expires = body["session"]["expiresAt"].as_i64().unwrap();
    assert!((now_ms() + WEEK_MS - 60_000..=now_ms() + WEEK_MS).contains(&expires), "{expires}");
    let token = body["token"].as_str().unwrap().to_owned();

    // Issued ten minutes ahead of the server's clock: refused, whatever else holds.
    let text = msg(nonce(&s).await, ACCOUNT0.into(), Some(now_rfc3339(600)), String::new()).text();
    let (status, body) = authenticate(&s, &text, &personal_sign(&anvil, &text, ACCOUNT0).await).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("message_issued_in_future")), "{body}");
    // Within the allowed skew (two minutes ahead) it passes.
    let text = msg(nonce(&s).await, ACCOUNT0.into(), Some(now_rfc3339(120)), String::new()).text();
    let (status, body) = authenticate(&s, &text, &personal_sign(&anvil, &text, ACCOUNT0).await).await;
    assert_eq!(status, 200, "{body}");

    // The same account written in lower case is the same account: its sessions list together,
    // whichever case the query uses, and the stored account is checksummed.
    let lower = ACCOUNT0.to_lowercase();
    let text = msg(nonce(&s).await, lower.clone(), None, String::new()).text();
    let (status, body) = authenticate(&s, &text, &personal_sign(&anvil, &text, ACCOUNT0).await).await;
    assert_eq!(status, 200, "{body}");
    let lower_token = body["token"].as_str().unwrap().to_owned();
    for (account, token) in [(lower.as_str(), &lower_token), (ACCOUNT0, &lower_token), (lower.as_str(), &token)] {
        let res = s.http.get(s.api(&format!("/auth/v1/sessions?account=eip155:31337:{account}"))).bearer_auth(token).send().await.unwrap();
        assert_eq!(res.status(), 200, "{account}");
        assert_eq!(res.headers()["cache-control"], "no-store");
        let listed: Value = res.json().await.unwrap();
        assert_eq!(listed["sessions"].as_array().unwrap().len(), 3, "{account}: {listed}");
    }
    let stored: Vec<String> = sqlx::query_scalar("SELECT account FROM auth_sessions").fetch_all(&s.db).await.unwrap();
    assert!(stored.iter().all(|a| a == &format!("eip155:31337:{ACCOUNT0}")), "{stored:?}");
    s.stop().await;
}
