//! The embedded wallet's API on the frame origin, against a mail sink in this test (it speaks
//! SMTP to lettre) and a real anvil: device approval, codes and their limits, sessions,
//! signing and sending, email change, key export, the origin check, and key rotation. The
//! frame, the modal and a real SMTP sink: web/e2e.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{dev_chain, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sqlx::Row;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Mail received: (to, whole message).
type Inbox = Arc<Mutex<Vec<(String, String)>>>;

/// A minimal SMTP server keeping what it receives.
async fn mail_sink() -> (u16, Inbox) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox: Inbox = Default::default();
    let kept = inbox.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let kept = kept.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 sink\r\n").await.unwrap();
                let (mut to, mut data, mut in_data) = (String::new(), String::new(), false);
                while let Ok(Some(line)) = lines.next_line().await {
                    if in_data {
                        if line == "." {
                            in_data = false;
                            kept.lock().unwrap().push((to.clone(), std::mem::take(&mut data)));
                            write.write_all(b"250 kept\r\n").await.unwrap();
                        } else {
                            data.push_str(&line);
                            data.push('\n');
                        }
                        continue;
                    }
                    let upper = line.to_ascii_uppercase();
                    let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        b"250 sink\r\n"
                    } else if upper.starts_with("RCPT TO:") {
                        to = line[8..].trim().trim_matches(|c| c == '<' || c == '>').to_owned();
                        b"250 ok\r\n"
                    } else if upper.starts_with("DATA") {
                        in_data = true;
                        b"354 go on\r\n"
                    } else if upper.starts_with("QUIT") {
                        let _ = write.write_all(b"221 bye\r\n").await;
                        return;
                    } else {
                        b"250 ok\r\n"
                    };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, inbox)
}

/// The last mail to `to` (waiting for it), and how many there are.
async fn last_mail(inbox: &Inbox, to: &str, count: usize) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mails: Vec<String> = inbox.lock().unwrap().iter().filter(|(t, _)| t == to).map(|(_, m)| m.clone()).collect();
        if mails.len() >= count {
            return mails[count - 1].clone();
        }
        assert!(Instant::now() < deadline, "mail {count} to {to} did not come");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The code in a mail's body: "... is 123456."
fn code_in(mail: &str) -> String {
    let mail = unfold(mail);
    mail.match_indices(" is ")
        .map(|(at, _)| &mail[at + 4..])
        .find(|rest| rest.len() > 6 && rest[..6].bytes().all(|b| b.is_ascii_digit()) && rest.as_bytes()[6] == b'.')
        .map(|rest| rest[..6].to_owned())
        .unwrap_or_else(|| panic!("no code in {mail}"))
}

/// The body as written: quoted-printable soft line breaks and escapes undone.
fn unfold(mail: &str) -> String {
    mail.replace("=\n", "").replace("=3D", "=")
}

/// A browser's User-Agent, as the frame's requests carry it.
const CHROME_ON_LINUX: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

fn link_token(mail: &str) -> String {
    let mail = unfold(mail);
    let at = mail.find("token=").unwrap_or_else(|| panic!("no link in {mail}")) + 6;
    mail[at..].chars().take_while(char::is_ascii_hexdigit).collect()
}

struct Frame {
    base: String,
    http: reqwest::Client,
}

impl Frame {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
    }
}

async fn start(b: Backend, anvil: &Anvil, kek: &str, smtp_port: u16) -> Option<(TestServer, Frame)> {
    start_on(b, dev_chain(&[&anvil.url]), kek, smtp_port).await
}

async fn start_on(b: Backend, chains: sigil_server::chains::Chains, kek: &str, smtp_port: u16) -> Option<(TestServer, Frame)> {
    let kek = kek.to_owned();
    let s = TestServer::start_with(b, &["http://localhost:5173"], move |c| {
        c.chains = chains;
        c.kek = Some(sigil_server::wallet::keys::Kek::from_hex(&kek).unwrap());
        c.settings.wallet.smtp_host = Some("127.0.0.1".into());
        c.settings.wallet.smtp_port = smtp_port;
        c.settings.wallet.smtp_tls = sigil_server::wallet::mail::SmtpTls::None;
        c.settings.wallet.frame_listen = Some("127.0.0.1:0".parse().unwrap());
        // The per-address limit on code tries has its own test; here many tries come from 127.0.0.1.
        c.settings.wallet.code_tries_per_minute = 10_000;
    })
    .await?;
    let frame = Frame { base: format!("http://{}", s.frame_addr().unwrap()), http: reqwest::Client::builder().user_agent(CHROME_ON_LINUX).build().unwrap() };
    Some((s, frame))
}

/// Opens the emailed approval link (its page names the device) and presses its button.
async fn approve(frame: &Frame, link_mail: &str) {
    let url = format!("{}/wallet/v1/approve-device?token={}", frame.base, link_token(link_mail));
    let page = frame.http.get(&url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let page = page.text().await.unwrap();
    assert!(page.contains("Chrome on Linux") && page.contains("method=post"), "{page}");
    let res = frame.http.post(format!("{}/wallet/v1/approve-device", frame.base)).form(&[("token", link_token(link_mail))]).send().await.unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
}

/// Logs `email` in on `device`: approval link, then the code. The session token and user.
async fn log_in(frame: &Frame, inbox: &Inbox, email: &str, device: &str) -> (String, Value) {
    let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceSecret": device})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_DEVICE")), "{body}");
    let email = &email.to_lowercase();
    let link = last_mail(inbox, email, 1).await;
    approve(frame, &link).await;
    let (status, body) = frame.post("/wallet/v1/connect-device", None, json!({"email": email, "deviceSecret": device})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_OTP")), "{body}");
    let code = code_in(&last_mail(inbox, email, 2).await);
    let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": code, "deviceSecret": device})).await;
    assert_eq!(status, 200, "{body}");
    (body["token"].as_str().unwrap().to_owned(), body["user"].clone())
}

both_backends!(
    email_login_codes_sessions_and_signing,
    update_email_export_and_rotation,
    codes_bound_to_devices_and_atomic,
    approval_links,
    upstream_calls_and_refreshes_are_budgeted_and_old_rows_pruned,
    smart_account_batches_from_the_same_address,
    sponsored_batches_are_user_operations_through_the_bundler,
    emails_in_the_visitors_language
);

async fn email_login_codes_sessions_and_signing(b: Backend) {
    let anvil = Anvil::start();
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some((s, frame)) = start(b, &anvil, &kek, port).await else { return };
    let device = "device-0001-secret-0123456789abcdef";

    // A page of another origin cannot call the frame's API.
    let res = frame
        .http
        .post(format!("{}/wallet/v1/connect-email", frame.base))
        .header("origin", "http://evil.example")
        .json(&json!({"email": "a@b.co", "deviceSecret": device}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    // Every route of the frame's API (not the emailed link, the provider's callback or the
    // Farcaster app's answer, which other origins open by design).
    for (get, path) in [
        (false, "/wallet/v1/connect-device"),
        (false, "/wallet/v1/connect-otp"),
        (true, "/wallet/v1/user"),
        (true, "/wallet/v1/is-connected"),
        (false, "/wallet/v1/refresh"),
        (false, "/wallet/v1/sign-out"),
        (false, "/wallet/v1/rpc"),
        (false, "/wallet/v1/update-email"),
        (false, "/wallet/v1/update-email/primary"),
        (false, "/wallet/v1/update-email/secondary"),
        (false, "/wallet/v1/export/request"),
        (false, "/wallet/v1/export"),
        (true, "/wallet/v1/socials"),
        (false, "/wallet/v1/social/redirect"),
        (false, "/wallet/v1/social/connect"),
        (false, "/wallet/v1/farcaster/uri"),
        (false, "/wallet/v1/farcaster/connect"),
    ] {
        let url = format!("{}{path}", frame.base);
        let req = if get { frame.http.get(url) } else { frame.http.post(url).json(&json!({})) };
        let res = req.header("origin", "http://evil.example").send().await.unwrap();
        assert_eq!(res.status(), 403, "{path}");
    }
    let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": "not-an-email", "deviceSecret": device})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Invalid parameter 'email': not a valid email address")));

    let (token, user) = log_in(&frame, &inbox, "Alice@Example.com", device).await;
    assert_eq!(user["email"], "alice@example.com");
    let evm = user["accounts"].as_array().unwrap().iter().find(|a| a["namespace"] == "eip155").unwrap()["address"].as_str().unwrap().to_owned();
    let sol = user["accounts"].as_array().unwrap().iter().find(|a| a["namespace"] == "solana").unwrap()["address"].as_str().unwrap().to_owned();
    assert!(evm.starts_with("0x") && bs58::decode(&sol).into_vec().unwrap().len() == 32);
    // The same person, again: the same wallet; this device is known, so a code comes at once.
    // (A new code for this email waits 30 s after the last one.)
    let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": "alice@example.com", "deviceSecret": device})).await;
    assert_eq!(status, 429, "{body}");
    let wait: i64 = body["error"]["message"].as_str().unwrap().trim_start_matches("Please try again after ").trim_end_matches(" seconds").parse().unwrap();
    assert!((25..=30).contains(&wait), "{wait}");
    // A live session on this device connects without a code.
    let (_, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": "alice@example.com", "deviceSecret": device, "token": token})).await;
    assert_eq!(body["action"], "CONNECT");

    // Five wrong codes burn the code.
    let email = "bob@example.com";
    let (bob_token, _) = log_in(&frame, &inbox, email, "device-0002-secret-0123456789abcdef").await;
    frame.post("/wallet/v1/sign-out", Some(&bob_token), json!({})).await;
    sqlx::query("UPDATE wallet_codes SET sent_at = 0").execute(&s.db).await.unwrap(); // the 30 s have passed
    let (_, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceSecret": "device-0002-secret-0123456789abcdef"})).await;
    assert_eq!(body["action"], "VERIFY_OTP");
    let right = code_in(&last_mail(&inbox, email, 3).await);
    let wrong = if right == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        let (status, body) =
            frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": wrong, "deviceSecret": "device-0002-secret-0123456789abcdef"})).await;
        assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Invalid code")));
    }
    let (status, body) =
        frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": right, "deviceSecret": "device-0002-secret-0123456789abcdef"})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("code_expired")), "{body}");
    // Codes are stored hashed.
    let stored: Vec<String> = sqlx::query_scalar("SELECT code_hash FROM wallet_codes").fetch_all(&s.db).await.unwrap();
    assert!(stored.iter().all(|h| (h.is_empty() || h.len() == 64) && !h.contains(&right)), "{stored:?}");

    // Sessions: live, rotated (the old token ends), signed out.
    assert_eq!(frame.get("/wallet/v1/is-connected", Some(&token)).await.1["isConnected"], true);
    let (_, body) = frame.post("/wallet/v1/refresh", Some(&token), json!({})).await;
    let token2 = body["token"].as_str().unwrap().to_owned();
    assert_eq!(frame.get("/wallet/v1/user", Some(&token)).await.0, 401);
    assert_eq!(frame.get("/wallet/v1/user", Some(&token2)).await.1["email"], "alice@example.com");

    // Signing: personal_sign recovers to the wallet; a transaction on anvil moves the balance.
    let (status, body) =
        frame.post("/wallet/v1/rpc", Some(&token2), json!({"chainId": "eip155:31337", "method": "personal_sign", "params": ["0x68656c6c6f", evm]})).await;
    assert_eq!(status, 200, "{body}");
    let sig: alloy_primitives::Signature = body["result"].as_str().unwrap().parse().unwrap();
    assert_eq!(sig.recover_address_from_msg(b"hello").unwrap().to_checksum(None), evm);
    let fund = json!({"jsonrpc": "2.0", "id": 1, "method": "anvil_setBalance", "params": [evm, "0xde0b6b3a7640000"]});
    reqwest::Client::new().post(&anvil.url).json(&fund).send().await.unwrap();
    let to = "0x000000000000000000000000000000000000bEEF";
    let (status, body) = frame
        .post(
            "/wallet/v1/rpc",
            Some(&token2),
            json!({"chainId": "eip155:31337", "method": "eth_sendTransaction", "params": [{"from": evm, "to": to, "value": "0x2386f26fc10000"}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let hash = body["result"].as_str().unwrap().to_owned();
    assert_eq!(hash.len(), 66);
    // anvil mines right after it answers: read the balance once the receipt is there.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (_, body) =
            frame.post("/wallet/v1/rpc", Some(&token2), json!({"chainId": "eip155:31337", "method": "eth_getTransactionReceipt", "params": [hash]})).await;
        if body["result"].is_object() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no receipt for {hash}: {body}");
        tokio::task::yield_now().await;
    }
    let (_, body) = frame.post("/wallet/v1/rpc", Some(&token2), json!({"chainId": "eip155:31337", "method": "eth_getBalance", "params": [to, "latest"]})).await;
    assert_eq!(body["result"], "0x2386f26fc10000");
    // More than the balance: the chain's refusal is the wallet's answer, a JSON-RPC error with
    // the node's code and words, not a server failure.
    let (status, body) = frame
        .post(
            "/wallet/v1/rpc",
            Some(&token2),
            json!({"chainId": "eip155:31337", "method": "eth_sendTransaction", "params": [{"from": evm, "to": to, "value": "0xde0b6b3a7640000"}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("result").is_none(), "{body}");
    assert!(body["error"]["code"].as_i64().is_some_and(|c| c < 0), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().to_lowercase().contains("insufficient funds"), "{body}");
    // So is a read the node refuses.
    let (status, body) =
        frame.post("/wallet/v1/rpc", Some(&token2), json!({"chainId": "eip155:31337", "method": "eth_getBalance", "params": ["not an address"]})).await;
    assert_eq!((status, body["error"]["code"].as_i64()), (200, Some(-32602)), "{body}");
    // Reads pass through; anything else is refused.
    let (status, body) = frame.post("/wallet/v1/rpc", Some(&token2), json!({"chainId": "eip155:31337", "method": "anvil_mine", "params": []})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Requested RPC call is not allowed")));
    let (status, _) = frame.post("/wallet/v1/rpc", None, json!({"chainId": "eip155:31337", "method": "personal_sign", "params": ["0x00", evm]})).await;
    assert_eq!(status, 401);

    frame.post("/wallet/v1/sign-out", Some(&token2), json!({})).await;
    assert_eq!(frame.get("/wallet/v1/is-connected", Some(&token2)).await.1["isConnected"], false);
    s.stop().await;
}

async fn update_email_export_and_rotation(b: Backend) {
    let anvil = Anvil::start();
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some((s, frame)) = start(b, &anvil, &kek, port).await else { return };
    let (token, user) = log_in(&frame, &inbox, "carol@example.com", "device-0003-secret-0123456789abcdef").await;
    let evm = user["accounts"][0]["address"].as_str().unwrap().to_owned();

    // Email change: a code to the old address, then one to the new.
    let (_, body) = frame.post("/wallet/v1/update-email", Some(&token), json!({"email": "carol@new.example"})).await;
    assert_eq!(body["action"], "VERIFY_PRIMARY_OTP");
    // Each mail says what it is for, to the address it goes to.
    let to_current = unfold(&last_mail(&inbox, "carol@example.com", 3).await);
    assert!(to_current.contains("confirms changing your wallet's email to carol@new.example"), "{to_current}");
    let old_code = code_in(&to_current);
    let (_, body) = frame.post("/wallet/v1/update-email/primary", Some(&token), json!({"otp": old_code})).await;
    assert_eq!(body["action"], "VERIFY_SECONDARY_OTP", "{body}");
    let to_new = unfold(&last_mail(&inbox, "carol@new.example", 1).await);
    assert!(to_new.contains("confirms this address for your wallet") && to_new.contains("To make carol@new.example your wallet's email address"), "{to_new}");
    // The code view's "Resend" asks for the same address again: within 30 s, told to wait; then
    // a new code to the new address (the current one's code was right already), none to the
    // current address, and the first code no longer works.
    let first_code = code_in(&to_new);
    let (status, body) = frame.post("/wallet/v1/update-email", Some(&token), json!({"email": "carol@new.example"})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("rate_limited")), "{body}");
    sqlx::query("UPDATE wallet_codes SET sent_at = 0").execute(&s.db).await.unwrap();
    let (status, body) = frame.post("/wallet/v1/update-email", Some(&token), json!({"email": "carol@new.example"})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_SECONDARY_OTP")), "{body}");
    let to_new = unfold(&last_mail(&inbox, "carol@new.example", 2).await);
    assert!(to_new.contains("confirms this address for your wallet"), "{to_new}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(inbox.lock().unwrap().iter().filter(|(to, _)| to == "carol@example.com").count(), 3, "no new code to the current address");
    let new_code = code_in(&to_new);
    if first_code != new_code {
        let (status, body) = frame.post("/wallet/v1/update-email/secondary", Some(&token), json!({"otp": first_code})).await;
        assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Invalid code")), "{body}");
    }
    let (_, body) = frame.post("/wallet/v1/update-email/secondary", Some(&token), json!({"otp": new_code})).await;
    assert_eq!(body["newEmail"], "carol@new.example", "{body}");
    assert_eq!(frame.get("/wallet/v1/user", Some(&token)).await.1["accounts"][0]["address"], evm);

    // Export after a fresh code; the keys are nowhere in the database.
    let res = frame.http.post(format!("{}/wallet/v1/export/request", frame.base)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(res.status(), 204);
    let code = code_in(&last_mail(&inbox, "carol@new.example", 3).await);
    let (status, keys) = frame.post("/wallet/v1/export", Some(&token), json!({"otp": code})).await;
    assert_eq!(status, 200, "{keys}");
    let signer: alloy_signer_local::PrivateKeySigner = keys["eip155"].as_str().unwrap().parse().unwrap();
    assert_eq!(signer.address().to_checksum(None), evm);

    // An address another wallet has: nothing tells before its code was confirmed, then 409.
    log_in(&frame, &inbox, "dave@example.com", "device-0007-secret-0123456789abcdef").await;
    sqlx::query("UPDATE wallet_codes SET sent_at = 0").execute(&s.db).await.unwrap();
    let (status, body) = frame.post("/wallet/v1/update-email", Some(&token), json!({"email": "Dave@example.com"})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_PRIMARY_OTP")), "{body}");
    let code = code_in(&last_mail(&inbox, "carol@new.example", 4).await);
    let (_, body) = frame.post("/wallet/v1/update-email/primary", Some(&token), json!({"otp": code})).await;
    assert_eq!(body["action"], "VERIFY_SECONDARY_OTP", "{body}");
    let code = code_in(&last_mail(&inbox, "dave@example.com", 3).await);
    let (status, body) = frame.post("/wallet/v1/update-email/secondary", Some(&token), json!({"otp": code})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (409, Some("Another wallet uses that email address")), "{body}");
    assert_eq!(frame.get("/wallet/v1/user", Some(&token)).await.1["email"], "carol@new.example");

    let secret_hex = keys["eip155"].as_str().unwrap().trim_start_matches("0x").to_owned();
    let solana = keys["solana"].as_str().unwrap().to_owned();
    let solana_secret_hex = hex::encode(&bs58::decode(&solana).into_vec().unwrap()[..32]);
    let tables =
        ["wallet_users", "wallet_keys", "wallet_devices", "wallet_codes", "wallet_sessions", "analytics_events", "relay_messages", "relay_inbox_messages"];
    for table in tables {
        for row in sqlx::query(&format!("SELECT * FROM {table}")).fetch_all(&s.db).await.unwrap() {
            for i in 0..row.len() {
                let text: String = row.try_get::<String, _>(i).or_else(|_| row.try_get::<i64, _>(i).map(|n| n.to_string())).unwrap_or_default();
                for secret in [&secret_hex, &solana, &solana_secret_hex] {
                    assert!(!text.to_lowercase().contains(&secret.to_lowercase()), "{table} holds a private key");
                }
            }
        }
    }
    let db = s.db.clone();
    s.stop().await;

    // Key-encryption key rotation: every key re-encrypted, the wallet still signs.
    let new_kek = sigil_server::wallet::keys::Kek::generate_hex();
    let (old, new) = (sigil_server::wallet::keys::Kek::from_hex(&kek).unwrap(), sigil_server::wallet::keys::Kek::from_hex(&new_kek).unwrap());
    assert_eq!(sigil_server::wallet::rotate_keys(&db, &old, &new).await.unwrap(), 4, "carol's and dave's two keys each");
    let ids: Vec<String> = sqlx::query_scalar("SELECT kek_id FROM wallet_keys").fetch_all(&db).await.unwrap();
    assert!(ids.iter().all(|id| *id == new.id()));
    let signer_key = sqlx::query("SELECT user_id FROM wallet_keys WHERE kind = 'secp256k1' AND address = $1").bind(&evm).fetch_one(&db).await.unwrap();
    let user_id: String = signer_key.try_get("user_id").unwrap();
    let (port2, _) = mail_sink().await;
    let mailer = sigil_server::wallet::mail::Mailer::new(&sigil_server::wallet::mail::MailSettings {
        host: "127.0.0.1".into(),
        port: port2,
        tls: sigil_server::wallet::mail::SmtpTls::None,
        username: None,
        password: None,
        from: "w@localhost".into(),
    })
    .unwrap();
    let wallets = sigil_server::wallet::Wallets::new(db.clone(), new, Some(mailer), String::new());
    let secret = wallets.secret(&user_id, sigil_server::wallet::keys::KeyKind::Secp256k1).await.unwrap();
    assert_eq!(sigil_server::wallet::keys::address_of(sigil_server::wallet::keys::KeyKind::Secp256k1, &secret).unwrap(), evm);
}

/// The probe's findings on codes (issue 20, N5, N6, N10): a code is tried only by the device it
/// was sent for, each try is counted and the code used up in one statement, so requests at once
/// neither pass the five tries nor use one code twice.
async fn codes_bound_to_devices_and_atomic(b: Backend) {
    let anvil = Anvil::start();
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some((s, frame)) = start(b, &anvil, &kek, port).await else { return };
    let email = "dana@example.com";
    let device = "device-0004-secret-0123456789abcdef";
    let other = "device-0005-secret-0123456789abcdef";
    let (token, user) = log_in(&frame, &inbox, email, device).await;
    frame.post("/wallet/v1/sign-out", Some(&token), json!({})).await;
    let new_code = |n: usize| {
        let (frame, inbox, s) = (&frame, &inbox, &s);
        async move {
            sqlx::query("UPDATE wallet_codes SET sent_at = 0").execute(&s.db).await.unwrap(); // the 30 s have passed
            let (_, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceSecret": device})).await;
            assert_eq!(body["action"], "VERIFY_OTP", "{body}");
            code_in(&last_mail(inbox, email, n).await)
        }
    };

    // N6: the code the approved device asked for, redeemed by another device secret (one never
    // approved, as a host page that saw the code would send): refused, and no try is used up.
    let code = new_code(3).await;
    for _ in 0..6 {
        let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": code, "deviceSecret": other})).await;
        assert_eq!((status, body["error"]["code"].as_str()), (409, Some("device_not_approved")), "{body}");
    }
    // Approved for this email, the other device still cannot use a code sent to the first.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    sqlx::query("INSERT INTO wallet_devices (email, device_id, approve_hash, approved_at, created_at) VALUES ($1, $2, '', $3, $3)")
        .bind(email)
        .bind(sigil_server::wallet::device_id(other).unwrap())
        .bind(now)
        .execute(&s.db)
        .await
        .unwrap();
    for _ in 0..6 {
        let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": code, "deviceSecret": other})).await;
        assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Invalid code")), "{body}");
    }
    let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": code, "deviceSecret": device})).await;
    assert_eq!(status, 200, "the tries of other devices did not wear the code out: {body}");
    assert_eq!(body["user"], user);
    // The device is stored by the hash of its secret only.
    let devices: Vec<String> = sqlx::query_scalar("SELECT device_id FROM wallet_devices").fetch_all(&s.db).await.unwrap();
    assert!(devices.iter().all(|d| d.len() == 64 && !d.contains("device-")), "{devices:?}");

    // N5: forty wrong codes at once: five are tried, the rest find the code worn out; the right
    // code after them is refused.
    let right = new_code(4).await;
    let wrong = if right == "000000" { "111111" } else { "000000" };
    let tries = (0..40).map(|_| frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": wrong, "deviceSecret": device})));
    let answers = futures::future::join_all(tries).await;
    let invalid = answers.iter().filter(|(_, b)| b["error"]["message"] == "Invalid code").count();
    let worn = answers.iter().filter(|(_, b)| b["error"]["code"] == "code_expired").count();
    assert_eq!((invalid, worn), (5, 35), "{answers:?}");
    let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": right, "deviceSecret": device})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("code_expired")), "{body}");
    let tries: i64 = sqlx::query_scalar("SELECT tries FROM wallet_codes WHERE email = $1 AND purpose = 'login'").bind(email).fetch_one(&s.db).await.unwrap();
    assert_eq!(tries, 5);

    // A right code among forty wrong ones at once: it counts only if it is among the five tried.
    let right = new_code(5).await;
    let mut batch: Vec<_> = (0..40).map(|_| wrong.to_owned()).collect();
    batch.insert(20, right.clone());
    let answers = futures::future::join_all(
        batch.iter().map(|otp| frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": otp, "deviceSecret": device}))),
    )
    .await;
    // At most five are tried: all five wrong, or the right one among them (which uses the code
    // up: the rest find it used).
    let sessions = answers.iter().filter(|(status, _)| *status == 200).count();
    let tried = answers.iter().filter(|(_, b)| b["error"]["message"] == "Invalid code").count() + sessions;
    assert!(sessions <= 1 && tried <= 5 && (sessions == 1 || tried == 5), "{answers:?}");

    // One right code sent five times at once: one session.
    let right = new_code(6).await;
    let answers =
        futures::future::join_all((0..5).map(|_| frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": right, "deviceSecret": device}))))
            .await;
    assert_eq!(answers.iter().filter(|(status, _)| *status == 200).count(), 1, "{answers:?}");
    s.stop().await;

    // N10: tries per client address, whichever email they name.
    let (port, _inbox) = mail_sink().await;
    let chains = dev_chain(&[&anvil.url]);
    let Some(s) = TestServer::start_with(b, &["http://localhost:5173"], move |c| {
        c.chains = chains;
        c.kek = Some(sigil_server::wallet::keys::Kek::from_hex(&kek).unwrap());
        c.settings.wallet.smtp_host = Some("127.0.0.1".into());
        c.settings.wallet.smtp_port = port;
        c.settings.wallet.smtp_tls = sigil_server::wallet::mail::SmtpTls::None;
        c.settings.wallet.frame_listen = Some("127.0.0.1:0".parse().unwrap());
        c.settings.wallet.code_tries_per_minute = 3;
    })
    .await
    else {
        return;
    };
    let frame = Frame { base: format!("http://{}", s.frame_addr().unwrap()), http: reqwest::Client::new() };
    for n in 0..3 {
        let (status, _) =
            frame.post("/wallet/v1/connect-otp", None, json!({"email": format!("user{n}@example.com"), "otp": "123456", "deviceSecret": device})).await;
        assert_eq!(status, 409);
    }
    let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": "user9@example.com", "otp": "123456", "deviceSecret": device})).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("rate_limited")), "{body}");
    s.stop().await;
}

/// Device approval (issue 20, N7): one link mail per email every 30 s, the link opens a page
/// that names the device and approves only by its button (a POST), works once and expires.
async fn approval_links(b: Backend) {
    let anvil = Anvil::start();
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some((s, frame)) = start(b, &anvil, &kek, port).await else { return };
    let email = "erin@example.com";
    let device = "device-0006-secret-0123456789abcdef";
    let connect = |d: &'static str| frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceSecret": d}));

    // Twenty new devices at once: one mail; the others are told to wait.
    let devices: Vec<&'static str> = (0..20).map(|n| &*Box::leak(format!("device-1{n:03}-secret-0123456789abcdef").into_boxed_str())).collect();
    let answers = futures::future::join_all(devices.iter().map(|d| connect(d))).await;
    assert_eq!(answers.iter().filter(|(_, b)| b["action"] == "VERIFY_DEVICE").count(), 1, "{answers:?}");
    assert!(answers.iter().filter(|(status, _)| *status == 429).all(|(_, b)| b["error"]["message"].as_str().unwrap().starts_with("Please try again after ")));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(inbox.lock().unwrap().iter().filter(|(to, _)| to == email).count(), 1);

    // The mail names the browser, system and time; opening the link approves nothing.
    sqlx::query("UPDATE wallet_codes SET sent_at = 0").execute(&s.db).await.unwrap();
    let (_, body) = connect(device).await;
    assert_eq!(body["action"], "VERIFY_DEVICE");
    let mail = unfold(&last_mail(&inbox, email, 2).await);
    assert!(mail.contains("Chrome on Linux, 20") && mail.contains(" UTC"), "{mail}");
    for method in [reqwest::Method::GET, reqwest::Method::HEAD] {
        let res = frame.http.request(method, format!("{}/wallet/v1/approve-device?token={}", frame.base, link_token(&mail))).send().await.unwrap();
        assert_eq!(res.status(), 200);
    }
    // The frame asks every 2 s while the user gets to the mail: "not yet" is an answer (200
    // VERIFY_DEVICE), not an error status, and sends nothing.
    for _ in 0..3 {
        let (status, body) = frame.post("/wallet/v1/connect-device", None, json!({"email": email, "deviceSecret": device})).await;
        assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_DEVICE")), "{body}");
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(inbox.lock().unwrap().iter().filter(|(to, _)| to == email).count(), 2, "no code before the approval");

    // Expired after 10 minutes.
    sqlx::query("UPDATE wallet_codes SET expires_at = 1 WHERE purpose = 'device'").execute(&s.db).await.unwrap();
    let res = frame.http.post(format!("{}/wallet/v1/approve-device", frame.base)).form(&[("token", link_token(&mail))]).send().await.unwrap();
    assert_eq!(res.status(), 404);
    let page = res.text().await.unwrap();
    assert!(page.starts_with("<!doctype html>") && page.contains("has expired"), "{page}");

    // A fresh link: its button approves, once.
    sqlx::query("UPDATE wallet_codes SET sent_at = 0").execute(&s.db).await.unwrap();
    connect(device).await;
    let mail = last_mail(&inbox, email, 3).await;
    approve(&frame, &mail).await;
    let res = frame.http.post(format!("{}/wallet/v1/approve-device", frame.base)).form(&[("token", link_token(&mail))]).send().await.unwrap();
    assert_eq!(res.status(), 404, "a link works once");
    let (status, body) = frame.post("/wallet/v1/connect-device", None, json!({"email": email, "deviceSecret": device})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_OTP")), "{body}");
    s.stop().await;
}

/// Issue 20, N8 and N14: with the upstream budget at 2/s, 277 calls once went through
/// /wallet/v1/rpc, and /wallet/v1/refresh made a session row per call without limit. Now the
/// wallet's calls to the chain take from the budget per user and per address, refreshes from
/// the write budget, and ended sessions, spent codes and old approvals are pruned.
async fn upstream_calls_and_refreshes_are_budgeted_and_old_rows_pruned(b: Backend) {
    let anvil = Anvil::start();
    let (port, inbox) = mail_sink().await;
    let chains = dev_chain(&[&anvil.url]);
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some(s) = TestServer::start_with(b, &["http://localhost:5173"], move |c| {
        c.chains = chains;
        c.kek = Some(sigil_server::wallet::keys::Kek::from_hex(&kek).unwrap());
        c.settings.wallet.smtp_host = Some("127.0.0.1".into());
        c.settings.wallet.smtp_port = port;
        c.settings.wallet.smtp_tls = sigil_server::wallet::mail::SmtpTls::None;
        c.settings.wallet.frame_listen = Some("127.0.0.1:0".parse().unwrap());
        c.rpc.requests_per_second = 2;
        c.settings.auth.writes_per_minute = 6;
    })
    .await
    else {
        return;
    };
    let frame = Frame { base: format!("http://{}", s.frame_addr().unwrap()), http: reqwest::Client::builder().user_agent(CHROME_ON_LINUX).build().unwrap() };
    let (token, _) = log_in(&frame, &inbox, "fay@example.com", "device-0008-secret-0123456789abcdef").await;
    let mut statuses = Vec::new();
    for _ in 0..20 {
        statuses.push(frame.post("/wallet/v1/rpc", Some(&token), json!({"chainId": "eip155:31337", "method": "eth_blockNumber", "params": []})).await.0);
    }
    let through = statuses.iter().filter(|s| **s == 200).count();
    assert!((1..=3).contains(&through) && statuses.iter().all(|s| *s == 200 || *s == 429), "{statuses:?}");
    // Calls that reach no node are not counted: signing still works.
    let (status, _) = frame.post("/wallet/v1/rpc", Some(&token), json!({"chainId": "eip155:31337", "method": "eth_chainId", "params": []})).await;
    assert_eq!(status, 200);

    // Refreshes: the write budget (6 a minute per address; the login used 2).
    let mut token = token;
    let mut refreshed = 0;
    for _ in 0..10 {
        let (status, body) = frame.post("/wallet/v1/refresh", Some(&token), json!({})).await;
        match status {
            200 => {
                token = body["token"].as_str().unwrap().to_owned();
                refreshed += 1;
            }
            429 => {}
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(refreshed, 4);

    // Pruning: a day after they ended, sessions and codes go; a year-old approval goes.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let day = 24 * 3600 * 1000;
    let count = |table: &'static str| {
        let db = s.db.clone();
        async move { sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&db).await.unwrap() }
    };
    let sessions = count("wallet_sessions").await;
    assert_eq!(sessions, 5, "the login's and four refreshed ones");
    sqlx::query("UPDATE wallet_sessions SET revoked_at = $1 WHERE revoked_at IS NOT NULL").bind(now - 2 * day).execute(&s.db).await.unwrap();
    sqlx::query("UPDATE wallet_codes SET expires_at = $1, sent_at = $1").bind(now - 2 * day).execute(&s.db).await.unwrap();
    sqlx::query("UPDATE wallet_devices SET approved_at = $1").bind(now - 366 * day).execute(&s.db).await.unwrap();
    let pruned = sigil_server::wallet::prune(&s.db, now).await.unwrap();
    assert_eq!((count("wallet_sessions").await, count("wallet_codes").await, count("wallet_devices").await), (1, 0, 0), "pruned {pruned}");
    assert_eq!(frame.get("/wallet/v1/user", Some(&token)).await.0, 200, "the live session stays");
    s.stop().await;
}

/// ABI words of `selector(address, uint256)`.
fn address_and_amount(selector: &str, address: &str, amount: u64) -> String {
    format!("{selector}{:0>64}{amount:064x}", address.trim_start_matches("0x").to_lowercase())
}

/// ABI words of `selector(address, ...)`.
fn addresses(selector: &str, list: &[&str]) -> String {
    list.iter().fold(selector.to_owned(), |data, a| format!("{data}{:0>64}", a.trim_start_matches("0x").to_lowercase()))
}

/// One eth_call of the dev token: its uint256 answer.
async fn token_uint(anvil: &str, token: &str, data: String) -> u64 {
    let answer = common::rpc(anvil, "eth_call", json!([{"to": token, "data": data}, "latest"])).await;
    u64::from_str_radix(answer.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// The frame's RPC call; the JSON body (a result or a JSON-RPC error) after asserting 200.
async fn wallet_rpc(frame: &Frame, token: &str, method: &str, params: Value, account_type: &str) -> Value {
    let (status, body) =
        frame.post("/wallet/v1/rpc", Some(token), json!({"chainId": "eip155:31337", "method": method, "params": params, "accountType": account_type})).await;
    assert_eq!(status, 200, "{method}: {body}");
    body
}

/// A batch's status once it is final.
async fn final_status(frame: &Frame, token: &str, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let body = wallet_rpc(frame, token, "wallet_getCallsStatus", json!([id]), "smartAccount").await;
        if body["result"]["status"] != 100 {
            return body["result"].clone();
        }
        assert!(Instant::now() < deadline, "batch {id} stays pending: {body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Issue 26: an embedded wallet's batch (ERC-20 approve + transfer) is one transaction from its
/// own address, which it delegates to Simple7702Account on the first batch; the EOA preference
/// sends the calls one by one under one id, and refuses when atomicity is required.
async fn smart_account_batches_from_the_same_address(b: Backend) {
    let anvil = Anvil::start();
    let deployed = common::deploy_devchain(&anvil.url);
    let implementation = deployed["smartAccount"]["implementation"].as_str().unwrap().to_owned();
    let sgl = deployed["tokens"][0]["address"].as_str().unwrap().to_owned();
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let mut chains = dev_chain(&[&anvil.url]);
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let Some((s, frame)) = start_on(b, chains, &kek, port).await else { return };
    let (token, user) = log_in(&frame, &inbox, "carol@example.com", "device-0007-secret-0123456789abcdef").await;
    let evm = user["accounts"].as_array().unwrap().iter().find(|a| a["namespace"] == "eip155").unwrap()["address"].as_str().unwrap().to_owned();
    common::rpc(&anvil.url, "anvil_setBalance", json!([evm, "0xde0b6b3a7640000"])).await;
    let deployer = deployed["deployer"].as_str().unwrap();
    let gift =
        common::rpc(&anvil.url, "eth_sendTransaction", json!([{"from": deployer, "to": sgl, "data": address_and_amount("0xa9059cbb", &evm, 1_000_000)}])).await;
    common::receipt(&anvil.url, gift.as_str().unwrap()).await;
    let bob = "0x000000000000000000000000000000000000b0b0";

    // Before the first batch: a plain EOA, ready to become a smart account.
    let caps = wallet_rpc(&frame, &token, "wallet_getCapabilities", json!([evm, ["0x7a69"]]), "smartAccount").await;
    assert_eq!(caps["result"], json!({"0x7a69": {"atomic": {"status": "ready"}}}));
    assert_eq!(
        wallet_rpc(&frame, &token, "wallet_getCapabilities", json!([evm]), "eoa").await["result"],
        json!({"0x7a69": {"atomic": {"status": "unsupported"}}})
    );
    assert_eq!(common::rpc(&anvil.url, "eth_getCode", json!([evm, "latest"])).await, "0x");

    let batch = |atomic: bool, approve: u64, transfer: u64| {
        json!([{"version": "2.0.0", "chainId": "0x7a69", "from": evm, "atomicRequired": atomic, "calls": [
            {"to": sgl, "data": address_and_amount("0x095ea7b3", bob, approve)},
            {"to": sgl, "data": address_and_amount("0xa9059cbb", bob, transfer)},
        ]}])
    };
    let sent = wallet_rpc(&frame, &token, "wallet_sendCalls", batch(true, 5_000, 10_000), "smartAccount").await;
    let id = sent["result"]["id"].as_str().unwrap_or_else(|| panic!("{sent}")).to_owned();
    let status = final_status(&frame, &token, &id).await;
    assert_eq!((status["status"].as_i64(), status["atomic"].as_bool(), status["chainId"].as_str()), (Some(200), Some(true), Some("0x7a69")), "{status}");
    assert_eq!(status["version"], "2.0.0");
    let receipts = status["receipts"].as_array().unwrap();
    assert_eq!(receipts.len(), 1, "one transaction for both calls");
    assert_eq!(receipts[0]["logs"].as_array().unwrap().len(), 2, "an Approval and a Transfer");
    let first_gas = u64::from_str_radix(receipts[0]["gasUsed"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let tx = common::rpc(&anvil.url, "eth_getTransactionByHash", json!([receipts[0]["transactionHash"]])).await;
    assert_eq!(
        (tx["type"].as_str(), tx["from"].as_str().map(str::to_lowercase), tx["to"].as_str().map(str::to_lowercase)),
        (Some("0x4"), Some(evm.to_lowercase()), Some(evm.to_lowercase()))
    );
    // The authorization: for this chain only, at the nonce after the transaction's own.
    let auth = &tx["authorizationList"][0];
    assert_eq!((auth["chainId"].as_str(), auth["address"].as_str().map(str::to_lowercase)), (Some("0x7a69"), Some(implementation.to_lowercase())));
    let tx_nonce = u64::from_str_radix(tx["nonce"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    assert_eq!(u64::from_str_radix(auth["nonce"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap(), tx_nonce + 1);
    // The account is now the smart account, at the same address.
    let code = common::rpc(&anvil.url, "eth_getCode", json!([evm, "latest"])).await;
    assert_eq!(code.as_str().unwrap().to_lowercase(), format!("0xef0100{}", implementation.trim_start_matches("0x").to_lowercase()));
    assert_eq!(token_uint(&anvil.url, &sgl, addresses("0xdd62ed3e", &[&evm, bob])).await, 5_000, "allowance(account, bob)");
    assert_eq!(token_uint(&anvil.url, &sgl, addresses("0x70a08231", &[bob])).await, 10_000, "balanceOf(bob)");
    let caps = wallet_rpc(&frame, &token, "wallet_getCapabilities", json!([evm, ["0x7a69"]]), "smartAccount").await;
    assert_eq!(caps["result"], json!({"0x7a69": {"atomic": {"status": "supported"}}}));
    let (_, user) = frame.get("/wallet/v1/user", Some(&token)).await;
    assert!(user["accounts"].as_array().unwrap().iter().any(|a| a["address"] == evm.as_str()), "the address never changes: {user}");

    // Nobody else may make the account call anything.
    let stranger = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"from": deployer, "to": evm, "data": batch_data(bob)}, "latest"]});
    let answer: Value = reqwest::Client::new().post(&anvil.url).json(&stranger).send().await.unwrap().json().await.unwrap();
    assert!(answer["error"]["message"].as_str().is_some_and(|m| m.contains("not from self or EntryPoint")), "{answer}");

    // A second batch, delegated already: a plain transaction to itself. Against it, the same two
    // calls as two transactions (the EOA preference): one id, two receipts.
    let sent = wallet_rpc(&frame, &token, "wallet_sendCalls", batch(false, 0, 10_000), "smartAccount").await;
    let status = final_status(&frame, &token, sent["result"]["id"].as_str().unwrap()).await;
    assert_eq!((status["status"].as_i64(), status["receipts"].as_array().unwrap().len()), (Some(200), 1), "{status}");
    let batch_gas = u64::from_str_radix(status["receipts"][0]["gasUsed"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let refused = wallet_rpc(&frame, &token, "wallet_sendCalls", batch(true, 0, 10_000), "eoa").await;
    assert_eq!(refused["error"]["code"], 5760, "{refused}");
    let sent = wallet_rpc(&frame, &token, "wallet_sendCalls", batch(false, 0, 10_000), "eoa").await;
    let status = final_status(&frame, &token, sent["result"]["id"].as_str().unwrap()).await;
    assert_eq!((status["status"].as_i64(), status["atomic"].as_bool()), (Some(200), Some(false)), "{status}");
    let receipts = status["receipts"].as_array().unwrap();
    assert_eq!(receipts.len(), 2);
    let plain_gas: u64 = receipts.iter().map(|r| u64::from_str_radix(r["gasUsed"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap()).sum();
    eprintln!("gas: approve + transfer as the delegating batch {first_gas}, as a batch {batch_gas}, as two transactions {plain_gas}");
    assert!(batch_gas < plain_gas, "one transaction saves a base fee: {batch_gas} vs {plain_gas}");

    // Refused before anything is signed: another sender, an unknown id, no session.
    let other = json!([{"version": "2.0.0", "from": bob, "calls": [{"to": bob}]}]);
    let (status, body) = frame.post("/wallet/v1/rpc", Some(&token), json!({"chainId": "eip155:31337", "method": "wallet_sendCalls", "params": other})).await;
    assert_eq!(status, 400, "{body}");
    let unknown = format!("0x{:016x}01{}", 31337, "ab".repeat(32));
    assert_eq!(
        wallet_rpc(&frame, &token, "wallet_getCallsStatus", json!([unknown]), "smartAccount").await["result"]["status"],
        100,
        "a hash not on chain is pending"
    );
    assert_eq!(wallet_rpc(&frame, &token, "wallet_getCallsStatus", json!(["0x1234"]), "smartAccount").await["error"]["code"], 5730);
    let (status, _) = frame.post("/wallet/v1/rpc", None, json!({"chainId": "eip155:31337", "method": "wallet_sendCalls", "params": batch(true, 1, 1)})).await;
    assert_eq!(status, 401);
    s.stop().await;
}

/// `executeBatch([(to, 0, 0x)])`, ABI-encoded.
fn batch_data(to: &str) -> String {
    use alloy_sol_types::SolValue;
    let to: alloy_primitives::Address = to.parse().unwrap();
    let calls = vec![(to, alloy_primitives::U256::ZERO, alloy_primitives::Bytes::new())];
    format!("0x34fcd5be{}", alloy_primitives::hex::encode((calls,).abi_encode_params()))
}

/// A bundler and ERC-7677 paymaster service in one stub, answering their documented shapes and
/// keeping every request: (method, params).
type Asked = Arc<Mutex<Vec<(String, Value)>>>;

async fn stub_bundler(paymaster: &'static str, op_hash: &'static str) -> (String, Asked) {
    let asked: Asked = Arc::default();
    let kept = asked.clone();
    let router = axum::Router::new().fallback(move |axum::Json(body): axum::Json<Value>| {
        let kept = kept.clone();
        async move {
            let method = body["method"].as_str().unwrap_or_default().to_owned();
            let receipts_asked = {
                let mut list = kept.lock().unwrap();
                list.push((method.clone(), body["params"].clone()));
                list.iter().filter(|(m, _)| m == "eth_getUserOperationReceipt").count()
            };
            let result = match method.as_str() {
                "pm_getPaymasterStubData" => json!({"paymaster": paymaster, "paymasterData": "0x01", "paymasterVerificationGasLimit": "0x10000", "paymasterPostOpGasLimit": "0x1000", "isFinal": false}),
                "eth_estimateUserOperationGas" => json!({"preVerificationGas": "0xc350", "verificationGasLimit": "0x20000", "callGasLimit": "0x30000", "paymasterVerificationGasLimit": "0x18000"}),
                "pm_getPaymasterData" => json!({"paymaster": paymaster, "paymasterData": "0xabcd"}),
                "eth_sendUserOperation" => json!(op_hash),
                // Pending at first, then included.
                "eth_getUserOperationReceipt" if receipts_asked == 1 => Value::Null,
                "eth_getUserOperationReceipt" => json!({"userOpHash": op_hash, "success": true, "receipt": {
                    "transactionHash": format!("0x{}", "77".repeat(32)), "status": "0x1", "blockHash": format!("0x{}", "88".repeat(32)),
                    "blockNumber": "0x10", "gasUsed": "0x1d4c0", "logs": []}}),
                _ => return axum::Json(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "method not found"}})),
            };
            axum::Json(json!({"jsonrpc": "2.0", "id": 1, "result": result}))
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (url, asked)
}

alloy_sol_types::sol! {
    struct PackedUserOperation {
        address sender;
        uint256 nonce;
        bytes initCode;
        bytes callData;
        bytes32 accountGasLimits;
        uint256 preVerificationGas;
        bytes32 gasFees;
        bytes paymasterAndData;
        bytes signature;
    }
    function getUserOpHash(PackedUserOperation userOp) view returns (bytes32);
}

/// Issue 26, sponsored gas: with a bundler and a paymaster service configured, a batch is a user
/// operation from the account (the delegation as eip7702Auth), its gas from the paymaster (stub
/// data to estimate with, then the final data), signed over what the real EntryPoint v0.8 hashes;
/// the account holds no ETH at all. Its status comes from the bundler.
async fn sponsored_batches_are_user_operations_through_the_bundler(b: Backend) {
    use alloy_sol_types::SolCall;
    const PAYMASTER: &str = "0x000000000000000000000000000000000000Fa1d";
    const OP_HASH: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";
    let anvil = Anvil::start();
    let deployed = common::deploy_devchain(&anvil.url);
    let implementation = deployed["smartAccount"]["implementation"].as_str().unwrap().to_owned();
    let deployer = deployed["deployer"].as_str().unwrap().to_owned();
    // The real EntryPoint v0.8, from the npm artifact, to check the hash that was signed.
    let artifact = common::repo_root().join("devchain/node_modules/@account-abstraction/contracts/artifacts/EntryPoint.json");
    let artifact: Value = serde_json::from_str(&std::fs::read_to_string(&artifact).expect("run `cd devchain && npm ci` (make test does)")).unwrap();
    let hash = common::rpc(&anvil.url, "eth_sendTransaction", json!([{"from": deployer, "data": artifact["bytecode"], "gas": "0x1c9c380"}])).await;
    let entry_point = common::receipt(&anvil.url, hash.as_str().unwrap()).await["contractAddress"].as_str().unwrap().to_owned();
    let (services, asked) = stub_bundler(PAYMASTER, OP_HASH).await;
    let mut chains = dev_chain(&[&anvil.url]);
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let account = chains.by_id.get_mut("eip155:31337").unwrap().smart_account.as_mut().unwrap();
    account.bundler = Some(services.clone());
    account.paymaster = Some(services.clone());
    account.entry_point = Some(entry_point.clone());
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some((s, frame)) = start_on(b, chains, &kek, port).await else { return };
    let (token, user) = log_in(&frame, &inbox, "fay@example.com", "device-0008-secret-0123456789abcdef").await;
    let evm = user["accounts"].as_array().unwrap().iter().find(|a| a["namespace"] == "eip155").unwrap()["address"].as_str().unwrap().to_owned();
    assert_eq!(common::rpc(&anvil.url, "eth_getBalance", json!([evm, "latest"])).await, "0x0", "the account pays nothing");

    let batch = json!([{"version": "2.0.0", "chainId": "0x7a69", "atomicRequired": true, "calls": [
        {"to": "0x000000000000000000000000000000000000b0b0", "data": "0x"},
        {"to": "0x000000000000000000000000000000000000b0b1", "data": "0x1234"},
    ]}]);
    let sent = wallet_rpc(&frame, &token, "wallet_sendCalls", batch, "smartAccount").await;
    let id = sent["result"]["id"].as_str().unwrap_or_else(|| panic!("{sent}")).to_owned();
    let methods: Vec<String> = asked.lock().unwrap().iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(methods, ["pm_getPaymasterStubData", "eth_estimateUserOperationGas", "pm_getPaymasterData", "eth_sendUserOperation"]);
    let (op, sent_to) = {
        let list = asked.lock().unwrap();
        (list[3].1[0].clone(), list[3].1[1].clone())
    };
    assert_eq!(sent_to.as_str().map(str::to_lowercase), Some(entry_point.to_lowercase()));
    // The paymaster's final data, the bundler's gas, and the delegation for this chain at the
    // account's own nonce (the bundler sends the transaction).
    assert_eq!((op["paymaster"].as_str(), op["paymasterData"].as_str()), (Some(PAYMASTER), Some("0xabcd")));
    assert_eq!((op["callGasLimit"].as_str(), op["paymasterVerificationGasLimit"].as_str()), (Some("0x30000"), Some("0x18000")));
    assert_eq!(op["factory"], "0x7702000000000000000000000000000000000000");
    let auth = &op["eip7702Auth"];
    assert_eq!((auth["chainId"].as_str(), auth["nonce"].as_str()), (Some("0x7a69"), Some("0x0")));
    assert_eq!(auth["address"].as_str().map(str::to_lowercase), Some(implementation.to_lowercase()));
    // The params of every call named the same EntryPoint and chain.
    assert!(asked.lock().unwrap().iter().filter(|(m, _)| m.starts_with("pm_")).all(|(_, p)| p[1] == sent_to && p[2] == "0x7a69"));

    // What was signed is what the EntryPoint hashes (once the account is delegated, as the
    // bundler's transaction makes it), and the signature is the account's.
    let designator = format!("0xef0100{}", implementation.trim_start_matches("0x").to_lowercase());
    common::rpc(&anvil.url, "anvil_setCode", json!([evm, designator])).await;
    let word = |f: &str| alloy_primitives::U256::from_str_radix(op[f].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let pack = |hi: alloy_primitives::U256, lo: alloy_primitives::U256| alloy_primitives::B256::from((hi << 128) | lo);
    let hex = |f: &str| alloy_primitives::hex::decode(op[f].as_str().unwrap().trim_start_matches("0x")).unwrap();
    let paymaster: alloy_primitives::Address = PAYMASTER.parse().unwrap();
    let packed = PackedUserOperation {
        sender: evm.parse().unwrap(),
        nonce: word("nonce"),
        initCode: [alloy_primitives::hex::decode("7702000000000000000000000000000000000000").unwrap(), hex("factoryData")].concat().into(),
        callData: hex("callData").into(),
        accountGasLimits: pack(word("verificationGasLimit"), word("callGasLimit")),
        preVerificationGas: word("preVerificationGas"),
        gasFees: pack(word("maxPriorityFeePerGas"), word("maxFeePerGas")),
        paymasterAndData: [
            paymaster.as_slice(),
            &word("paymasterVerificationGasLimit").to_be_bytes::<32>()[16..],
            &word("paymasterPostOpGasLimit").to_be_bytes::<32>()[16..],
            &hex("paymasterData"),
        ]
        .concat()
        .into(),
        signature: hex("signature").into(),
    };
    let call = format!("0x{}", alloy_primitives::hex::encode(getUserOpHashCall { userOp: packed }.abi_encode()));
    let expected = common::rpc(&anvil.url, "eth_call", json!([{"to": entry_point, "data": call}, "latest"])).await;
    let expected: alloy_primitives::B256 = expected.as_str().unwrap().parse().unwrap();
    let signature: alloy_primitives::Signature = op["signature"].as_str().unwrap().parse().unwrap();
    assert_eq!(signature.recover_address_from_prehash(&expected).unwrap().to_checksum(None), evm);

    // Its status: pending, then the bundler's receipt, as one atomic batch.
    assert_eq!(wallet_rpc(&frame, &token, "wallet_getCallsStatus", json!([id]), "smartAccount").await["result"]["status"], 100);
    let status = wallet_rpc(&frame, &token, "wallet_getCallsStatus", json!([id]), "smartAccount").await["result"].clone();
    assert_eq!((status["status"].as_i64(), status["atomic"].as_bool()), (Some(200), Some(true)), "{status}");
    assert_eq!(status["receipts"][0]["transactionHash"], format!("0x{}", "77".repeat(32)));
    // The EOA preference never asks the bundler: its calls are the account's own transactions,
    // which an account without ETH cannot pay for (the node's refusal is the answer).
    let before = asked.lock().unwrap().len();
    let eoa = json!([{"version": "2.0.0", "calls": [{"to": "0x000000000000000000000000000000000000b0b0"}]}]);
    let refused = wallet_rpc(&frame, &token, "wallet_sendCalls", eoa, "eoa").await;
    assert!(refused["error"]["message"].as_str().is_some_and(|m| m.to_lowercase().contains("insufficient funds")), "{refused}");
    assert_eq!(asked.lock().unwrap().len(), before);
    s.stop().await;
}

/// A mail's header `name`, its encoded words (RFC 2047, as lettre writes non-ASCII) decoded.
fn header(mail: &str, name: &str) -> String {
    use base64::Engine;
    let prefix = format!("{name}: ");
    let mut lines = mail.lines().skip_while(|l| !l.starts_with(&prefix));
    let mut value = lines.next().unwrap_or_else(|| panic!("no {name} in {mail}"))[prefix.len()..].to_owned();
    for more in lines.take_while(|l| l.starts_with(' ') || l.starts_with('\t')) {
        value.push(' ');
        value.push_str(more.trim_start());
    }
    // Words apart by whitespace, except between two encoded words (RFC 2047, 6.2).
    let mut out = String::new();
    let mut previous_encoded = false;
    for token in value.split_whitespace() {
        let encoded = token.starts_with("=?") && token.ends_with("?=");
        if !(out.is_empty() || previous_encoded && encoded) {
            out.push(' ');
        }
        match token.strip_prefix("=?").and_then(|t| t.strip_suffix("?=")).and_then(|t| t.rsplit_once('?')) {
            Some((charset_and_b, text)) if encoded && charset_and_b.to_ascii_lowercase().ends_with("?b") => {
                let bytes = base64::engine::general_purpose::STANDARD.decode(text).unwrap();
                out.push_str(&String::from_utf8(bytes).unwrap());
            }
            _ => out.push_str(token),
        }
        previous_encoded = encoded;
    }
    out
}

/// A mail's body as text: base64 or quoted-printable decoded.
fn body_text(mail: &str) -> String {
    use base64::Engine;
    let (head, body) = mail.split_once("\n\n").unwrap_or((mail, ""));
    if head.to_ascii_lowercase().contains("content-transfer-encoding: base64") {
        let joined: String = body.lines().map(str::trim).collect();
        return String::from_utf8(base64::engine::general_purpose::STANDARD.decode(joined).unwrap()).unwrap();
    }
    let raw = body.replace("=\n", "");
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&raw[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

/// Issue 28: the emails are written in the visitor's language: the frame names the modal's
/// locale with the email login (or as Accept-Language); an unknown one, or none, is English.
async fn emails_in_the_visitors_language(b: Backend) {
    use sigil_server::wallet::mail_lang::Lang;
    let anvil = Anvil::start();
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some((s, frame)) = start(b, &anvil, &kek, port).await else { return };
    let de = Lang::De.texts();
    let ja = Lang::Ja.texts();

    // German from the request's locale: the approval link's mail.
    let email = "lena@example.com";
    let device = "device-0028-secret-0123456789abcdef";
    let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceSecret": device, "locale": "de-AT"})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_DEVICE")), "{body}");
    let link = last_mail(&inbox, email, 1).await;
    assert_eq!(header(&link, "Subject"), de.device_subject);
    let text = body_text(&link);
    assert!(text.starts_with("Jemand meldet sich von einem neuen Gerät"), "{text}");
    assert!(text.contains(&format!("approve-device?token={}", link_token(&link))), "{text}");
    // The page the link opens is in the language of the browser that opens it (its
    // Accept-Language): German here, right to left in Arabic, English without one.
    let url = format!("{}/wallet/v1/approve-device?token={}", frame.base, link_token(&link));
    let open = |lang: Option<&'static str>| {
        let mut req = frame.http.get(&url);
        if let Some(lang) = lang {
            req = req.header("accept-language", lang);
        }
        async move { req.send().await.unwrap().text().await.unwrap() }
    };
    let page = open(Some("de-DE,de;q=0.9")).await;
    assert!(page.contains("<html lang=de dir=ltr>") && page.contains("<button type=submit>Dieses Gerät bestätigen</button>"), "{page}");
    assert!(page.contains(&format!("<b><bdi dir=ltr>{email}</bdi></b>")) && page.contains("<title>Gerät bestätigen?</title>"), "{page}");
    let page = open(Some("ar")).await;
    assert!(page.contains("<html lang=ar dir=rtl>") && page.contains(Lang::Ar.page().approve_button), "{page}");
    for lang in [None, Some("nl-NL,nl;q=0.9")] {
        let page = open(lang).await;
        assert!(page.contains("<html lang=en dir=ltr>") && page.contains("<button type=submit>Approve this device</button>"), "{page}");
    }
    approve(&frame, &link).await;
    // The button's answer too: the used link, in German.
    let res = frame
        .http
        .post(format!("{}/wallet/v1/approve-device", frame.base))
        .header("accept-language", "de-DE,de;q=0.9")
        .form(&[("token", link_token(&link))])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let page = res.text().await.unwrap();
    assert!(page.contains("<html lang=de dir=ltr>") && page.contains("<h1>Nicht bestätigt</h1>") && page.contains(Lang::De.page().unknown_text), "{page}");

    // Japanese for the login code (the locale of this request), which logs in.
    let (status, body) = frame.post("/wallet/v1/connect-device", None, json!({"email": email, "deviceSecret": device, "locale": "ja"})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_OTP")), "{body}");
    let mail = last_mail(&inbox, email, 2).await;
    let subject = header(&mail, "Subject");
    let code: String = subject.chars().take_while(char::is_ascii_digit).collect();
    assert_eq!(code.len(), 6, "{subject}");
    assert_eq!(subject, ja.login_subject.replace("{code}", &code));
    // (SMTP lines end in CRLF.)
    assert_eq!(body_text(&mail).replace("\r\n", "\n"), ja.login_body.replace("{code}", &code));
    let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": code, "deviceSecret": device})).await;
    assert_eq!(status, 200, "{body}");
    let token = body["token"].as_str().unwrap().to_owned();

    // Without a locale in the body, Accept-Language (as the frame sends it): Arabic for the export code.
    let res = frame.http.post(format!("{}/wallet/v1/export/request", frame.base)).bearer_auth(&token).header("accept-language", "ar").send().await.unwrap();
    assert_eq!(res.status(), 204);
    let mail = last_mail(&inbox, email, 3).await;
    let subject = header(&mail, "Subject");
    assert!(subject.ends_with(&Lang::Ar.texts().export_subject.replace("{code}", "")), "{subject}");

    // An unknown tag, a malformed one, or none: English, as before.
    for (n, locale) in [json!("xx-YY"), json!("de\r\nBcc: x@y.z"), Value::Null].into_iter().enumerate() {
        let email = format!("other{n}@example.com");
        let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceSecret": device, "locale": locale})).await;
        assert_eq!(status, 200, "{body}");
        let mail = last_mail(&inbox, &email, 1).await;
        assert_eq!(header(&mail, "Subject"), "Approve this device to log in");
        assert!(body_text(&mail).starts_with("Someone is logging in to your wallet from a new device"));
    }
    s.stop().await;
}
