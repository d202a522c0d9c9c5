//! The Verify endpoint WalletConnect clients consult, served here so nothing waits on, or goes
//! to, the vendor's host. A dapp page loads `/v3/attestation` in a hidden frame; the frame
//! posts back an ES256 token saying which origin the page is on (from the request's Referer,
//! never from the page's own claim) and whether the project allows it. A wallet checks that
//! token with the key at `/v3/public-key` and shows the dapp as verified or not.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde::{Deserialize, Serialize};
use sigil_core::origin::{is_allowed, normalize_origin};
use utoipa::{IntoParams, ToSchema};

use crate::extract::Query;
use crate::AppState;

/// How long a token, and the published key, are good for.
const TOKEN_SECS: i64 = 3600;
const KEY_SECS: i64 = 24 * 3600;

/// The ES256 key this process signs attestations with (made at start; wallets fetch it again
/// when a token does not check out).
pub struct VerifyKey(SigningKey);

impl Default for VerifyKey {
    fn default() -> Self {
        VerifyKey(SigningKey::random(&mut p256::elliptic_curve::rand_core::OsRng))
    }
}

impl VerifyKey {
    fn token(&self, claims: &serde_json::Value) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"ES256","typ":"JWT"}"#);
        let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{payload}");
        let signature: Signature = self.0.sign(signed.as_bytes());
        format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
    }

    fn jwk(&self) -> Jwk {
        let point = self.0.verifying_key().to_encoded_point(false);
        let coordinate = |c: Option<&p256::FieldBytes>| URL_SAFE_NO_PAD.encode(c.map(|b| b.as_slice()).unwrap_or_default());
        Jwk { crv: "P-256", ext: true, key_ops: vec!["verify"], kty: "EC", x: coordinate(point.x()), y: coordinate(point.y()) }
    }
}

#[derive(Serialize, ToSchema)]
pub struct Jwk {
    crv: &'static str,
    ext: bool,
    key_ops: Vec<&'static str>,
    kty: &'static str,
    x: String,
    y: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicKey {
    public_key: Jwk,
    /// Unix seconds.
    expires_at: i64,
}

/// The key wallets check attestations with (a JWK).
#[utoipa::path(get, path = "/v3/public-key", tag = "relay", responses((status = 200, body = PublicKey)))]
pub async fn public_key(State(state): State<AppState>) -> Response {
    let body = PublicKey { public_key: state.verify_key.jwk(), expires_at: crate::db::now_ms() / 1000 + KEY_SECS };
    let mut res = Json(body).into_response();
    res.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    res
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AttestationQuery {
    /// The dapp's project.
    #[param(rename = "projectId")]
    pub project_id: Option<String>,
    /// The id of the message being attested (sha256 of the encrypted message).
    pub id: Option<String>,
}

/// A frame for the dapp page: it posts a token naming the page's origin to its parent.
#[utoipa::path(get, path = "/v3/attestation", tag = "relay", params(AttestationQuery),
    responses((status = 200, description = "A page that posts {type: verify_attestation, attestation} to its parent", content_type = "text/html")))]
pub async fn attestation(State(state): State<AppState>, Query(query): Query<AttestationQuery>, headers: HeaderMap) -> Response {
    let origin = headers
        .get(header::REFERER)
        .and_then(|r| r.to_str().ok())
        .and_then(|r| url::Url::parse(r).ok())
        .and_then(|u| normalize_origin(&u.origin().ascii_serialization()));
    let project = match query.project_id.as_deref() {
        Some(id) if sigil_core::project::is_project_id(id) => state.projects.find(&state.db, id).await.ok().flatten(),
        _ => None,
    };
    let verified = matches!((&project, &origin), (Some(p), Some(o)) if is_allowed(&p.allowed_origins, o));
    // Keep the id to what a message id is (hex); the token always comes, so no dapp waits.
    let id: String = query.id.unwrap_or_default().chars().filter(char::is_ascii_hexdigit).take(64).collect();
    let claims = serde_json::json!({
        "exp": crate::db::now_ms() / 1000 + TOKEN_SECS,
        "id": id,
        "origin": origin.clone().unwrap_or_default(),
        "isScam": false,
        "isVerified": verified,
    });
    let token = state.verify_key.token(&claims);
    let message = serde_json::json!({"type": "verify_attestation", "attestation": token}).to_string();
    // The token is base64url and dots only; the message is a JSON string literal in the script.
    let page = format!(
        "<!doctype html><meta charset=utf-8><script>window.parent.postMessage({}, '*')</script>",
        serde_json::to_string(&message).expect("a string serialises")
    );
    let ancestors = match &project {
        Some(p) => p.allowed_origins.iter().map(|o| o.to_string()).collect::<Vec<_>>().join(" "),
        None => "'none'".into(),
    };
    let mut res = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response();
    let policy = format!("default-src 'none'; script-src 'unsafe-inline'; frame-ancestors {ancestors}");
    if let Ok(v) = HeaderValue::from_str(&policy) {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;

    #[test]
    fn tokens_check_out_with_the_published_key() {
        let key = VerifyKey::default();
        let token = key.token(&serde_json::json!({"id": "ab", "origin": "https://shop.example", "isVerified": true}));
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(parts.len(), 3);
        let jwk = key.jwk();
        let mut point = vec![4u8];
        point.extend(URL_SAFE_NO_PAD.decode(&jwk.x).unwrap());
        point.extend(URL_SAFE_NO_PAD.decode(&jwk.y).unwrap());
        let verifying = p256::ecdsa::VerifyingKey::from_sec1_bytes(&point).unwrap();
        let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
        assert!(verifying.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature).is_ok());
        let payload: serde_json::Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(payload["origin"], "https://shop.example");
    }
}
