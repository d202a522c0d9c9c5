//! Social login and Sign In With Farcaster on the frame origin, end to end over HTTP: a real
//! OpenID Connect / OAuth 2 provider (npm oidc-provider, devidp/) stands in for Google (OpenID
//! Connect) and GitHub (OAuth 2 with PKCE and a user endpoint) through the endpoint overrides;
//! this test plays the browser (its login and consent forms). Farcaster runs against our own
//! ID registry on anvil. The same flows in Chromium with the modal: web/e2e.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use alloy_signer::SignerSync;
use alloy_signer_local::PrivateKeySigner;
use common::*;
use serde_json::{json, Value};

/// Where the frame origin is said to be (the provider sends the browser to its callback; the
/// test then calls the real frame address).
const FRAME_URL: &str = "http://sigil-frame.test";
const CALLBACK: &str = "http://sigil-frame.test/wallet/v1/social/callback";
const KEK: &str = "2222222222222222222222222222222222222222222222222222222222222222";
/// anvil's accounts 1 (fid 1, "alice") and 3 (no fid).
const KEY_1: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const KEY_3: &str = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";

struct Idp {
    child: Child,
    issuer: String,
    /// Kept open: the provider must never write into a closed pipe.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Idp {
    fn start() -> Idp {
        let root = repo_root();
        assert!(root.join("devidp/node_modules").exists(), "run `cd devidp && npm ci` first (make test does)");
        let mut child = Command::new("node")
            .arg(root.join("devidp/idp.mjs"))
            .args(["--redirect", CALLBACK])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).expect("the provider prints its address");
        let ready: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        Idp { child, issuer: ready["issuer"].as_str().unwrap().to_owned(), _stdout: stdout }
    }
}

impl Drop for Idp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn socials_file(dir: &tempfile::TempDir, issuer: &str) -> std::path::PathBuf {
    let file = dir.path().join("socials.toml");
    std::fs::write(
        &file,
        format!(
            r#"
[[provider]]
id = "google"
client_id = "sigil-google"
client_secret = "google-secret-for-tests"
issuer = "{issuer}"

# GitHub's flow (OAuth 2, PKCE, a user endpoint) against the stand-in's endpoints.
[[provider]]
id = "github"
client_id = "sigil-github"
client_secret = "github-secret-for-tests"
auth_url = "{issuer}/auth"
token_url = "{issuer}/token"
user_url = "{issuer}/me"
scopes = ["openid", "email", "profile"]
fields = {{ id = "/sub", username = "/preferred_username", email = "/email", email_verified = "/email_verified" }}
"#
        ),
    )
    .unwrap();
    file
}

struct Frame {
    base: String,
    http: reqwest::Client,
}

impl Frame {
    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let res = self.http.post(format!("{}{path}", self.base)).json(&body).send().await.unwrap();
        (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
    }

    /// The frame starts a login: the provider's URL.
    async fn redirect(&self, provider: &str, device: &str) -> String {
        let (status, body) = self.post("/wallet/v1/social/redirect", json!({"provider": provider, "deviceSecret": device})).await;
        assert_eq!(status, 200, "{body}");
        body["uri"].as_str().unwrap().to_owned()
    }

    /// The provider's callback, opened on the real frame address: status and page text.
    async fn callback(&self, url: &str) -> (u16, String, Option<String>) {
        let url = url.replace(FRAME_URL, &self.base);
        let res = self.http.get(url).send().await.unwrap();
        let location = res.headers().get("location").map(|l| l.to_str().unwrap().to_owned());
        (res.status().as_u16(), res.text().await.unwrap(), location)
    }
}

/// A browser at the provider: follows its redirects with its cookies, fills in the login form
/// with `login` (or cancels there), accepts the consent page, and stops at the redirect to
/// Sigil's callback, which it returns.
async fn at_provider(start: &str, login: &str, cancel: bool) -> String {
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut cookies: BTreeMap<String, String> = BTreeMap::new();
    let mut url = url::Url::parse(start).unwrap();
    let mut form: Option<Vec<(&str, &str)>> = None;
    for _ in 0..20 {
        let cookie = cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
        let req = match form.take() {
            Some(fields) => http.post(url.clone()).form(&fields),
            None => http.get(url.clone()),
        };
        let res = req.header("cookie", cookie).send().await.unwrap();
        for c in res.headers().get_all("set-cookie") {
            let pair = c.to_str().unwrap().split(';').next().unwrap();
            let (k, v) = pair.split_once('=').unwrap();
            cookies.insert(k.to_owned(), v.to_owned());
        }
        if res.status().is_redirection() {
            let next = url.join(res.headers()["location"].to_str().unwrap()).unwrap();
            if next.as_str().starts_with(CALLBACK) {
                return next.to_string();
            }
            url = next;
            continue;
        }
        let page = res.text().await.unwrap();
        assert!(page.contains("name=\"prompt\""), "an unexpected page at {url}: {page}");
        if page.contains("value=\"login\"") {
            if cancel {
                url = url.join(&format!("{}/abort", url.path())).unwrap();
                continue;
            }
            form = Some(vec![("prompt", "login"), ("login", login), ("password", "any")]);
        } else {
            form = Some(vec![("prompt", "consent")]);
        }
    }
    panic!("the provider never sent the browser back");
}

/// What the login window's page tells the frames of its opener: the state and, on success, the
/// claim secret (`<meta name=sigil-returned content="STATE CLAIM">`).
fn returned(page: &str) -> (String, Option<String>) {
    const MARK: &str = "name=sigil-returned content=\"";
    let at = page.find(MARK).unwrap_or_else(|| panic!("no sigil-returned in {page}")) + MARK.len();
    let content = &page[at..at + page[at..].find('"').unwrap()];
    let mut parts = content.split(' ');
    (parts.next().unwrap().to_owned(), parts.next().map(str::to_owned))
}

/// A whole login: start, provider, callback, connect with the claim secret the login window
/// was given. The connect answer.
async fn log_in(frame: &Frame, provider: &str, login: &str, device: &str) -> Value {
    let uri = frame.redirect(provider, device).await;
    let back = at_provider(&uri, login, false).await;
    let (status, page, _) = frame.callback(&back).await;
    assert_eq!(status, 200, "{page}");
    let (_, claim) = returned(&page);
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": device, "claim": claim.unwrap()})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "connected", "{body}");
    body
}

fn evm_address(connected: &Value) -> String {
    connected["user"]["accounts"].as_array().unwrap().iter().find(|a| a["namespace"] == "eip155").unwrap()["address"].as_str().unwrap().to_owned()
}

async fn start(b: Backend, idp: &Idp, dir: &tempfile::TempDir, anvil: Option<(&Anvil, &str)>) -> Option<(TestServer, Frame)> {
    let socials = sigil_server::wallet::social::Socials::load(Some(&socials_file(dir, &idp.issuer))).unwrap();
    let anvil = anvil.map(|(a, registry)| (a.url.clone(), registry.to_owned()));
    let s = TestServer::start_with(b, &["http://localhost:5173"], move |c| {
        c.kek = Some(sigil_server::wallet::keys::Kek::from_hex(KEK).unwrap());
        c.settings.wallet.frame_listen = Some("127.0.0.1:0".parse().unwrap());
        c.frame_url = FRAME_URL.into();
        c.socials = socials.into();
        // One connect call waits at most a second here (request timeout / 2).
        c.settings.server.request_timeout = std::time::Duration::from_secs(2);
        if let Some((url, registry)) = anvil {
            c.chains = dev_chain(&[&url]);
            c.settings.wallet.farcaster_chain = "eip155:31337".into();
            c.settings.wallet.farcaster_id_registry = registry;
        }
    })
    .await?;
    let frame = Frame {
        base: format!("http://{}", s.frame_addr().unwrap()),
        http: reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap(),
    };
    Some((s, frame))
}

async fn google_and_github_logins(b: Backend) {
    let idp = Idp::start();
    let dir = tempfile::tempdir().unwrap();
    let Some((s, frame)) = start(b, &idp, &dir, None).await else { return };

    let (status, list) = frame.post("/wallet/v1/socials", json!({})).await;
    assert_eq!(status, 405, "{list}");
    let list: Value = frame.http.get(format!("{}/wallet/v1/socials", frame.base)).send().await.unwrap().json().await.unwrap();
    assert_eq!(list, json!([{"id": "google", "label": "Google"}, {"id": "github", "label": "GitHub"}, {"id": "farcaster", "label": "Farcaster"}]));

    // Google (OpenID Connect): a new wallet with alice's verified email and name.
    let first = log_in(&frame, "google", "alice", "device-0001-secret-0123456789abcdef").await;
    assert_eq!(first["provider"], "google");
    assert_eq!(first["userName"], "alice");
    assert_eq!(first["user"]["email"], "alice@example.com");
    let address = evm_address(&first);
    assert!(address.starts_with("0x") && address.len() == 42);
    let token = first["token"].as_str().unwrap();
    let me: Value = frame.http.get(format!("{}/wallet/v1/user", frame.base)).bearer_auth(token).send().await.unwrap().json().await.unwrap();
    assert_eq!(evm_address(&json!({ "user": me })), address);

    // The same person again, on another device: the same wallet.
    let again = log_in(&frame, "google", "alice", "device-0002-secret-0123456789abcdef").await;
    assert_eq!(evm_address(&again), address);
    assert_ne!(again["token"], first["token"]);

    // GitHub-style OAuth 2 for the same verified email: joins alice's wallet.
    let github = log_in(&frame, "github", "alice", "device-0003-secret-0123456789abcdef").await;
    assert_eq!(github["provider"], "github");
    assert_eq!(evm_address(&github), address);

    // Eve claims alice's email without the provider verifying it: her own wallet, no email.
    let eve = log_in(&frame, "google", "eve", "device-0004-secret-0123456789abcdef").await;
    assert_ne!(evm_address(&eve), address);
    assert_eq!(eve["user"].get("email"), None, "{eve}");

    // Bob on GitHub: another wallet; again: the same one.
    let bob = log_in(&frame, "github", "bob", "device-0005-secret-0123456789abcdef").await;
    let bob_again = log_in(&frame, "github", "bob", "device-0005-secret-0123456789abcdef").await;
    assert_eq!(evm_address(&bob), evm_address(&bob_again));
    assert_ne!(evm_address(&bob), address);
    s.stop().await;
}

async fn refusals(b: Backend) {
    let idp = Idp::start();
    let dir = tempfile::tempdir().unwrap();
    let Some((s, frame)) = start(b, &idp, &dir, None).await else { return };
    let device = "device-0101-secret-0123456789abcdef";

    // Not configured; a bad device id.
    let (status, body) = frame.post("/wallet/v1/social/redirect", json!({"provider": "discord", "deviceSecret": device})).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().contains("login with discord is not configured on this server"), "{body}");
    let (status, _) = frame.post("/wallet/v1/social/redirect", json!({"provider": "google", "deviceSecret": "x"})).await;
    assert_eq!(status, 400);

    // Before the person finishes at the provider, connect says pending.
    let uri = frame.redirect("google", device).await;
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": device})).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("pending")), "{body}");

    // A tampered state is refused; the real callback works once; a replay is refused.
    let back = at_provider(&uri, "alice", false).await;
    let state = url::Url::parse(&back).unwrap().query_pairs().find(|(k, _)| k == "state").unwrap().1.into_owned();
    let tampered = back.replace(&format!("state={state}"), &format!("state={}x", &state[..state.len() - 1]));
    let (status, page, _) = frame.callback(&tampered).await;
    assert_eq!(status, 400);
    assert!(page.contains("This login link is not valid: start the login again"), "{page}");
    // A page for the person, not JSON wrapping one (issue 20, N15).
    assert!(page.starts_with("<!doctype html>") && !page.contains("\"error\""), "{page}");
    let (status, page, _) = frame.callback(&back).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Logged in with Google"));
    let (returned_state, claim) = returned(&page);
    assert_eq!(returned_state, state);
    let claim = claim.unwrap();
    let (status, page, _) = frame.callback(&back).await;
    assert_eq!(status, 400);
    assert!(page.contains("This login link was already used"), "{page}");
    assert!(!page.contains(&claim), "a replayed callback gives no claim secret");
    // Another device cannot claim it, even with the claim secret; its own device needs the
    // secret too; with both, once.
    let (status, body) =
        frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": "device-9999-secret-0123456789abcdef", "claim": claim})).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["message"], "This login is not known: start the login again");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": device})).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("returned")), "{body}");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": device, "claim": format!("{claim}x")})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("This login is not known: start the login again")), "{body}");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": device, "claim": claim})).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("connected")), "{body}");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": device, "claim": claim})).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["message"], "This login was already used: start the login again");

    // A code replayed with another login's state: the provider refuses it (PKCE, single use).
    let uri2 = frame.redirect("google", device).await;
    let state2 = url::Url::parse(&uri2).unwrap().query_pairs().find(|(k, _)| k == "state").unwrap().1.into_owned();
    let replayed = back.replace(&format!("state={state}"), &format!("state={state2}"));
    let (status, page, _) = frame.callback(&replayed).await;
    assert_eq!(status, 400);
    assert!(page.contains("Google refused the login: invalid_grant"), "{page}");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri2, "deviceSecret": device})).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().starts_with("Google refused the login: invalid_grant"), "{body}");

    // A wrong nonce in the ID token: the answer does not verify.
    let uri3 = frame.redirect("google", device).await;
    let nonce = url::Url::parse(&uri3).unwrap().query_pairs().find(|(k, _)| k == "nonce").unwrap().1.into_owned();
    let wrong_nonce = uri3.replace(&format!("nonce={nonce}"), "nonce=not-the-one-sigil-stored");
    let back3 = at_provider(&wrong_nonce, "alice", false).await;
    let (status, page, _) = frame.callback(&back3).await;
    assert_eq!(status, 400);
    assert!(page.contains("Google&#39;s answer did not verify") && page.to_lowercase().contains("nonce"), "{page}");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri3, "deviceSecret": device})).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().starts_with("Google's answer did not verify"), "{body}");

    // Cancelled at the provider.
    let uri4 = frame.redirect("github", device).await;
    let back4 = at_provider(&uri4, "alice", true).await;
    let (status, page, _) = frame.callback(&back4).await;
    assert_eq!(status, 400);
    assert!(page.contains("The login was cancelled at GitHub"), "{page}");
    assert_eq!(returned(&page), (url::Url::parse(&uri4).unwrap().query_pairs().find(|(k, _)| k == "state").unwrap().1.into_owned(), None));
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri4, "deviceSecret": device})).await;
    assert_eq!(
        (status, body["error"]["message"].as_str(), body["error"]["code"].as_str()),
        (400, Some("The login was cancelled at GitHub"), Some("login_cancelled"))
    );

    // A provider's error text is shown escaped, never as markup.
    let uri5 = frame.redirect("google", device).await;
    let state5 = url::Url::parse(&uri5).unwrap().query_pairs().find(|(k, _)| k == "state").unwrap().1.into_owned();
    let (status, page, _) = frame.callback(&format!("{CALLBACK}?state={state5}&error=server_error&error_description=%3Cscript%3Ealert(1)%3C/script%3E")).await;
    assert_eq!(status, 400);
    assert!(page.contains("&lt;script&gt;alert(1)") && !page.contains("<script>alert"), "{page}");
    s.stop().await;
}

async fn full_page_login_returns_to_the_host(b: Backend) {
    let idp = Idp::start();
    let dir = tempfile::tempdir().unwrap();
    let Some((s, frame)) = start(b, &idp, &dir, None).await else { return };
    let device = "device-0201-secret-0123456789abcdef";
    let (status, body) = frame
        .post("/wallet/v1/social/redirect", json!({"provider": "google", "deviceSecret": device, "returnUrl": "https://evil.example/", "projectId": s.project}))
        .await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().contains("https://evil.example is not an allowed origin of the project"), "{body}");
    let (status, _) =
        frame.post("/wallet/v1/social/redirect", json!({"provider": "google", "deviceSecret": device, "returnUrl": "http://localhost:5173/shop?x=1"})).await;
    assert_eq!(status, 403, "a return URL needs the project");
    let (status, body) = frame
        .post(
            "/wallet/v1/social/redirect",
            json!({"provider": "google", "deviceSecret": device, "returnUrl": "http://localhost:5173/shop?x=1", "projectId": s.project}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let back = at_provider(body["uri"].as_str().unwrap(), "bob", false).await;
    let (status, _, location) = frame.callback(&back).await;
    assert_eq!(status, 303);
    let location = location.unwrap();
    assert!(location.starts_with("http://localhost:5173/shop?x=1&sigil_social="), "{location}");
    assert!(location.contains("&sigil_claim="), "{location}");
    // The state alone does not claim it; the host page hands the whole URL to the frame, which
    // connects with it.
    let without_claim = location.split("&sigil_claim=").next().unwrap();
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": without_claim, "deviceSecret": device})).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("returned")), "{body}");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": location, "deviceSecret": device})).await;
    assert_eq!((status, body["status"].as_str(), body["userName"].as_str()), (200, Some("connected"), Some("bob")), "{body}");

    // A project open to every origin ('*') is no redirector: a full-page login returns only to
    // an origin it names (issue 20, N12).
    let open = sigil_server::projects::create(&s.db, "Open", &["*".into(), "https://shop.example".into()], Default::default()).await.unwrap().id;
    let redirect =
        |url: &str| frame.post("/wallet/v1/social/redirect", json!({"provider": "google", "deviceSecret": device, "returnUrl": url, "projectId": open}));
    let (status, body) = redirect("https://evil.example/").await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("https://evil.example is not an origin the project names"), "{body}");
    let (status, body) = redirect("https://shop.example/cart").await;
    assert_eq!(status, 200, "{body}");
    s.stop().await;
}

/// The probe's takeover (issue 20, N1): an attacker with no browser starts a login with their
/// own device secret, a victim finishes it at the provider; the attacker gets no session, with
/// the state, from the victim's own return URL, or by guessing. The victim's wallet is not
/// reachable through the attacker's login at all.
async fn a_login_is_claimed_only_by_the_browser_that_finished_it(b: Backend) {
    let idp = Idp::start();
    let dir = tempfile::tempdir().unwrap();
    let Some((s, frame)) = start(b, &idp, &dir, None).await else { return };
    let attacker = "device-6666-secret-0123456789abcdef";
    let victim_device = "device-7777-secret-0123456789abcdef";
    // The victim has a wallet already.
    let victim = log_in(&frame, "google", "victim", victim_device).await;

    // Popup flow: the attacker sends the provider URL; the victim logs in there.
    let uri = frame.redirect("google", attacker).await;
    let back = at_provider(&uri, "victim", false).await;
    let (status, page, _) = frame.callback(&back).await;
    assert_eq!(status, 200, "{page}");
    // The attacker asks as the frame would, with the state (the provider URL) and their secret.
    for _ in 0..3 {
        let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": attacker})).await;
        assert_eq!((status, body["status"].as_str()), (200, Some("returned")), "{body}");
        assert!(body.get("token").is_none());
    }
    // Guessed claim secrets are refused and give nothing.
    for guess in ["", "x", &"A".repeat(43)] {
        let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": attacker, "claim": guess})).await;
        assert_ne!(body["status"], "connected", "{status} {body}");
        assert!(body.get("token").is_none());
    }
    // The claim secret went to the victim's browser (the login window's page only).
    let (_, claim) = returned(&page);
    let claim = claim.unwrap();
    // The victim's own frame cannot claim the attacker's login either: it is not its device's.
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": victim_device, "claim": claim})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("This login is not known: start the login again")), "{body}");

    // Full-page flow: the return URL (an origin the project names) carries the claim secret
    // to the host page, whose frame has another device secret; the attacker never sees it.
    let (status, body) = frame
        .post(
            "/wallet/v1/social/redirect",
            json!({"provider": "google", "deviceSecret": attacker, "returnUrl": "http://localhost:5173/", "projectId": s.project}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let uri = body["uri"].as_str().unwrap().to_owned();
    let back = at_provider(&uri, "victim", false).await;
    let (status, _, location) = frame.callback(&back).await;
    assert_eq!(status, 303);
    let location = location.unwrap();
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": uri, "deviceSecret": attacker})).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("returned")), "{body}");
    let (status, body) = frame.post("/wallet/v1/social/connect", json!({"uri": location, "deviceSecret": victim_device})).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("This login is not known: start the login again")), "{body}");

    // No session was made for the victim's wallet but the victim's own.
    let user_id: String = sqlx::query_scalar("SELECT user_id FROM wallet_socials").fetch_one(&s.db).await.unwrap();
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM wallet_sessions WHERE user_id = $1").bind(&user_id).fetch_one(&s.db).await.unwrap();
    assert_eq!(sessions, 1, "only the victim's own login made a session");
    assert_eq!(evm_address(&victim).len(), 42);
    s.stop().await;
}

/// A wallet without an email (a social login that gave none) gets one only from a session whose
/// login is recent (issue 20, N1): an older token cannot add an address of the taker's choice
/// and then export the keys with codes sent there.
async fn adding_an_email_needs_a_recent_login(b: Backend) {
    let idp = Idp::start();
    let dir = tempfile::tempdir().unwrap();
    let Some((s, frame)) = start(b, &idp, &dir, None).await else { return };
    // eve's email is not verified by the provider: her wallet has none.
    let eve = log_in(&frame, "google", "eve", "device-0401-secret-0123456789abcdef").await;
    assert_eq!(eve["user"].get("email"), None);
    let token = eve["token"].as_str().unwrap();
    let update = || frame.http.post(format!("{}/wallet/v1/update-email", frame.base)).bearer_auth(token).json(&json!({"email": "taker@example.com"})).send();
    // Fresh: allowed past the check (no mail server here, so the mail itself cannot go out).
    let res = update().await.unwrap();
    assert_eq!(res.status(), 503, "{}", res.text().await.unwrap());
    // The same session (or a token refreshed from it) once its login is older than 10 minutes.
    sqlx::query("UPDATE wallet_sessions SET proved_at = proved_at - 600001").execute(&s.db).await.unwrap();
    let res = frame.http.post(format!("{}/wallet/v1/refresh", frame.base)).bearer_auth(token).send().await.unwrap();
    let refreshed: Value = res.json().await.unwrap();
    let res = frame
        .http
        .post(format!("{}/wallet/v1/update-email", frame.base))
        .bearer_auth(refreshed["token"].as_str().unwrap())
        .json(&json!({"email": "taker@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "fresh_login_required", "{body}");
    // Export needs an email code: a wallet without one cannot export.
    let res = frame.http.post(format!("{}/wallet/v1/export/request", frame.base)).bearer_auth(refreshed["token"].as_str().unwrap()).send().await.unwrap();
    assert_eq!(res.status(), 400);
    s.stop().await;
}

/// The channel's parameters from its URL.
fn channel(url: &str) -> BTreeMap<String, String> {
    url::Url::parse(url).unwrap().query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

fn siwf_message(params: &BTreeMap<String, String>, address: &str, fid: u64) -> String {
    format!(
        "{domain} wants you to sign in with your Ethereum account:\n{address}\n\nFarcaster Auth\n\nURI: {uri}\nVersion: 1\nChain ID: 10\nNonce: {nonce}\nIssued At: {now}\nResources:\n- farcaster://fid/{fid}",
        domain = params["domain"],
        uri = params["siweUri"],
        nonce = params["nonce"],
        now = sigil_core::siwx::format_rfc3339(sigil_core::siwx::OffsetDateTime::now_utc()),
    )
}

async fn authenticate(frame: &Frame, token: &str, key: &str, message: &str, fid: u64) -> (u16, Value) {
    let signer: PrivateKeySigner = key.parse().unwrap();
    let signature = signer.sign_message_sync(message.as_bytes()).unwrap();
    let res = frame
        .http
        .post(format!("{}/farcaster/v1/channel/authenticate", frame.base))
        .bearer_auth(token)
        .json(&json!({"message": message, "signature": format!("0x{}", alloy_primitives::hex::encode(signature.as_bytes())), "fid": fid, "username": "alice", "displayName": "Alice"}))
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
}

async fn farcaster(b: Backend) {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let registry = deployed["farcaster"]["idRegistry"].as_str().unwrap().to_owned();
    let idp = Idp::start();
    let dir = tempfile::tempdir().unwrap();
    let Some((s, frame)) = start(b, &idp, &dir, Some((&anvil, &registry))).await else { return };
    let device = "device-0301-secret-0123456789abcdef";
    let (status, body) = frame.post("/wallet/v1/farcaster/uri", json!({"deviceSecret": device})).await;
    assert_eq!(status, 200, "{body}");
    let url = body["url"].as_str().unwrap();
    let token = body["channelToken"].as_str().unwrap();
    assert!(url.starts_with("https://farcaster.xyz/~/siwf?channelToken="), "{url}");
    let params = channel(url);
    assert_eq!((params["domain"].as_str(), params["siweUri"].as_str()), ("sigil-frame.test", FRAME_URL));
    assert_eq!(params["relay"], format!("{FRAME_URL}/farcaster/v1/channel/authenticate"));

    let (status, body) = frame.post("/wallet/v1/farcaster/connect", json!({"channelToken": token, "deviceSecret": device})).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("pending")), "{body}");

    let alice = PrivateKeySigner::from_bytes(&KEY_1.parse().unwrap()).unwrap().address().to_checksum(None);
    let other = PrivateKeySigner::from_bytes(&KEY_3.parse().unwrap()).unwrap().address().to_checksum(None);
    // A key that is not fid 1's custody key is refused, whichever address the message names.
    let (status, body) = authenticate(&frame, token, KEY_3, &siwf_message(&params, &other, 1), 1).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["message"], "The message is not signed by the custody address of fid 1");
    // The frame waiting on the channel is told why; the channel stays open (anyone who saw its
    // QR code could post there), so the app's own message still completes it (issue 20, N15).
    let (status, body) = frame.post("/wallet/v1/farcaster/connect", json!({"channelToken": token, "deviceSecret": device})).await;
    assert_eq!(
        (status, body["status"].as_str(), body["refused"].as_str()),
        (200, Some("pending"), Some("The message is not signed by the custody address of fid 1")),
        "{body}"
    );
    let (status, body) = authenticate(&frame, token, KEY_1, &siwf_message(&params, &alice, 1), 1).await;
    assert_eq!((status, body["userName"].as_str()), (200, Some("alice")), "{body}");
    let (status, body) = frame.post("/wallet/v1/farcaster/connect", json!({"channelToken": token, "deviceSecret": device})).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("connected")), "{body}");

    // A new channel: the other key naming alice's address; another channel's nonce; a bad token.
    let (_, body) = frame.post("/wallet/v1/farcaster/uri", json!({"deviceSecret": device})).await;
    let (token, params) = (body["channelToken"].as_str().unwrap().to_owned(), channel(body["url"].as_str().unwrap()));
    let token = token.as_str();
    let (status, _) = authenticate(&frame, token, KEY_3, &siwf_message(&params, &alice, 1), 1).await;
    assert_eq!(status, 400);
    let (_, body) = frame.post("/wallet/v1/farcaster/uri", json!({"deviceSecret": device})).await;
    let (token, params) = (body["channelToken"].as_str().unwrap().to_owned(), channel(body["url"].as_str().unwrap()));
    let token = token.as_str();
    let mut wrong = params.clone();
    wrong.insert("nonce".into(), "someOtherNonce1".into());
    let (status, body) = authenticate(&frame, token, KEY_1, &siwf_message(&wrong, &alice, 1), 1).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("The message's nonce is not this channel's")));
    let (status, _) = authenticate(&frame, "not-a-channel", KEY_1, &siwf_message(&params, &alice, 1), 1).await;
    assert_eq!(status, 401);
    let (_, body) = frame.post("/wallet/v1/farcaster/uri", json!({"deviceSecret": device})).await;
    let (token, params) = (body["channelToken"].as_str().unwrap().to_owned(), channel(body["url"].as_str().unwrap()));
    let token = token.as_str();
    let (_, body) = frame.post("/wallet/v1/farcaster/connect", json!({"channelToken": token, "deviceSecret": device})).await;
    assert_eq!(body["status"], "pending");

    // fid 1's custody key: signed in as alice.
    let (status, body) = authenticate(&frame, token, KEY_1, &siwf_message(&params, &alice, 1), 1).await;
    assert_eq!((status, body["userName"].as_str()), (200, Some("alice")), "{body}");
    let (status, body) = authenticate(&frame, token, KEY_1, &siwf_message(&params, &alice, 1), 1).await;
    assert_eq!(status, 400, "a channel completes once: {body}");
    let (status, first) = frame.post("/wallet/v1/farcaster/connect", json!({"channelToken": token, "deviceSecret": device})).await;
    assert_eq!(
        (status, first["status"].as_str(), first["userName"].as_str(), first["provider"].as_str()),
        (200, Some("connected"), Some("alice"), Some("farcaster")),
        "{first}"
    );

    // Again on a new channel: the same wallet.
    let (_, body) = frame.post("/wallet/v1/farcaster/uri", json!({"deviceSecret": device})).await;
    let (token2, params2) = (body["channelToken"].as_str().unwrap().to_owned(), channel(body["url"].as_str().unwrap()));
    assert_eq!(authenticate(&frame, &token2, KEY_1, &siwf_message(&params2, &alice, 1), 1).await.0, 200);
    let (_, second) = frame.post("/wallet/v1/farcaster/connect", json!({"channelToken": token2, "deviceSecret": device})).await;
    assert_eq!(evm_address(&second), evm_address(&first));
    s.stop().await;
}

both_backends!(
    google_and_github_logins,
    refusals,
    full_page_login_returns_to_the_host,
    a_login_is_claimed_only_by_the_browser_that_finished_it,
    adding_an_email_needs_a_recent_login,
    farcaster
);
