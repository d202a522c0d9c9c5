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
pub mod routes;
pub mod sign;
pub mod social;

use std::sync::Arc;

use alloy_signer_local::PrivateKeySigner;
use rand::Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::Row;
use utoipa::ToSchema;

use crate::db::{now_ms, Db};
use crate::error::{ApiError, ErrorCode};
use keys::{Kek, KeyKind, Sealed};
use mail::Mailer;

pub const CODE_TTL_MS: i64 = 10 * 60 * 1000;
pub const CODE_COOLDOWN_MS: i64 = 30 * 1000;
pub const CODE_TRIES: i64 = 5;
pub const SESSION_TTL_MS: i64 = 7 * 24 * 60 * 60 * 1000;

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

/// What a code is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Login,
    UpdatePrimary,
    UpdateSecondary,
    Export,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Login => "login",
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
        Ok(sqlx::query_scalar("SELECT id FROM wallet_users WHERE email = $1").bind(email).fetch_optional(&self.db).await?)
    }

    /// A new code for `email` (hashed in storage, sent by email), unless one went out less
    /// than 30 s ago.
    async fn send_code(&self, email: &str, purpose: Purpose, payload: Option<&str>, to: &str) -> Result<(), ApiError> {
        let now = now_ms();
        let last: Option<i64> = sqlx::query_scalar("SELECT sent_at FROM wallet_codes WHERE email = $1 AND purpose = $2")
            .bind(email)
            .bind(purpose.as_str())
            .fetch_optional(&self.db)
            .await?;
        if let Some(sent) = last.filter(|sent| now - sent < CODE_COOLDOWN_MS) {
            let wait = (CODE_COOLDOWN_MS - (now - sent) + 999) / 1000;
            return Err(ApiError {
                retry_after: Some(wait as u64),
                ..ApiError::new(axum::http::StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, try_again_after(wait))
            });
        }
        let code = format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000u32));
        let mut tx = self.db.begin().await?;
        sqlx::query("DELETE FROM wallet_codes WHERE email = $1 AND purpose = $2").bind(email).bind(purpose.as_str()).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO wallet_codes (email, purpose, code_hash, sent_at, expires_at, tries, payload) VALUES ($1, $2, $3, $4, $5, 0, $6)")
            .bind(email)
            .bind(purpose.as_str())
            .bind(code_hash(email, purpose, &code))
            .bind(now)
            .bind(now + CODE_TTL_MS)
            .bind(payload)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        let mailer = self.mailer()?;
        let sent = match purpose {
            Purpose::Login => mailer.login_code(to, &code).await,
            Purpose::UpdatePrimary => mailer.confirm_code(to, &code, "your new email address").await,
            Purpose::UpdateSecondary => mailer.confirm_code(to, &code, "this email address").await,
            Purpose::Export => mailer.confirm_code(to, &code, "exporting your private key").await,
        };
        sent.map_err(Self::unavailable)
    }

    /// Checks a code; a right one is used up, five wrong ones burn it. Its payload, if any.
    async fn check_code(&self, email: &str, purpose: Purpose, code: &str) -> Result<Option<String>, ApiError> {
        let row = sqlx::query("SELECT code_hash, expires_at, tries, payload FROM wallet_codes WHERE email = $1 AND purpose = $2")
            .bind(email)
            .bind(purpose.as_str())
            .fetch_optional(&self.db)
            .await?;
        let invalid = || bad(ErrorCode::InvalidCode, "Invalid code");
        let Some(row) = row else { return Err(bad(ErrorCode::InvalidCode, "No code was sent, or it was used up: ask for a new one")) };
        let (stored, expires, tries): (String, i64, i64) = (row.try_get("code_hash")?, row.try_get("expires_at")?, row.try_get("tries")?);
        if stored.is_empty() {
            return Err(bad(ErrorCode::InvalidCode, "No code was sent, or it was used up: ask for a new one"));
        }
        if expires <= now_ms() || tries >= CODE_TRIES {
            return Err(bad(ErrorCode::CodeExpired, "The code has expired or was tried too often: ask for a new one"));
        }
        let digits = code.trim();
        if digits.len() != 6 || !digits.bytes().all(|b| b.is_ascii_digit()) || code_hash(email, purpose, digits) != stored {
            sqlx::query("UPDATE wallet_codes SET tries = tries + 1 WHERE email = $1 AND purpose = $2")
                .bind(email)
                .bind(purpose.as_str())
                .execute(&self.db)
                .await?;
            return Err(invalid());
        }
        let payload: Option<String> = row.try_get("payload")?;
        // Used up, but kept: when it was sent still counts for the 30 s between codes.
        sqlx::query("UPDATE wallet_codes SET code_hash = '', expires_at = 0 WHERE email = $1 AND purpose = $2")
            .bind(email)
            .bind(purpose.as_str())
            .execute(&self.db)
            .await?;
        Ok(payload)
    }

    /// "Connect email": a new device gets an approval link first, a device with a live
    /// session for this email connects, any other device gets a login code.
    pub async fn connect_email(&self, email: &str, device: &str, token: Option<&str>) -> Result<Action, ApiError> {
        let email = normalize_email(email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        check_device_id(device)?;
        if let Some(token) = token {
            if let Ok((user, _)) = self.session(token).await {
                if user.email.as_deref() == Some(email.as_str()) {
                    return Ok(Action::Connect);
                }
            }
        }
        match self.device_approved(&email, device).await? {
            true => {
                self.send_code(&email, Purpose::Login, None, &email).await?;
                Ok(Action::VerifyOtp)
            }
            false => {
                let secret = hex::encode(rand::random::<[u8; 32]>());
                sqlx::query(
                    "INSERT INTO wallet_devices (email, device_id, approve_hash, approved_at, created_at) VALUES ($1, $2, $3, NULL, $4) \
                     ON CONFLICT (email, device_id) DO UPDATE SET approve_hash = $3",
                )
                .bind(&email)
                .bind(device)
                .bind(hash(&secret))
                .bind(now_ms())
                .execute(&self.db)
                .await?;
                let link = format!("{}/wallet/v1/approve-device?token={secret}", self.frame_url);
                self.mailer()?.device_approval(&email, &link).await.map_err(Self::unavailable)?;
                Ok(Action::VerifyDevice)
            }
        }
    }

    /// Whether this device's approval link for this email was opened.
    async fn device_approved(&self, email: &str, device: &str) -> Result<bool, ApiError> {
        let approved: Option<Option<i64>> = sqlx::query_scalar("SELECT approved_at FROM wallet_devices WHERE email = $1 AND device_id = $2")
            .bind(email)
            .bind(device)
            .fetch_optional(&self.db)
            .await?;
        Ok(matches!(approved, Some(Some(_))))
    }

    /// The approval link was opened: the device may log in with a code.
    pub async fn approve_device(&self, token: &str) -> Result<(), ApiError> {
        let done = sqlx::query("UPDATE wallet_devices SET approved_at = $1 WHERE approve_hash = $2 AND approved_at IS NULL")
            .bind(now_ms())
            .bind(hash(token))
            .execute(&self.db)
            .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(ApiError::not_found("This approval link is unknown or was used already"))
        }
    }

    /// "Connect device": once approved, a login code goes out.
    pub async fn connect_device(&self, email: &str, device: &str) -> Result<Action, ApiError> {
        let email = normalize_email(email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        match self.device_approved(&email, device).await? {
            true => {
                self.send_code(&email, Purpose::Login, None, &email).await?;
                Ok(Action::VerifyOtp)
            }
            false => Err(ApiError::new(
                axum::http::StatusCode::CONFLICT,
                ErrorCode::DeviceNotApproved,
                "This device is not approved yet: open the link in the email",
            )),
        }
    }

    /// "Connect OTP": the code is right, so the user (made now if new, with keys) gets a session.
    pub async fn connect_otp(&self, email: &str, code: &str, device: &str) -> Result<(String, User), ApiError> {
        let email = normalize_email(email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        self.check_code(&email, Purpose::Login, code).await?;
        let user_id = match self.user_id(&email).await? {
            Some(id) => id,
            None => self.create_user(Some(&email)).await?,
        };
        let token = self.open_session(&user_id, device).await?;
        Ok((token, self.user(&user_id).await?))
    }

    async fn create_user(&self, email: Option<&str>) -> Result<String, ApiError> {
        let id = uuid::Uuid::new_v4().to_string();
        let mut tx = self.db.begin().await?;
        sqlx::query("INSERT INTO wallet_users (id, email, created_at) VALUES ($1, $2, $3)").bind(&id).bind(email).bind(now_ms()).execute(&mut *tx).await?;
        for kind in [KeyKind::Secp256k1, KeyKind::Ed25519] {
            let (secret, address) = keys::generate(kind);
            let sealed = self.kek.seal(&secret, &format!("{id}:{}", kind.as_str()));
            sqlx::query("INSERT INTO wallet_keys (user_id, kind, address, sealed, kek_id) VALUES ($1, $2, $3, $4, $5)")
                .bind(&id)
                .bind(kind.as_str())
                .bind(address)
                .bind(sealed.blob)
                .bind(sealed.kek_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    async fn open_session(&self, user_id: &str, device: &str) -> Result<String, ApiError> {
        let token = hex::encode(rand::random::<[u8; 32]>());
        let now = now_ms();
        sqlx::query("INSERT INTO wallet_sessions (token_hash, user_id, device_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(hash(&token))
            .bind(user_id)
            .bind(device)
            .bind(now)
            .bind(now + SESSION_TTL_MS)
            .execute(&self.db)
            .await?;
        Ok(token)
    }

    /// The user a live session token belongs to, and its user id.
    pub async fn session(&self, token: &str) -> Result<(User, String), ApiError> {
        let user_id: Option<String> =
            sqlx::query_scalar("SELECT user_id FROM wallet_sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2")
                .bind(hash(token))
                .bind(now_ms())
                .fetch_optional(&self.db)
                .await?;
        let user_id = user_id.ok_or_else(ApiError::unauthorized)?;
        Ok((self.user(&user_id).await?, user_id))
    }

    pub async fn user(&self, user_id: &str) -> Result<User, ApiError> {
        let email: Option<String> = sqlx::query_scalar("SELECT email FROM wallet_users WHERE id = $1").bind(user_id).fetch_one(&self.db).await?;
        let rows = sqlx::query("SELECT kind, address FROM wallet_keys WHERE user_id = $1 ORDER BY kind DESC").bind(user_id).fetch_all(&self.db).await?;
        let accounts = rows
            .iter()
            .map(|r| {
                let kind: String = r.try_get("kind")?;
                let namespace = if kind == KeyKind::Secp256k1.as_str() { "eip155" } else { "solana" };
                Ok(Account { namespace: namespace.into(), address: r.try_get("address")?, kind: "eoa".into() })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(User { email, accounts })
    }

    /// A new token for the session of `token`, which ends (rotation).
    pub async fn refresh(&self, token: &str) -> Result<String, ApiError> {
        let row = sqlx::query("SELECT user_id, device_id FROM wallet_sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2")
            .bind(hash(token))
            .bind(now_ms())
            .fetch_optional(&self.db)
            .await?
            .ok_or_else(ApiError::unauthorized)?;
        self.sign_out(token).await?;
        self.open_session(&row.try_get::<String, _>("user_id")?, &row.try_get::<String, _>("device_id")?).await
    }

    pub async fn sign_out(&self, token: &str) -> Result<(), ApiError> {
        sqlx::query("UPDATE wallet_sessions SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL")
            .bind(now_ms())
            .bind(hash(token))
            .execute(&self.db)
            .await?;
        Ok(())
    }

    async fn secret(&self, user_id: &str, kind: KeyKind) -> Result<[u8; 32], ApiError> {
        let row = sqlx::query("SELECT sealed, kek_id FROM wallet_keys WHERE user_id = $1 AND kind = $2")
            .bind(user_id)
            .bind(kind.as_str())
            .fetch_one(&self.db)
            .await?;
        let sealed = Sealed { blob: row.try_get("sealed")?, kek_id: row.try_get("kek_id")? };
        let bytes = self.kek.open(&sealed, &format!("{user_id}:{}", kind.as_str())).map_err(ApiError::internal)?;
        bytes.try_into().map_err(|_| ApiError::internal("a stored key has the wrong length"))
    }

    pub async fn evm_signer(&self, user_id: &str) -> Result<PrivateKeySigner, ApiError> {
        PrivateKeySigner::from_slice(&self.secret(user_id, KeyKind::Secp256k1).await?).map_err(ApiError::internal)
    }

    pub async fn solana_signer(&self, user_id: &str) -> Result<ed25519_dalek::SigningKey, ApiError> {
        Ok(ed25519_dalek::SigningKey::from_bytes(&self.secret(user_id, KeyKind::Ed25519).await?))
    }

    /// "Update email": a code to the current address first; a wallet without one (made by a
    /// social login) gets its first address with a code to that address only.
    pub async fn update_email(&self, user_id: &str, user: &User, new_email: &str) -> Result<Action, ApiError> {
        let new_email = normalize_email(new_email).ok_or_else(|| ApiError::invalid_param("email", "not a valid email address"))?;
        if user.email.as_deref() == Some(new_email.as_str()) {
            return Err(ApiError::invalid_param("email", "it is the current address"));
        }
        if self.user_id(&new_email).await?.is_some() {
            return Err(ApiError::new(axum::http::StatusCode::CONFLICT, ErrorCode::EmailTaken, "Another wallet uses that email address"));
        }
        match &user.email {
            Some(current) => {
                self.send_code(current, Purpose::UpdatePrimary, Some(&new_email), current).await?;
                Ok(Action::VerifyPrimaryOtp)
            }
            None => {
                self.send_code(&code_key(user_id, user), Purpose::UpdateSecondary, Some(&new_email), &new_email).await?;
                Ok(Action::VerifySecondaryOtp)
            }
        }
    }

    /// The current address's code: then a code to the new one.
    pub async fn update_email_primary(&self, user: &User, code: &str) -> Result<Action, ApiError> {
        let current = email_of(user)?;
        let new_email =
            self.check_code(current, Purpose::UpdatePrimary, code).await?.ok_or_else(|| ApiError::internal("an email change without its address"))?;
        self.send_code(current, Purpose::UpdateSecondary, Some(&new_email), &new_email).await?;
        Ok(Action::VerifySecondaryOtp)
    }

    /// The new address's code: the wallet's email changes.
    pub async fn update_email_secondary(&self, user_id: &str, user: &User, code: &str) -> Result<String, ApiError> {
        let new_email = self
            .check_code(&code_key(user_id, user), Purpose::UpdateSecondary, code)
            .await?
            .ok_or_else(|| ApiError::internal("an email change without its address"))?;
        sqlx::query("UPDATE wallet_users SET email = $1 WHERE id = $2").bind(&new_email).bind(user_id).execute(&self.db).await?;
        Ok(new_email)
    }

    pub async fn export_request(&self, user: &User) -> Result<(), ApiError> {
        let email = email_of(user)?;
        self.send_code(email, Purpose::Export, None, email).await
    }

    /// The user's own keys, after a fresh code: for the frame to show, never the host page.
    pub async fn export(&self, user_id: &str, user: &User, code: &str) -> Result<(String, String), ApiError> {
        self.check_code(email_of(user)?, Purpose::Export, code).await?;
        let evm = format!("0x{}", hex::encode(self.secret(user_id, KeyKind::Secp256k1).await?));
        let solana_key = self.secret(user_id, KeyKind::Ed25519).await?;
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

fn check_device_id(device: &str) -> Result<(), ApiError> {
    if (8..=128).contains(&device.len()) && device.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        Ok(())
    } else {
        Err(ApiError::invalid_param("deviceId", "8 to 128 letters, digits, '-' or '_'"))
    }
}

/// Re-encrypts every stored key from `old` to `new` in one transaction; how many keys.
pub async fn rotate_keys(db: &Db, old: &Kek, new: &Kek) -> anyhow::Result<u64> {
    let rows = sqlx::query("SELECT user_id, kind, sealed, kek_id FROM wallet_keys").fetch_all(db).await?;
    let mut tx = db.begin().await?;
    let mut count = 0;
    for r in &rows {
        let (user, kind, kek_id): (String, String, String) = (r.try_get("user_id")?, r.try_get("kind")?, r.try_get("kek_id")?);
        if kek_id == new.id() {
            continue;
        }
        let context = format!("{user}:{kind}");
        let secret = old.open(&Sealed { blob: r.try_get("sealed")?, kek_id }, &context).map_err(|e| anyhow::anyhow!("key of user {user} ({kind}): {e}"))?;
        let sealed = new.seal(&secret, &context);
        sqlx::query("UPDATE wallet_keys SET sealed = $1, kek_id = $2 WHERE user_id = $3 AND kind = $4")
            .bind(sealed.blob)
            .bind(sealed.kek_id)
            .bind(&user)
            .bind(&kind)
            .execute(&mut *tx)
            .await?;
        count += 1;
    }
    tx.commit().await?;
    Ok(count)
}

/// The service, when the configuration provides a key-encryption key; email login also
/// needs a mail server.
pub fn from_config(db: &Db, config: &crate::config::Config) -> Result<Option<Arc<Wallets>>, String> {
    let s = &config.settings;
    let Some(kek) = &config.kek else { return Ok(None) };
    let mailer = match &s.smtp_host {
        Some(host) => Some(Mailer::new(&mail::MailSettings {
            host: host.clone(),
            port: s.smtp_port,
            tls: s.smtp_tls,
            username: s.smtp_username.clone(),
            password: s.smtp_password.clone(),
            from: s.mail_from.clone(),
        })?),
        None => None,
    };
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
