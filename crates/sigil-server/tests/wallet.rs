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
    let chains = dev_chain(&[&anvil.url]);
    let kek = kek.to_owned();
    let s = TestServer::start_with(b, &["http://localhost:5173"], move |c| {
        c.chains = chains;
        c.kek = Some(sigil_server::wallet::keys::Kek::from_hex(&kek).unwrap());
        c.settings.smtp_host = Some("127.0.0.1".into());
        c.settings.smtp_port = smtp_port;
        c.settings.smtp_tls = sigil_server::wallet::mail::SmtpTls::None;
        c.settings.frame_listen = Some("127.0.0.1:0".parse().unwrap());
    })
    .await?;
    let frame = Frame { base: format!("http://{}", s.frame_addr().unwrap()), http: reqwest::Client::new() };
    Some((s, frame))
}

/// Logs `email` in on `device`: approval link, then the code. The session token and user.
async fn log_in(frame: &Frame, inbox: &Inbox, email: &str, device: &str) -> (String, Value) {
    let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceId": device})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_DEVICE")), "{body}");
    let email = &email.to_lowercase();
    let link = last_mail(inbox, email, 1).await;
    let res = frame.http.get(format!("{}/wallet/v1/approve-device?token={}", frame.base, link_token(&link))).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let (status, body) = frame.post("/wallet/v1/connect-device", None, json!({"email": email, "deviceId": device})).await;
    assert_eq!((status, body["action"].as_str()), (200, Some("VERIFY_OTP")), "{body}");
    let code = code_in(&last_mail(inbox, email, 2).await);
    let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": code, "deviceId": device})).await;
    assert_eq!(status, 200, "{body}");
    (body["token"].as_str().unwrap().to_owned(), body["user"].clone())
}

both_backends!(email_login_codes_sessions_and_signing, update_email_export_and_rotation);

async fn email_login_codes_sessions_and_signing(b: Backend) {
    let anvil = Anvil::start();
    let (port, inbox) = mail_sink().await;
    let kek = sigil_server::wallet::keys::Kek::generate_hex();
    let Some((s, frame)) = start(b, &anvil, &kek, port).await else { return };
    let device = "device-0001";

    // A page of another origin cannot call the frame's API.
    let res = frame
        .http
        .post(format!("{}/wallet/v1/connect-email", frame.base))
        .header("origin", "http://evil.example")
        .json(&json!({"email": "a@b.co", "deviceId": device}))
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
    let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": "not-an-email", "deviceId": device})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Invalid parameter 'email': not a valid email address")));

    let (token, user) = log_in(&frame, &inbox, "Alice@Example.com", device).await;
    assert_eq!(user["email"], "alice@example.com");
    let evm = user["accounts"].as_array().unwrap().iter().find(|a| a["namespace"] == "eip155").unwrap()["address"].as_str().unwrap().to_owned();
    let sol = user["accounts"].as_array().unwrap().iter().find(|a| a["namespace"] == "solana").unwrap()["address"].as_str().unwrap().to_owned();
    assert!(evm.starts_with("0x") && bs58::decode(&sol).into_vec().unwrap().len() == 32);
    // The same person, again: the same wallet; this device is known, so a code comes at once.
    // (A new code for this email waits 30 s after the last one.)
    let (status, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": "alice@example.com", "deviceId": device})).await;
    assert_eq!(status, 429, "{body}");
    let wait: i64 = body["error"]["message"].as_str().unwrap().trim_start_matches("Please try again after ").trim_end_matches(" seconds").parse().unwrap();
    assert!((25..=30).contains(&wait), "{wait}");
    // A live session on this device connects without a code.
    let (_, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": "alice@example.com", "deviceId": device, "token": token})).await;
    assert_eq!(body["action"], "CONNECT");

    // Five wrong codes burn the code.
    let email = "bob@example.com";
    let (bob_token, _) = log_in(&frame, &inbox, email, "device-0002").await;
    frame.post("/wallet/v1/sign-out", Some(&bob_token), json!({})).await;
    sqlx::query("UPDATE wallet_codes SET sent_at = 0").execute(&s.db).await.unwrap(); // the 30 s have passed
    let (_, body) = frame.post("/wallet/v1/connect-email", None, json!({"email": email, "deviceId": "device-0002"})).await;
    assert_eq!(body["action"], "VERIFY_OTP");
    let right = code_in(&last_mail(&inbox, email, 3).await);
    let wrong = if right == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": wrong, "deviceId": "device-0002"})).await;
        assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Invalid code")));
    }
    let (status, body) = frame.post("/wallet/v1/connect-otp", None, json!({"email": email, "otp": right, "deviceId": "device-0002"})).await;
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
    let (token, user) = log_in(&frame, &inbox, "carol@example.com", "device-0003").await;
    let evm = user["accounts"][0]["address"].as_str().unwrap().to_owned();

    // Email change: a code to the old address, then one to the new.
    let (_, body) = frame.post("/wallet/v1/update-email", Some(&token), json!({"email": "carol@new.example"})).await;
    assert_eq!(body["action"], "VERIFY_PRIMARY_OTP");
    let old_code = code_in(&last_mail(&inbox, "carol@example.com", 3).await);
    let (_, body) = frame.post("/wallet/v1/update-email/primary", Some(&token), json!({"otp": old_code})).await;
    assert_eq!(body["action"], "VERIFY_SECONDARY_OTP", "{body}");
    let new_code = code_in(&last_mail(&inbox, "carol@new.example", 1).await);
    let (_, body) = frame.post("/wallet/v1/update-email/secondary", Some(&token), json!({"otp": new_code})).await;
    assert_eq!(body["newEmail"], "carol@new.example", "{body}");
    assert_eq!(frame.get("/wallet/v1/user", Some(&token)).await.1["accounts"][0]["address"], evm);

    // Export after a fresh code; the keys are nowhere in the database.
    let res = frame.http.post(format!("{}/wallet/v1/export/request", frame.base)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(res.status(), 204);
    let code = code_in(&last_mail(&inbox, "carol@new.example", 2).await);
    let (status, keys) = frame.post("/wallet/v1/export", Some(&token), json!({"otp": code})).await;
    assert_eq!(status, 200, "{keys}");
    let signer: alloy_signer_local::PrivateKeySigner = keys["eip155"].as_str().unwrap().parse().unwrap();
    assert_eq!(signer.address().to_checksum(None), evm);
    let secret_hex = keys["eip155"].as_str().unwrap().trim_start_matches("0x").to_owned();
    let solana = keys["solana"].as_str().unwrap().to_owned();
    let solana_secret_hex = hex::encode(&bs58::decode(&solana).into_vec().unwrap()[..32]);
    let tables = ["wallet_users", "wallet_keys", "wallet_devices", "wallet_codes", "wallet_sessions", "analytics_events", "relay_messages"];
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
    assert_eq!(sigil_server::wallet::rotate_keys(&db, &old, &new).await.unwrap(), 2);
    let ids: Vec<String> = sqlx::query_scalar("SELECT kek_id FROM wallet_keys").fetch_all(&db).await.unwrap();
    assert!(ids.iter().all(|id| *id == new.id()));
    let signer_key = sqlx::query("SELECT user_id FROM wallet_keys WHERE kind = 'secp256k1'").fetch_one(&db).await.unwrap();
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
    assert_eq!(wallets.evm_signer(&user_id).await.unwrap().address().to_checksum(None), evm);
}
