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
use utoipa::ToSchema;

use super::social::{Identity, Socials, CALLBACK_PATH, FLOW_TTL_MS};
use super::{device_id, hash, normalize_email, store, User, Wallets};
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
        store::flows::start(&self.db, &hash(&state), provider, &verifier, &nonce, &device, return_url.as_deref(), now_ms()).await?;
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
        let Some(flow) = store::flows::mark_returned(&self.db, &hash(state), FARCASTER, now_ms()).await? else {
            let known = store::flows::get(&self.db, &hash(state)).await?.is_some();
            return Err(login_failed(if known {
                "This login link was already used: start the login again"
            } else {
                "This login link is not valid: start the login again"
            }));
        };
        let store::flows::Returning { provider, pkce_verifier, nonce, return_url, created_at } = flow;
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
                p.identify(&socials.http, &callback, code, &pkce_verifier, &nonce).await.map_err(Failure::refused)
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
        let done = store::flows::finish(&self.db, &hash(state), user_id, username, failure.as_deref(), claim_hash.as_deref()).await?;
        self.flow_done.notify_waiters();
        Ok(done)
    }

    /// The wallet of a provider account: the one it had, or the email user whose address the
    /// provider verified, or a new one.
    pub(super) async fn social_user(&self, provider: &str, identity: &Identity) -> Result<String, ApiError> {
        if let Some(user_id) = store::socials::user_of(&self.db, provider, &identity.subject).await? {
            store::socials::set_username(&self.db, provider, &identity.subject, identity.username.as_deref()).await?;
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
        // Two callbacks for one new account at once: the first one's user wins.
        Ok(store::socials::link(&self.db, provider, &identity.subject, &user_id, identity.username.as_deref()).await?)
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
            // Another device's login is as unknown as a made-up one.
            let Some(flow) = store::flows::get(&self.db, &hash(state)).await?.filter(|f| f.device_id == device) else { return Err(unknown()) };
            if let Some(failure) = flow.failure {
                return Err(failure_of(failure));
            }
            if let Some(user_id) = flow.user_id {
                if flow.claimed_at.is_some() {
                    return Err(login_failed("This login was already used: start the login again"));
                }
                match (claim, &flow.claim_hash) {
                    (None, Some(_)) => return Ok(Claim::Returned),
                    (Some(given), Some(expected)) if *expected != hash(given) => return Err(unknown()),
                    _ => {}
                }
                // One statement claims it: two claims at once cannot both get a session.
                if !store::flows::claim(&self.db, &hash(state), &device, now_ms()).await? {
                    return Err(login_failed("This login was already used: start the login again"));
                }
                let token = self.open_session(&user_id, &device, now_ms()).await?;
                return Ok(Claim::Connected { token, user: self.user(&user_id).await?, provider: flow.provider, user_name: flow.username });
            }
            if now_ms() - flow.created_at > FLOW_TTL_MS {
                return Err(login_failed("The login took longer than 10 minutes: start again"));
            }
            let refused = flow.refusal;
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
