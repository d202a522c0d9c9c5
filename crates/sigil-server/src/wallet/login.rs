//! Logins under way (social providers and Farcaster channels) and the users they make. A flow
//! is a row of `wallet_social_flows`: made when the frame starts the login (bound to its
//! device secret), completed once by the provider's callback (or the Farcaster app), claimed
//! once by the frame that started it, which then gets a session.
//!
//! The state in the provider's URL is not enough to claim a social login: whoever starts a
//! login can send its URL to someone else. The callback gives a one-time claim secret only to
//! the browser that came back from the provider: to the Sigil frames of the page that opened
//! the login window (a message to the frame origin, which no other page can read), or in the
//! return URL of a full-page login (an origin the project lists). The claim needs that secret
//! and the device secret of the frame that started the login.

use std::time::Duration;

use base64::Engine;
use serde::Serialize;
use sqlx::Row;
use utoipa::ToSchema;

use super::social::{Identity, Socials, CALLBACK_PATH, FLOW_TTL_MS};
use super::{device_id, hash, normalize_email, User, Wallets};
use crate::db::now_ms;
use crate::error::{ApiError, ErrorCode};

/// The provider id Farcaster logins are stored under.
pub const FARCASTER: &str = "farcaster";

/// Random URL-safe text of `bytes` random bytes.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::Rng::fill(&mut rand::thread_rng(), &mut buf[..]);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(buf)
}

/// What claiming a login gives the frame.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum Claim {
    /// The person has not finished at the provider yet: ask again.
    #[serde(rename_all = "camelCase")]
    Pending {
        /// Why the latest message posted to a Farcaster channel was refused (the channel stays open).
        #[serde(skip_serializing_if = "Option::is_none")]
        refused: Option<String>,
    },
    /// The provider sent the person back: the claim secret the callback gave that browser is
    /// needed now.
    Returned,
    #[serde(rename_all = "camelCase")]
    Connected {
        /// Kept by the frame, on its own origin only.
        token: String,
        user: User,
        provider: String,
        user_name: Option<String>,
    },
}

/// What the callback page does next.
pub struct Returned {
    pub state: String,
    /// A full-page login goes back to the page it came from, with `sigil_social=<state>` and,
    /// when it succeeded, `sigil_claim=<claim secret>`.
    pub return_to: Option<String>,
    /// The claim secret, for the frames of the page that opened the login window.
    pub claim: Option<String>,
    /// Why it failed, for the person (also what the frame's claim answers).
    pub failure: Option<Failure>,
    pub provider_label: String,
}

/// Why a login did not complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    /// The person cancelled at the provider (told apart from refusals by code, not by wording).
    pub cancelled: bool,
}

impl Failure {
    fn refused(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), cancelled: false }
    }
}

/// The stored form of a failure: cancellations carry a marker ahead of the message.
const CANCELLED: &str = "cancelled:";

fn failure_of(stored: String) -> ApiError {
    match stored.strip_prefix(CANCELLED) {
        Some(message) => ApiError::bad_request(ErrorCode::LoginCancelled, message),
        None => login_failed(stored),
    }
}

fn login_failed(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(ErrorCode::LoginFailed, message)
}

impl Wallets {
    /// Starts a social login: the URL of the provider's login page.
    pub async fn social_start(&self, socials: &Socials, provider: &str, device_secret: &str, return_url: Option<String>) -> Result<String, ApiError> {
        let device = device_id(device_secret)?;
        let p = socials.get(provider).ok_or_else(|| ApiError::invalid_param("provider", format!("login with {provider} is not configured on this server")))?;
        let (state, verifier, nonce) = (random_token(32), random_token(48), random_token(24));
        let callback = format!("{}{CALLBACK_PATH}", self.frame_url);
        let url = p.authorize_url(&socials.http, &callback, &state, &nonce, &verifier).await.map_err(ApiError::unavailable)?;
        let now = now_ms();
        sqlx::query(
            "INSERT INTO wallet_social_flows (state_hash, provider, pkce_verifier, nonce, device_id, return_url, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(hash(&state))
        .bind(provider)
        .bind(verifier)
        .bind(nonce)
        .bind(&device)
        .bind(return_url)
        .bind(now)
        .execute(&self.db)
        .await?;
        Ok(url)
    }

    /// The provider sent the browser back: exchange the code once, verify, record the outcome.
    /// Err is for a callback that names no live login (a tampered or reused link).
    pub async fn social_callback(
        &self,
        socials: &Socials,
        state: &str,
        code: Option<&str>,
        error: Option<&str>,
        error_description: Option<&str>,
    ) -> Result<Returned, ApiError> {
        // Marking the flow returned makes the callback single use, whatever comes after.
        let row = sqlx::query(
            "UPDATE wallet_social_flows SET returned_at = $3 WHERE state_hash = $1 AND returned_at IS NULL AND provider <> $2 \
             RETURNING provider, pkce_verifier, nonce, return_url, created_at",
        )
        .bind(hash(state))
        .bind(FARCASTER)
        .bind(now_ms())
        .fetch_optional(&self.db)
        .await?;
        let Some(row) = row else {
            let known: Option<String> =
                sqlx::query_scalar("SELECT provider FROM wallet_social_flows WHERE state_hash = $1").bind(hash(state)).fetch_optional(&self.db).await?;
            return Err(login_failed(if known.is_some() {
                "This login link was already used: start the login again"
            } else {
                "This login link is not valid: start the login again"
            }));
        };
        let provider: String = row.try_get("provider")?;
        let return_url: Option<String> = row.try_get("return_url")?;
        let created_at: i64 = row.try_get("created_at")?;
        let p = socials.get(&provider);
        let label = p.map(|p| p.label.clone()).unwrap_or_else(|| provider.clone());
        let outcome: Result<Identity, Failure> = match (p, code, error) {
            (None, ..) => Err(Failure::refused(format!("login with {provider} is no longer configured on this server"))),
            _ if now_ms() - created_at > FLOW_TTL_MS => Err(Failure::refused("The login took longer than 10 minutes: start again")),
            (_, _, Some("access_denied")) => Err(Failure { message: format!("The login was cancelled at {label}"), cancelled: true }),
            (_, _, Some(e)) => Err(Failure::refused(match error_description {
                Some(d) => format!("{label} refused the login: {e} ({d})"),
                None => format!("{label} refused the login: {e}"),
            })),
            (_, None, None) => Err(Failure::refused(format!("{label} sent no authorization code"))),
            (Some(p), Some(code), None) => {
                let callback = format!("{}{CALLBACK_PATH}", self.frame_url);
                p.identify(&socials.http, &callback, code, &row.try_get::<String, _>("pkce_verifier")?, &row.try_get::<String, _>("nonce")?)
                    .await
                    .map_err(Failure::refused)
            }
        };
        let (claim, failure) = match outcome {
            Ok(identity) => {
                let user_id = self.social_user(&provider, &identity).await?;
                let claim = random_token(32);
                self.finish_flow(state, Ok((&user_id, identity.username.as_deref(), Some(&claim)))).await?;
                (Some(claim), None)
            }
            Err(failure) => {
                self.finish_flow(state, Err(&failure)).await?;
                (None, Some(failure))
            }
        };
        let return_to = return_url.map(|url| {
            let mut url = url::Url::parse(&url).expect("stored return URLs were parsed");
            url.query_pairs_mut().append_pair("sigil_social", state);
            if let Some(claim) = &claim {
                url.query_pairs_mut().append_pair("sigil_claim", claim);
            }
            url.to_string()
        });
        Ok(Returned { state: state.to_owned(), return_to, claim, failure, provider_label: label })
    }

    /// Records a flow's outcome (once) and wakes the frames waiting for it. A success may carry
    /// the claim secret the frame must show to claim it (social logins; Farcaster has none).
    pub(super) async fn finish_flow(&self, state: &str, outcome: Result<(&str, Option<&str>, Option<&str>), &Failure>) -> Result<bool, ApiError> {
        let (user_id, username, claim_hash, failure) = match outcome {
            Ok((user, name, claim)) => (Some(user), name, claim.map(hash), None),
            Err(f) => (None, None, None, Some(if f.cancelled { format!("{CANCELLED}{}", f.message) } else { f.message.clone() })),
        };
        let done = sqlx::query(
            "UPDATE wallet_social_flows SET user_id = $1, username = $2, failure = $3, claim_hash = $4, pkce_verifier = '', nonce = '' \
             WHERE state_hash = $5 AND user_id IS NULL AND failure IS NULL",
        )
        .bind(user_id)
        .bind(username)
        .bind(failure)
        .bind(claim_hash)
        .bind(hash(state))
        .execute(&self.db)
        .await?
        .rows_affected()
            == 1;
        self.flow_done.notify_waiters();
        Ok(done)
    }

    /// The wallet of a provider account: the one it had, or the email user whose address the
    /// provider verified, or a new one.
    pub(super) async fn social_user(&self, provider: &str, identity: &Identity) -> Result<String, ApiError> {
        let known: Option<String> = sqlx::query_scalar("SELECT user_id FROM wallet_socials WHERE provider = $1 AND subject = $2")
            .bind(provider)
            .bind(&identity.subject)
            .fetch_optional(&self.db)
            .await?;
        if let Some(user_id) = known {
            sqlx::query("UPDATE wallet_socials SET username = $1 WHERE provider = $2 AND subject = $3")
                .bind(&identity.username)
                .bind(provider)
                .bind(&identity.subject)
                .execute(&self.db)
                .await?;
            return Ok(user_id);
        }
        // Only an email the provider verified may name (or join) a user: an unverified one
        // could be anybody's.
        let email = identity.email.as_deref().filter(|_| identity.email_verified).and_then(normalize_email);
        let user_id = match &email {
            Some(email) => match self.user_id(email).await? {
                Some(id) => id,
                None => self.create_user(Some(email)).await?,
            },
            None => self.create_user(None).await?,
        };
        sqlx::query("INSERT INTO wallet_socials (provider, subject, user_id, username) VALUES ($1, $2, $3, $4) ON CONFLICT (provider, subject) DO NOTHING")
            .bind(provider)
            .bind(&identity.subject)
            .bind(&user_id)
            .bind(&identity.username)
            .execute(&self.db)
            .await?;
        // Two callbacks for one new account at once: the first one's user wins.
        Ok(sqlx::query_scalar("SELECT user_id FROM wallet_socials WHERE provider = $1 AND subject = $2")
            .bind(provider)
            .bind(&identity.subject)
            .fetch_one(&self.db)
            .await?)
    }

    /// The frame claims the login it started (the state from the provider URL or the return
    /// URL) with its device secret and, for a social login, the claim secret its browser was
    /// given when the provider sent it back. Without the claim secret it waits up to `wait` for
    /// the person to finish at the provider and says how far the login is.
    pub async fn claim(&self, state: &str, device_secret: &str, claim: Option<&str>, wait: Duration) -> Result<Claim, ApiError> {
        let device = device_id(device_secret)?;
        let deadline = tokio::time::Instant::now() + wait;
        let unknown = || login_failed("This login is not known: start the login again");
        // A Farcaster refusal that comes in while this call waits is said at once.
        let mut refusal_at_start: Option<Option<String>> = None;
        loop {
            let woken = self.flow_done.notified();
            let row = sqlx::query(
                "SELECT provider, device_id, created_at, user_id, username, failure, claim_hash, claimed_at, refusal FROM wallet_social_flows WHERE state_hash = $1",
            )
            .bind(hash(state))
            .fetch_optional(&self.db)
            .await?;
            // Another device's login is as unknown as a made-up one.
            let row = row.filter(|r| r.try_get::<String, _>("device_id").is_ok_and(|d| d == device));
            let Some(row) = row else { return Err(unknown()) };
            if let Some(failure) = row.try_get::<Option<String>, _>("failure")? {
                return Err(failure_of(failure));
            }
            if let Some(user_id) = row.try_get::<Option<String>, _>("user_id")? {
                if row.try_get::<Option<i64>, _>("claimed_at")?.is_some() {
                    return Err(login_failed("This login was already used: start the login again"));
                }
                let expected: Option<String> = row.try_get("claim_hash")?;
                let secret_needed = expected.is_some();
                match (claim, secret_needed) {
                    (None, true) => return Ok(Claim::Returned),
                    (Some(given), true) if expected.as_deref() != Some(hash(given).as_str()) => return Err(unknown()),
                    _ => {}
                }
                // One statement claims it: two claims at once cannot both get a session.
                let claimed = sqlx::query("UPDATE wallet_social_flows SET claimed_at = $1 WHERE state_hash = $2 AND device_id = $3 AND claimed_at IS NULL")
                    .bind(now_ms())
                    .bind(hash(state))
                    .bind(&device)
                    .execute(&self.db)
                    .await?
                    .rows_affected();
                if claimed != 1 {
                    return Err(login_failed("This login was already used: start the login again"));
                }
                let token = self.open_session(&user_id, &device, now_ms()).await?;
                return Ok(Claim::Connected {
                    token,
                    user: self.user(&user_id).await?,
                    provider: row.try_get("provider")?,
                    user_name: row.try_get("username")?,
                });
            }
            if now_ms() - row.try_get::<i64, _>("created_at")? > FLOW_TTL_MS {
                return Err(login_failed("The login took longer than 10 minutes: start again"));
            }
            let refused: Option<String> = row.try_get("refusal")?;
            match &refusal_at_start {
                None => refusal_at_start = Some(refused.clone()),
                Some(before) if *before != refused => return Ok(Claim::Pending { refused }),
                Some(_) => {}
            }
            // Woken by a callback in this process; other processes are seen by asking again.
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(Claim::Pending { refused });
            }
            let _ = tokio::time::timeout((deadline - now).min(Duration::from_millis(500)), woken).await;
        }
    }
}

/// The state a frame passes back: the URI it was given (provider URL or return URL) or the
/// bare state.
pub fn state_of(uri: &str) -> Option<String> {
    match url::Url::parse(uri) {
        Ok(url) => url.query_pairs().find(|(k, _)| k == "sigil_social" || k == "state" || k == "channelToken").map(|(_, v)| v.into_owned()),
        Err(_) => Some(uri.to_owned()),
    }
    .filter(|s| !s.is_empty() && s.len() <= 256)
}

/// The claim secret a full-page login's return URL carries, if it does.
pub fn claim_of(uri: &str) -> Option<String> {
    url::Url::parse(uri).ok()?.query_pairs().find(|(k, _)| k == "sigil_claim").map(|(_, v)| v.into_owned()).filter(|s| !s.is_empty() && s.len() <= 256)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_comes_from_either_uri() {
        assert_eq!(state_of("https://accounts.example/auth?client_id=a&state=abc&nonce=n").as_deref(), Some("abc"));
        assert_eq!(state_of("https://shop.example/page?x=1&sigil_social=def").as_deref(), Some("def"));
        assert_eq!(state_of("ghi").as_deref(), Some("ghi"));
        assert_eq!(state_of("https://shop.example/page"), None);
        assert_eq!(claim_of("https://shop.example/page?x=1&sigil_social=def&sigil_claim=xyz").as_deref(), Some("xyz"));
        assert_eq!(claim_of("https://shop.example/page?x=1&sigil_social=def"), None);
        assert_eq!(random_token(32).len(), 43);
        assert_ne!(random_token(32), random_token(32));
    }
}
