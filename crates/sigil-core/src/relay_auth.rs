//! WalletConnect relay authentication: the client signs a JWT (EdDSA) with an ed25519 key
//! whose public half is its `iss` as a `did:key`, for the relay's URL as `aud`. Checking one
//! is pure: decode, verify the signature, then the claims against a clock with leeway.

use ed25519_dalek::{Signature, VerifyingKey};
use serde::Deserialize;

use crate::jwt;

/// Multicodec prefix of an ed25519 public key in a did:key.
const ED25519_PUB: [u8; 2] = [0xed, 0x01];
const DID_KEY_PREFIX: &str = "did:key:z";
/// Clock skew allowed on iat and exp (the issue: 120 s).
pub const LEEWAY_SECS: i64 = 120;
/// The longest a token may be valid for (WalletConnect's clients make them for one day): a
/// token that leaked works no longer than this.
pub const MAX_LIFETIME_SECS: i64 = 7 * 86_400;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error("the auth token is missing")]
    Missing,
    #[error("the auth token is not a JWT")]
    Malformed,
    #[error("the auth token's algorithm must be EdDSA")]
    Algorithm,
    #[error("the auth token's issuer is not an ed25519 did:key")]
    Issuer,
    #[error("the auth token's signature is invalid")]
    Signature,
    #[error("the auth token is for another relay ({0})")]
    Audience(String),
    #[error("the auth token has expired")]
    Expired,
    #[error("the auth token is issued in the future")]
    NotYetValid,
    #[error("the auth token is valid for longer than 7 days")]
    TooLong,
}

impl AuthError {
    /// Expired or future-dated tokens come from a device clock that is off: the client shows
    /// "Session Expired" and asks to check the time settings.
    pub fn is_clock(&self) -> bool {
        matches!(self, AuthError::Expired | AuthError::NotYetValid)
    }
}

/// The claims of a checked token.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// The client's did:key: its identity across reconnects.
    pub iss: String,
    pub sub: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
}

/// The ed25519 public key of a `did:key:z...` identifier.
pub fn did_key_to_public_key(did: &str) -> Option<[u8; 32]> {
    let encoded = did.strip_prefix(DID_KEY_PREFIX)?;
    let bytes = bs58::decode(encoded).into_vec().ok()?;
    let key = bytes.strip_prefix(&ED25519_PUB[..])?;
    key.try_into().ok()
}

/// The `did:key` of an ed25519 public key.
pub fn public_key_to_did_key(key: &[u8; 32]) -> String {
    let mut bytes = ED25519_PUB.to_vec();
    bytes.extend_from_slice(key);
    format!("{DID_KEY_PREFIX}{}", bs58::encode(bytes).into_string())
}

/// Checks a relay JWT at `now` (unix seconds): signature by the issuer's key, `aud` one of
/// `audiences` (a trailing slash is ignored), `iat`/`exp` within [`LEEWAY_SECS`].
pub fn verify(token: &str, audiences: &[String], now: i64) -> Result<Claims, AuthError> {
    if token.is_empty() {
        return Err(AuthError::Missing);
    }
    let token = jwt::read::<Claims>(token, "EdDSA").map_err(|e| match e {
        jwt::JwtError::Algorithm(..) => AuthError::Algorithm,
        _ => AuthError::Malformed,
    })?;
    let claims = token.claims;
    let key = did_key_to_public_key(&claims.iss).ok_or(AuthError::Issuer)?;
    let key = VerifyingKey::from_bytes(&key).map_err(|_| AuthError::Issuer)?;
    let signature: [u8; 64] = token.signature.try_into().map_err(|_| AuthError::Signature)?;
    key.verify_strict(token.signed.as_bytes(), &Signature::from_bytes(&signature)).map_err(|_| AuthError::Signature)?;
    let same = |a: &str, b: &str| a.trim_end_matches('/') == b.trim_end_matches('/');
    if !audiences.iter().any(|a| same(a, &claims.aud)) {
        return Err(AuthError::Audience(claims.aud));
    }
    if claims.exp + LEEWAY_SECS < now {
        return Err(AuthError::Expired);
    }
    if claims.iat - LEEWAY_SECS > now {
        return Err(AuthError::NotYetValid);
    }
    if claims.exp - claims.iat > MAX_LIFETIME_SECS || claims.exp - now > MAX_LIFETIME_SECS + LEEWAY_SECS {
        return Err(AuthError::TooLong);
    }
    Ok(claims)
}

/// A token as a client makes one (tests, benchmarks).
pub fn sign(key: &ed25519_dalek::SigningKey, aud: &str, iat: i64, exp: i64) -> String {
    use ed25519_dalek::Signer;
    let iss = public_key_to_did_key(key.verifying_key().as_bytes());
    let claims = serde_json::json!({"iss": iss, "sub": "0".repeat(64), "aud": aud, "iat": iat, "exp": exp});
    jwt::write("EdDSA", None, &claims, |signed| key.sign(signed).to_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;

    const AUD: &str = "ws://127.0.0.1:8080/relay";

    fn key() -> ed25519_dalek::SigningKey {
        ed25519_dalek::SigningKey::from_bytes(&[9u8; 32])
    }

    #[test]
    fn did_keys_round_trip() {
        let k = key();
        let did = public_key_to_did_key(k.verifying_key().as_bytes());
        assert!(did.starts_with("did:key:z6Mk"), "{did}");
        assert_eq!(did_key_to_public_key(&did), Some(*k.verifying_key().as_bytes()));
        assert_eq!(did_key_to_public_key("did:key:zQ3s"), None);
        assert_eq!(did_key_to_public_key("did:web:example.com"), None);
    }

    #[test]
    fn accepts_a_good_token_and_refuses_each_fault() {
        let now = 1_800_000_000;
        let auds = [AUD.to_owned()];
        let good = sign(&key(), AUD, now, now + 86_400);
        let claims = verify(&good, &auds, now).unwrap();
        assert_eq!(claims.aud, AUD);
        assert!(claims.iss.starts_with("did:key:z6Mk"));
        // A trailing slash on either side is the same URL.
        assert!(verify(&sign(&key(), &format!("{AUD}/"), now, now + 60), &auds, now).is_ok());

        assert_eq!(verify("", &auds, now), Err(AuthError::Missing));
        assert_eq!(verify("a.b", &auds, now), Err(AuthError::Malformed));
        assert_eq!(verify(&sign(&key(), "ws://elsewhere/", now, now + 60), &auds, now), Err(AuthError::Audience("ws://elsewhere/".into())));
        // Expired beyond the leeway, and within it.
        assert_eq!(verify(&sign(&key(), AUD, now - 500, now - 121), &auds, now), Err(AuthError::Expired));
        assert!(verify(&sign(&key(), AUD, now - 500, now - 119), &auds, now).is_ok());
        assert_eq!(verify(&sign(&key(), AUD, now + 121, now + 600), &auds, now), Err(AuthError::NotYetValid));
        assert!(AuthError::Expired.is_clock() && !AuthError::Signature.is_clock());
        // A token for far ahead (the probe's expired in 2200) is refused; seven days are fine.
        let year_2200 = 7_258_118_400;
        assert_eq!(verify(&sign(&key(), AUD, now, year_2200), &auds, now), Err(AuthError::TooLong));
        assert_eq!(verify(&sign(&key(), AUD, now - 86_400, now + 7 * 86_400), &auds, now), Err(AuthError::TooLong), "exp too far from now");
        assert!(verify(&sign(&key(), AUD, now, now + 7 * 86_400), &auds, now).is_ok());
        // A changed payload breaks the signature.
        let parts: Vec<&str> = good.split('.').collect();
        let forged_claims = serde_json::json!({"iss": claims.iss, "sub": "x", "aud": AUD, "iat": now, "exp": now + 999_999});
        let forged = format!("{}.{}.{}", parts[0], URL_SAFE_NO_PAD.encode(forged_claims.to_string()), parts[2]);
        assert_eq!(verify(&forged, &auds, now), Err(AuthError::Signature));
        // Another algorithm is refused.
        let none = format!("{}.{}.{}", URL_SAFE_NO_PAD.encode(br#"{"alg":"none"}"#), parts[1], parts[2]);
        assert_eq!(verify(&none, &auds, now), Err(AuthError::Algorithm));
    }
}
