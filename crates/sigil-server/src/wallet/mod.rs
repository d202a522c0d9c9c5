//! Embedded wallets (issue 13): a wallet made from an email code and held by the server,
//! used only through the secure frame page served on its own origin. Email one-time codes
//! (hashed, 10 minutes, 5 tries, one every 30 s per email), device approval by a link, sessions
//! with rotating bearer tokens that only the frame's origin ever holds, keys encrypted under a
//! key-encryption key (keys.rs), signing (sign.rs). Routes are in routes.rs.

pub mod farcaster;
pub mod keys;
pub mod login;
pub mod login_routes;
pub mod mail;
pub mod mail_lang;
pub mod page;
pub mod routes;
pub mod social;
pub mod store;

/// The device-approval link's page, on the frame origin.
pub const APPROVE_PATH: &str = "/wallet/v1/approve-device";

use std::sync::Arc;

use rand::Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::db::{now_ms, Db};
use crate::error::{ApiError, ErrorCode};
use crate::families::Family;
use keys::{Kek, KeyKind, Sealed};
use mail::{Confirm, Mailer};
use mail_lang::Lang;

pub const CODE_TTL_MS: i64 = 10 * 60 * 1000;
pub const CODE_COOLDOWN_MS: i64 = 30 * 1000;
pub const CODE_TRIES: i64 = 5;
pub const SESSION_TTL_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// A device-approval link works this long.
pub const LINK_TTL_MS: i64 = 10 * 60 * 1000;
/// Adding an email to a wallet that has none needs a login proved this recently.
pub const FRESH_PROOF_MS: i64 = 10 * 60 * 1000;

/// What the frame does next after "connect email" (spec section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Action {
    VerifyDevice,
    VerifyOtp,
    Connect,
    VerifyPrimaryOtp,
    VerifySecondaryOtp,
}

/// An account of the user, per namespace (spec account types: eip155 eoa here, solana eoa).
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Account {
    pub namespace: String,
    pub address: String,
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct User {
    /// None for a wallet made by a social login that gave no verified email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    pub accounts: Vec<Account>,
}

/// A live session: its user, and when its login was proved.
#[derive(Debug, Clone)]
pub struct Session {
    pub user_id: String,
    pub user: User,
    pub proved_at: i64,
}

/// What a code (or link) is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Login,
    /// A device-approval link: its secret is the "code".
    Device,
    UpdatePrimary,
    UpdateSecondary,
    Export,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Login => "login",
            Purpose::Device => "device",
            Purpose::UpdatePrimary => "update_primary",
            Purpose::UpdateSecondary => "update_secondary",
            Purpose::Export => "export",
        }
    }
}

fn hash(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn code_hash(email: &str, purpose: Purpose, code: &str) -> String {
    hash(&format!("{}:{email}:{code}", purpose.as_str()))
}

/// A device as the server knows it: the hash of the secret only its frame holds, so whoever
/// sees a login code (the host page it is typed into) or the device's id in the database
/// cannot act as the device.
pub fn device_id(secret: &str) -> Result<String, ApiError> {
    if (32..=128).contains(&secret.len()) && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        Ok(hash(&format!("device:{secret}")))
    } else {
        Err(ApiError::invalid_param("deviceSecret", "32 to 128 letters, digits, '-' or '_'"))
    }
}

fn bad(code: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, message)
}

/// Spec section 5: an email login is not sent again within 30 s.
pub fn try_again_after(seconds: i64) -> String {
    format!("Please try again after {seconds} seconds")
}

/// Lower-cased, trimmed; None when it is not an email address.
pub fn normalize_email(email: &str) -> Option<String> {
    let email = email.trim().to_lowercase();
    let (local, domain) = email.split_once('@')?;
    let ok = !local.is_empty()
        && local.len() <= 64
        && domain.len() <= 253
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && email.bytes().all(|b| b.is_ascii_alphanumeric() || b"@.!#$%&'*+/=?^_`{|}~-".contains(&b))
        && email.matches('@').count() == 1;
    ok.then_some(email)
}

/// Who is logging in, for the approval mail: "Chrome on Linux", and when.
#[derive(Debug, Clone, Default)]
pub struct Requester {
    pub user_agent: Option<String>,
}

/// The browser and system a User-Agent names, in words ("a browser" when it names none we know).
pub fn describe_user_agent(ua: Option<&str>) -> String {
    let ua = ua.unwrap_or_default();
    let browser = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari")]
        .iter()
        .find(|(mark, _)| ua.contains(mark))
        .map(|(_, name)| *name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iPadOS"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(mark, _)| ua.contains(mark))
    .map(|(_, name)| *name);
    match (browser, system) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.to_owned(),
        (None, Some(s)) => format!("a browser on {s}"),
        (None, None) => "a browser".to_owned(),
    }
}

/// A time as the mail and the approval page show it: `2026-11-26 12:30 UTC`.
pub fn format_time(ms: i64) -> String {
    use sigil_core::siwx::OffsetDateTime;
    let t = OffsetDateTime::from_unix_timestamp(ms / 1000).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    format!("{:04}-{:02}-{:02} {:02}:{:02} UTC", t.year(), u8::from(t.month()), t.day(), t.hour(), t.minute())
}

/// The embedded-wallet service.
pub struct Wallets {
    db: Db,
    kek: Kek,
    /// None when no mail server is configured: email login is then refused (socials still work).
    mailer: Option<Mailer>,
    /// Base URL of the frame origin (device approval links point there).
    frame_url: String,
    /// Woken when a social login finishes (login.rs).
    flow_done: tokio::sync::Notify,
}

impl Wallets {
    pub fn new(db: Db, kek: Kek, mailer: Option<Mailer>, frame_url: String) -> Wallets {
        Wallets { db, kek, mailer, frame_url, flow_done: tokio::sync::Notify::new() }
    }

    fn mailer(&self) -> Result<&Mailer, ApiError> {
        self.mailer.as_ref().ok_or_else(|| {
            ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, "Email login is not configured on this server (mail server)")
        })
    }

    fn unavailable(e: impl std::fmt::Display) -> ApiError {
        ApiError::unavailable(e)
    }

    async fn user_id(&self, email: &str) -> Result<Option<String>, ApiError> {
        Ok(store::users::id_by_email(&self.db, email).await?)
    }

    /// Stores a new code (or link secret) for `key` and `purpose`, unless one went out less
    /// than 30 s ago: one statement decides, so requests at once cannot both pass.
    async fn issue(&self, key: &str, purpose: Purpose, secret_hash: &str, payload: Option<&str>, device: &str) -> Result<(), ApiError> {
        let now = now_ms();
        let ttl = if purpose == Purpose::Device { LINK_TTL_MS } else { CODE_TTL_MS };
        if store::codes::issue(&self.db, key, purpose.as_str(), secret_hash, payload, device, now, now + ttl, now - CODE_COOLDOWN_MS).await? {
            return Ok(());
        }
        let sent = store::codes::sent_at(&self.db, key, purpose.as_str()).await?;
        let wait = ((CODE_COOLDOWN_MS - (now - sent.unwrap_or(now))).max(1) + 999) / 1000;
        Err(ApiError {
            retry_after: Some(wait as u64),
            ..ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, try_again_after(wait))
        })
    }

    /// A new code for `key` (hashed in storage, sent by email to `to` in `lang`), bound to `device`
    /// for a login ('' for the others, which need a session anyway).
    async fn send_code(&self, key: &str, purpose: Purpose, payload: Option<&str>, to: &str, device: &str, lang: Lang) -> Result<(), ApiError> {
        let mailer = self.mailer()?;
        let code = format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000u32));
        self.issue(key, purpose, &code_hash(key, purpose, &code), payload, device).await?;
        let sent = match purpose {
            Purpose::Login => mailer.login_code(to, &code, lang).await,
            Purpose::UpdatePrimary => {
                let new_email = payload.ok_or_else(|| ApiError::internal("an email change without its address"))?;
                mailer.confirm_code(to, &code, Confirm::EmailChange { new_email }, lang).await
            }
            Purpose::UpdateSecondary => mailer.confirm_code(to, &code, Confirm::NewAddress, lang).await,
            Purpose::Export => mailer.confirm_code(to, &code, Confirm::Export, lang).await,
            Purpose::Device => return Err(ApiError::internal("a device link is not a code")),
        };
        sent.map_err(Self::unavailable)
    }

    /// Checks a code in one statement that counts the try and, when it is right, uses the code
    /// up: requests at once can neither pass the five tries nor use one code twice. Only the
    /// device the code was sent for can try it (others are told no more than "Invalid code",
    /// and cannot wear it out). Its payload, if any.
    async fn check_code(&self, key: &str, purpose: Purpose, code: &str, device: &str) -> Result<Option<String>, ApiError> {
        let now = now_ms();
        let digits = code.trim();
        let given = if digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit()) { code_hash(key, purpose, digits) } else { String::new() };
        let invalid = || bad(ErrorCode::InvalidCode, "Invalid code");
        if let Some((used, payload)) = store::codes::try_code(&self.db, key, purpose.as_str(), &given, device, now, CODE_TRIES).await? {
            return if used { Ok(payload) } else { Err(invalid()) };
        }
        // Nothing to try: only the device the code went to learns why.
        Err(match store::codes::state_for(&self.db, key, purpose.as_str(), device).await? {
            Some((stored, ..)) if stored.is_empty() => bad(ErrorCode::InvalidCode, "No code was sent, or it was used up: ask for a new one"),
            Some((_, expires, tries)) if expires <= now || tries >= CODE_TRIES => {
                bad(ErrorCode::CodeExpired, "The code has expired or was tried too often: ask for a new one")
            }
            _ => invalid(),
        })
    }

    /// "Connect email": a device with a live session for this email connects, an approved
    /// device gets a login code, any other device an approval link first.
    pub async fn connect_email(&self, email: &str, device_secret: &str, token: Option<&str>, requester: &Requester, lang: Lang) -> Result<Action, ApiError> {
        let email = normalize_email(email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        let device = device_id(device_secret)?;
        if let Some(token) = token {
            if let Ok(session) = self.session(token).await {
                if session.user.email.as_deref() == Some(email.as_str()) {
                    return Ok(Action::Connect);
                }
            }
        }
        if self.device_approved(&email, &device).await? {
            self.send_code(&email, Purpose::Login, None, &email, &device, lang).await?;
            return Ok(Action::VerifyOtp);
        }
        let mailer = self.mailer()?;
        let secret = hex::encode(rand::random::<[u8; 32]>());
        let now = now_ms();
        let who = format!("{}, {}", describe_user_agent(requester.user_agent.as_deref()), format_time(now));
        self.issue(&email, Purpose::Device, &hash(&secret), Some(&who), &device).await?;
        let link = format!("{}{APPROVE_PATH}?token={secret}", self.frame_url);
        mailer.device_approval(&email, &link, &who, lang).await.map_err(Self::unavailable)?;
        Ok(Action::VerifyDevice)
    }

    /// Whether this device was approved for this email, within the last year.
    async fn device_approved(&self, email: &str, device: &str) -> Result<bool, ApiError> {
        let approved = store::devices::approved_at(&self.db, email, device).await?;
        Ok(approved.is_some_and(|at| at > now_ms() - DEVICE_APPROVAL_MS))
    }

    /// What an approval link is for, while it works: the email and the device in words.
    pub async fn pending_approval(&self, secret: &str) -> Result<Option<(String, String)>, ApiError> {
        let link = store::codes::live_link(&self.db, Purpose::Device.as_str(), &hash(secret), now_ms()).await?;
        Ok(link.map(|(email, who)| (email, who.unwrap_or_default())))
    }

    /// The approval link was confirmed (a POST from its page): the device may log in with a
    /// code. A link works once, for 10 minutes.
    pub async fn approve_device(&self, secret: &str) -> Result<(), ApiError> {
        let now = now_ms();
        let link = store::codes::use_link(&self.db, Purpose::Device.as_str(), &hash(secret), now).await?;
        let Some((email, device)) = link else { return Err(ApiError::not_found("This approval link is unknown, was used already or has expired")) };
        store::devices::approve(&self.db, &email, &device, now).await?;
        Ok(())
    }

    /// "Connect device", which the frame asks every 2 s while the link is not opened yet: still
    /// VERIFY_DEVICE (an answer, not an error: waiting is the normal case) until the device is
    /// approved; then a login code goes out (VERIFY_OTP).
    pub async fn connect_device(&self, email: &str, device_secret: &str, lang: Lang) -> Result<Action, ApiError> {
        let email = normalize_email(email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        let device = device_id(device_secret)?;
        if !self.device_approved(&email, &device).await? {
            return Ok(Action::VerifyDevice);
        }
        self.send_code(&email, Purpose::Login, None, &email, &device, lang).await?;
        Ok(Action::VerifyOtp)
    }

    /// "Connect OTP": the code the approved device asked for is right, so the user (made now
    /// if new, with keys) gets a session.
    pub async fn connect_otp(&self, email: &str, code: &str, device_secret: &str) -> Result<(String, User), ApiError> {
        let email = normalize_email(email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        let device = device_id(device_secret)?;
        if !self.device_approved(&email, &device).await? {
            return Err(not_approved());
        }
        self.check_code(&email, Purpose::Login, code, &device).await?;
        let user_id = match self.user_id(&email).await? {
            Some(id) => id,
            None => self.create_user(Some(&email)).await?,
        };
        let token = self.open_session(&user_id, &device, now_ms()).await?;
        Ok((token, self.user(&user_id).await?))
    }

    /// A new user with a key for each family the embedded wallet holds, sealed.
    async fn create_user(&self, email: Option<&str>) -> Result<String, ApiError> {
        let id = uuid::Uuid::new_v4().to_string();
        let keys: Vec<store::users::StoredKey> = [KeyKind::Secp256k1, KeyKind::Ed25519]
            .into_iter()
            .map(|kind| {
                let (secret, address) = keys::generate(kind);
                let sealed = self.kek.seal(&secret, &format!("{id}:{}", kind.as_str()));
                store::users::StoredKey { user_id: id.clone(), kind: kind.as_str().into(), address, sealed: sealed.blob, kek_id: sealed.kek_id }
            })
            .collect();
        store::users::create(&self.db, &id, email, now_ms(), &keys).await?;
        Ok(id)
    }

    /// A new session for `user_id` on `device`, whose login was proved at `proved_at`.
    async fn open_session(&self, user_id: &str, device: &str, proved_at: i64) -> Result<String, ApiError> {
        let token = hex::encode(rand::random::<[u8; 32]>());
        let now = now_ms();
        let session = store::sessions::StoredSession { user_id: user_id.into(), device_id: device.into(), expires_at: now + SESSION_TTL_MS, proved_at };
        store::sessions::open(&self.db, &hash(&token), &session, now).await?;
        Ok(token)
    }

    /// The live session a token names.
    pub async fn session(&self, token: &str) -> Result<Session, ApiError> {
        let stored = store::sessions::live(&self.db, &hash(token), now_ms()).await?.ok_or_else(ApiError::unauthorized)?;
        Ok(Session { user: self.user(&stored.user_id).await?, user_id: stored.user_id, proved_at: stored.proved_at })
    }

    pub async fn user(&self, user_id: &str) -> Result<User, ApiError> {
        let email = store::users::email(&self.db, user_id).await?;
        let accounts = store::users::addresses(&self.db, user_id)
            .await?
            .into_iter()
            .filter_map(|(kind, address)| {
                let kind = [KeyKind::Secp256k1, KeyKind::Ed25519].into_iter().find(|k| k.as_str() == kind)?;
                Some(Account { namespace: Family::of_key(kind).namespace().as_str().into(), address, kind: "eoa".into() })
            })
            .collect();
        Ok(User { email, accounts })
    }

    /// A new token for the session of `token`, which ends (rotation): one statement ends it,
    /// so a token refreshes once. The new session keeps the old one's expiry and proof.
    pub async fn refresh(&self, token: &str) -> Result<String, ApiError> {
        let now = now_ms();
        let ended = store::sessions::end(&self.db, &hash(token), now).await?.ok_or_else(ApiError::unauthorized)?;
        let fresh = hex::encode(rand::random::<[u8; 32]>());
        store::sessions::open(&self.db, &hash(&fresh), &ended, now).await?;
        Ok(fresh)
    }

    pub async fn sign_out(&self, token: &str) -> Result<(), ApiError> {
        store::sessions::end(&self.db, &hash(token), now_ms()).await?;
        Ok(())
    }

    /// A user's secret key of `kind`, decrypted for one use.
    pub async fn secret(&self, user_id: &str, kind: KeyKind) -> Result<[u8; 32], ApiError> {
        let stored = store::users::key(&self.db, user_id, kind.as_str()).await?;
        let sealed = Sealed { blob: stored.sealed, kek_id: stored.kek_id };
        let bytes = self.kek.open(&sealed, &format!("{user_id}:{}", kind.as_str())).map_err(ApiError::internal)?;
        bytes.try_into().map_err(|_| ApiError::internal("a stored key has the wrong length"))
    }

    /// "Update email": a code to the current address first; a wallet without one (made by a
    /// social login) gets its first address with a code to that address only, and only from a
    /// session whose login was proved in the last 10 minutes (a token taken from an older one
    /// cannot make the wallet's keys exportable to an address of the taker's choice). Whether
    /// another wallet uses the address is said only once its code was confirmed.
    pub async fn update_email(&self, session: &Session, new_email: &str, lang: Lang) -> Result<Action, ApiError> {
        let new_email = normalize_email(new_email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        let user = &session.user;
        if user.email.as_deref() == Some(new_email.as_str()) {
            return Err(ApiError::invalid_param("email", "it is the current address"));
        }
        match &user.email {
            // Asked again for the address whose code is out (the current address's code was
            // right): that step's code again, to the new address (the code view's "Resend").
            Some(current) if self.live_payload(current, Purpose::UpdateSecondary).await?.as_deref() == Some(new_email.as_str()) => {
                self.send_code(current, Purpose::UpdateSecondary, Some(&new_email), &new_email, "", lang).await?;
                Ok(Action::VerifySecondaryOtp)
            }
            Some(current) => {
                self.send_code(current, Purpose::UpdatePrimary, Some(&new_email), current, "", lang).await?;
                Ok(Action::VerifyPrimaryOtp)
            }
            None => {
                if now_ms() - session.proved_at > FRESH_PROOF_MS {
                    return Err(ApiError::new(
                        axum::http::StatusCode::FORBIDDEN,
                        ErrorCode::FreshLoginRequired,
                        "For your safety, log in again before adding an email address: log out, log in the way you did before, then add it",
                    ));
                }
                self.send_code(&code_key(&session.user_id, user), Purpose::UpdateSecondary, Some(&new_email), &new_email, "", lang).await?;
                Ok(Action::VerifySecondaryOtp)
            }
        }
    }

    /// The payload of the code for `key` and `purpose` while it can still be tried.
    async fn live_payload(&self, key: &str, purpose: Purpose) -> Result<Option<String>, ApiError> {
        Ok(store::codes::live_payload(&self.db, key, purpose.as_str(), now_ms(), CODE_TRIES).await?)
    }

    /// The current address's code: then a code to the new one.
    pub async fn update_email_primary(&self, user: &User, code: &str, lang: Lang) -> Result<Action, ApiError> {
        let current = email_of(user)?;
        let new_email =
            self.check_code(current, Purpose::UpdatePrimary, code, "").await?.ok_or_else(|| ApiError::internal("an email change without its address"))?;
        self.send_code(current, Purpose::UpdateSecondary, Some(&new_email), &new_email, "", lang).await?;
        Ok(Action::VerifySecondaryOtp)
    }

    /// The new address's code: the wallet's email changes, unless another wallet has it (said
    /// now, to whoever proved they read that mailbox).
    pub async fn update_email_secondary(&self, session: &Session, code: &str) -> Result<String, ApiError> {
        let new_email = self
            .check_code(&code_key(&session.user_id, &session.user), Purpose::UpdateSecondary, code, "")
            .await?
            .ok_or_else(|| ApiError::internal("an email change without its address"))?;
        if !store::users::set_email_if_free(&self.db, &session.user_id, &new_email).await? {
            return Err(ApiError::new(axum::http::StatusCode::CONFLICT, ErrorCode::EmailTaken, "Another wallet uses that email address"));
        }
        Ok(new_email)
    }

    pub async fn export_request(&self, user: &User, lang: Lang) -> Result<(), ApiError> {
        let email = email_of(user)?;
        self.send_code(email, Purpose::Export, None, email, "", lang).await
    }

    /// The user's own keys, after a fresh code to their email: for the frame to show, never the
    /// host page. A wallet without an email cannot export (it adds one first, which needs a
    /// fresh login).
    pub async fn export(&self, session: &Session, code: &str) -> Result<(String, String), ApiError> {
        self.check_code(email_of(&session.user)?, Purpose::Export, code, "").await?;
        let evm = format!("0x{}", hex::encode(self.secret(&session.user_id, KeyKind::Secp256k1).await?));
        let solana_key = self.secret(&session.user_id, KeyKind::Ed25519).await?;
        // Solana wallets take the 64-byte keypair (secret then public), base58.
        let keypair = ed25519_dalek::SigningKey::from_bytes(&solana_key).to_keypair_bytes();
        Ok((evm, bs58::encode(keypair).into_string()))
    }
}

/// Codes are kept under the wallet's email, or its id when it has none yet.
fn code_key(user_id: &str, user: &User) -> String {
    user.email.clone().unwrap_or_else(|| format!("user:{user_id}"))
}

fn email_of(user: &User) -> Result<&str, ApiError> {
    user.email.as_deref().ok_or_else(|| ApiError::bad_request(ErrorCode::NoEmail, "Add an email address to this wallet first: the code is sent there"))
}

fn not_approved() -> ApiError {
    ApiError::new(axum::http::StatusCode::CONFLICT, ErrorCode::DeviceNotApproved, "This device is not approved yet: open the link in the email")
}

/// A device stays approved this long; then it is approved again by a link.
pub const DEVICE_APPROVAL_MS: i64 = 365 * 24 * 60 * 60 * 1000;
/// Ended sessions, spent codes and finished logins are kept this long (then deleted).
const KEEP_ENDED_MS: i64 = 24 * 60 * 60 * 1000;

/// Deletes sessions that ended (expired or signed out) a day ago, codes and links that expired a
/// day ago, logins started a day ago, and device approvals older than a year; how many rows.
pub async fn prune(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    store::prune(db, now - KEEP_ENDED_MS, now - DEVICE_APPROVAL_MS).await
}

/// Re-encrypts every stored key from `old` to `new` in one transaction; how many keys.
pub async fn rotate_keys(db: &Db, old: &Kek, new: &Kek) -> Result<u64, RotateError> {
    let mut resealed = Vec::new();
    for mut key in store::users::all_keys(db).await? {
        if key.kek_id == new.id() {
            continue;
        }
        let context = format!("{}:{}", key.user_id, key.kind);
        let secret = old.open(&Sealed { blob: key.sealed.clone(), kek_id: key.kek_id.clone() }, &context).map_err(|e| RotateError::Key {
            user: key.user_id.clone(),
            kind: key.kind.clone(),
            error: e,
        })?;
        let sealed = new.seal(&secret, &context);
        (key.sealed, key.kek_id) = (sealed.blob, sealed.kek_id);
        resealed.push(key);
    }
    store::users::reseal(db, &resealed).await?;
    Ok(resealed.len() as u64)
}

/// Why a key rotation stopped (nothing was changed).
#[derive(Debug, thiserror::Error)]
pub enum RotateError {
    #[error("key of user {user} ({kind}): {error}")]
    Key { user: String, kind: String, error: keys::KeyError },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The service, when the configuration provides a key-encryption key; email login also
/// needs a mail server.
pub fn from_config(db: &Db, config: &crate::config::Config) -> Result<Option<Arc<Wallets>>, mail::MailConfigError> {
    let Some(kek) = &config.kek else { return Ok(None) };
    let mailer = mail::MailSettings::of(&config.settings.wallet).map(|m| Mailer::new(&m)).transpose()?;
    Ok(Some(Arc::new(Wallets::new(db.clone(), kek.clone(), mailer, config.frame_url.clone()))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_checked_and_lower_cased() {
        assert_eq!(normalize_email(" Alice@Example.COM ").as_deref(), Some("alice@example.com"));
        for bad in ["", "alice", "alice@", "@example.com", "a@b", "a@@b.com", "a b@c.com", "a@.com", "a@com."] {
            assert_eq!(normalize_email(bad), None, "{bad:?}");
        }
        assert_eq!(try_again_after(12), "Please try again after 12 seconds");
    }

    #[test]
    fn code_hashes_bind_email_and_purpose() {
        assert_ne!(code_hash("a@b.co", Purpose::Login, "123456"), code_hash("a@b.co", Purpose::Export, "123456"));
        assert_ne!(code_hash("a@b.co", Purpose::Login, "123456"), code_hash("c@b.co", Purpose::Login, "123456"));
        assert!(!code_hash("a@b.co", Purpose::Login, "123456").contains("123456"));
    }
}
