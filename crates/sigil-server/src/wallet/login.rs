//! Logins under way (social providers and Farcaster channels) and the users they make. A flow
//! is a row of `wallet_social_flows`: made when the frame starts the login, completed once by
//! the provider's callback (or the Farcaster app), claimed once by the frame on the device
//! that started it, which then gets a session.

use std::time::Duration;

use base64::Engine;
use serde::Serialize;
use sqlx::Row;
use utoipa::ToSchema;

use super::social::{Identity, Socials, CALLBACK_PATH, FLOW_TTL_MS};
use super::{check_device_id, hash, normalize_email, User, Wallets};
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
    Pending,
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
    /// A full-page login goes back to the page it came from, with `sigil_social=<state>`.
    pub return_to: Option<String>,
    /// Why it failed, for the person (also what the frame's claim answers).
    pub failure: Option<String>,
    pub provider_label: String,
}

fn login_failed(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(ErrorCode::LoginFailed, message)
}

impl Wallets {
    /// Starts a social login: the URL of the provider's login page.
    pub async fn social_start(&self, socials: &Socials, provider: &str, device: &str, return_url: Option<String>) -> Result<String, ApiError> {
        check_device_id(device)?;
        let p = socials.get(provider).ok_or_else(|| ApiError::invalid_param("provider", format!("login with {provider} is not configured on this server")))?;
        let (state, verifier, nonce) = (random_token(32), random_token(48), random_token(24));
        let callback = format!("{}{CALLBACK_PATH}", self.frame_url);
        let url = p.authorize_url(&socials.http, &callback, &state, &nonce, &verifier).await.map_err(ApiError::unavailable)?;
        let now = now_ms();
        sqlx::query("DELETE FROM wallet_social_flows WHERE created_at < $1").bind(now - 24 * 3600 * 1000).execute(&self.db).await?;
        sqlx::query(
            "INSERT INTO wallet_social_flows (state_hash, provider, pkce_verifier, nonce, device_id, return_url, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(hash(&state))
        .bind(provider)
        .bind(verifier)
        .bind(nonce)
        .bind(device)
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
        let outcome: Result<Identity, String> = match (p, code, error) {
            (None, ..) => Err(format!("login with {provider} is no longer configured on this server")),
            _ if now_ms() - created_at > FLOW_TTL_MS => Err("The login took longer than 10 minutes: start again".into()),
            (_, _, Some("access_denied")) => Err(format!("The login was cancelled at {label}")),
            (_, _, Some(e)) => Err(match error_description {
                Some(d) => format!("{label} refused the login: {e} ({d})"),
                None => format!("{label} refused the login: {e}"),
            }),
            (_, None, None) => Err(format!("{label} sent no authorization code")),
            (Some(p), Some(code), None) => {
                let callback = format!("{}{CALLBACK_PATH}", self.frame_url);
                p.identify(&socials.http, &callback, code, &row.try_get::<String, _>("pkce_verifier")?, &row.try_get::<String, _>("nonce")?).await
            }
        };
        let failure = match outcome {
            Ok(identity) => {
                let user_id = self.social_user(&provider, &identity).await?;
                self.finish_flow(state, Ok((&user_id, identity.username.as_deref()))).await?;
                None
            }
            Err(message) => {
                self.finish_flow(state, Err(&message)).await?;
                Some(message)
            }
        };
        let return_to = return_url.map(|url| {
            let mut url = url::Url::parse(&url).expect("stored return URLs were parsed");
            url.query_pairs_mut().append_pair("sigil_social", state);
            url.to_string()
        });
        Ok(Returned { return_to, failure, provider_label: label })
    }

    /// Records a flow's outcome (once) and wakes the frames waiting for it.
    pub(super) async fn finish_flow(&self, state: &str, outcome: Result<(&str, Option<&str>), &str>) -> Result<bool, ApiError> {
        let (user_id, username, failure) = match outcome {
            Ok((user, name)) => (Some(user), name, None),
            Err(f) => (None, None, Some(f)),
        };
        let done = sqlx::query(
            "UPDATE wallet_social_flows SET user_id = $1, username = $2, failure = $3, pkce_verifier = '', nonce = '' \
             WHERE state_hash = $4 AND user_id IS NULL AND failure IS NULL",
        )
        .bind(user_id)
        .bind(username)
        .bind(failure)
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
    /// URL), waiting up to `wait` for the person to finish at the provider.
    pub async fn claim(&self, state: &str, device: &str, wait: Duration) -> Result<Claim, ApiError> {
        check_device_id(device)?;
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let woken = self.flow_done.notified();
            let row =
                sqlx::query("SELECT provider, device_id, created_at, user_id, username, failure, claimed_at FROM wallet_social_flows WHERE state_hash = $1")
                    .bind(hash(state))
                    .fetch_optional(&self.db)
                    .await?;
            // Another device's login is as unknown as a made-up one.
            let row = row.filter(|r| r.try_get::<String, _>("device_id").is_ok_and(|d| d == device));
            let Some(row) = row else { return Err(login_failed("This login is not known: start the login again")) };
            if let Some(failure) = row.try_get::<Option<String>, _>("failure")? {
                return Err(login_failed(failure));
            }
            if let Some(user_id) = row.try_get::<Option<String>, _>("user_id")? {
                let claimed = sqlx::query("UPDATE wallet_social_flows SET claimed_at = $1 WHERE state_hash = $2 AND claimed_at IS NULL")
                    .bind(now_ms())
                    .bind(hash(state))
                    .execute(&self.db)
                    .await?
                    .rows_affected();
                if claimed != 1 {
                    return Err(login_failed("This login was already used: start the login again"));
                }
                let token = self.open_session(&user_id, device).await?;
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
            // Woken by a callback in this process; other processes are seen by asking again.
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(Claim::Pending);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_comes_from_either_uri() {
        assert_eq!(state_of("https://accounts.example/auth?client_id=a&state=abc&nonce=n").as_deref(), Some("abc"));
        assert_eq!(state_of("https://shop.example/page?x=1&sigil_social=def").as_deref(), Some("def"));
        assert_eq!(state_of("ghi").as_deref(), Some("ghi"));
        assert_eq!(state_of("https://shop.example/page"), None);
        assert_eq!(random_token(32).len(), 43);
        assert_ne!(random_token(32), random_token(32));
    }
}
