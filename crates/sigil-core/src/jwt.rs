//! JSON Web Tokens (RFC 7519) in their compact form, for the two the server deals in: the
//! WalletConnect relay's client tokens (EdDSA, verified: relay_auth.rs) and Apple's client
//! secret (ES256, signed by the server). This module does the JWS framing (base64url header,
//! claims and signature); the algorithm's key work is its caller's, with the crate it already
//! has for that key (ed25519-dalek, p256).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Why a token could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwtError {
    #[error("the token is not a JWT")]
    Malformed,
    #[error("the token's algorithm is {0}, not {1}")]
    Algorithm(String, &'static str),
    #[error("the token's signature is invalid")]
    Signature,
}

#[derive(Serialize, serde::Deserialize)]
struct Header<'a> {
    alg: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    typ: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kid: Option<&'a str>,
}

/// A token's parts, checked for shape and algorithm: its claims, the signed text and the
/// signature, for the caller to verify with its key.
#[derive(Debug)]
pub struct Unverified<'a, C> {
    pub claims: C,
    pub signed: &'a str,
    pub signature: Vec<u8>,
}

/// Splits `token`, reads its header (the algorithm must be `alg`) and claims.
pub fn read<'a, C: DeserializeOwned>(token: &'a str, alg: &'static str) -> Result<Unverified<'a, C>, JwtError> {
    let mut parts = token.split('.');
    let (Some(header), Some(claims), Some(signature), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(JwtError::Malformed);
    };
    let decode = |part: &str| URL_SAFE_NO_PAD.decode(part.trim_end_matches('=')).map_err(|_| JwtError::Malformed);
    let header_bytes = decode(header)?;
    let header: Header = serde_json::from_slice(&header_bytes).map_err(|_| JwtError::Malformed)?;
    if header.alg != alg {
        return Err(JwtError::Algorithm(header.alg.to_owned(), alg));
    }
    let claims = serde_json::from_slice(&decode(claims)?).map_err(|_| JwtError::Malformed)?;
    let signed = &token[..token.rfind('.').expect("three parts")];
    Ok(Unverified { claims, signed, signature: decode(signature)? })
}

/// A token for `claims` with algorithm `alg` (and key id `kid`), signed by `sign` over the
/// header and claims.
pub fn write(alg: &str, kid: Option<&str>, claims: &impl Serialize, sign: impl FnOnce(&[u8]) -> Vec<u8>) -> String {
    let header = Header { alg, typ: kid.is_none().then_some("JWT"), kid };
    let header = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&header).expect("a header serializes"));
    let claims = URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims).expect("claims serialize"));
    let signed = format!("{header}.{claims}");
    let signature = URL_SAFE_NO_PAD.encode(sign(signed.as_bytes()));
    format!("{signed}.{signature}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_the_compact_form() {
        let token = write("EdDSA", None, &serde_json::json!({"sub": "x", "n": 1}), |signed| signed.iter().rev().copied().collect());
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(URL_SAFE_NO_PAD.decode(parts[0]).unwrap(), br#"{"alg":"EdDSA","typ":"JWT"}"#);
        let read: Unverified<serde_json::Value> = read(&token, "EdDSA").unwrap();
        assert_eq!(read.claims["n"], 1);
        assert_eq!(read.signed, format!("{}.{}", parts[0], parts[1]));
        assert_eq!(read.signature, read.signed.bytes().rev().collect::<Vec<_>>());
        assert_eq!(super::read::<serde_json::Value>(&token, "ES256").unwrap_err(), JwtError::Algorithm("EdDSA".into(), "ES256"));
        assert_eq!(super::read::<serde_json::Value>("a.b", "EdDSA").unwrap_err(), JwtError::Malformed);
        let with_kid = write("ES256", Some("K1"), &serde_json::json!({}), |_| vec![1]);
        assert_eq!(URL_SAFE_NO_PAD.decode(with_kid.split('.').next().unwrap()).unwrap(), br#"{"alg":"ES256","kid":"K1"}"#);
    }
}
