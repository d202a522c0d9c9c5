//! Embedded-wallet keys: per user a secp256k1 key (EVM) and an ed25519 key (Solana), made at
//! first login and stored only encrypted (AES-256-GCM) under a key-encryption key (KEK) that
//! comes from the configuration or a file, never from the database. A stored key names the
//! KEK it is encrypted under by a short id, so `sigil keys rotate` can re-encrypt them all.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Which key: what it signs for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Secp256k1,
    Ed25519,
}

impl KeyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Secp256k1 => "secp256k1",
            KeyKind::Ed25519 => "ed25519",
        }
    }
}

/// The key-encryption key. Debug never shows it.
#[derive(Clone)]
pub struct Kek {
    key: [u8; 32],
}

impl std::fmt::Debug for Kek {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kek({})", self.id())
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("the key-encryption key must be 32 bytes as 64 hex digits")]
    BadKek,
    #[error("a stored key is encrypted under key-encryption key {0}, not the configured one")]
    WrongKek(String),
    #[error("a stored key could not be decrypted (damaged, or another key-encryption key)")]
    Decrypt,
}

/// A secret key encrypted for storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// base64 of nonce (12 bytes) followed by the ciphertext and tag.
    pub blob: String,
    pub kek_id: String,
}

impl Kek {
    /// From 64 hex digits (whitespace around them ignored, as in a file).
    pub fn from_hex(text: &str) -> Result<Kek, KeyError> {
        let bytes = hex::decode(text.trim()).map_err(|_| KeyError::BadKek)?;
        Ok(Kek { key: bytes.try_into().map_err(|_| KeyError::BadKek)? })
    }

    /// A new random KEK as hex (for `sigil keys new-kek` and the demo).
    pub fn generate_hex() -> String {
        let mut key = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut key);
        hex::encode(key)
    }

    /// A short public name for this KEK: the first 8 bytes of its sha256, hex.
    pub fn id(&self) -> String {
        hex::encode(&Sha256::digest(self.key)[..8])
    }

    /// Encrypts `secret`, bound to `context` (user id and kind) so a blob moved to another
    /// row does not decrypt.
    pub fn seal(&self, secret: &[u8], context: &str) -> Sealed {
        let cipher = Aes256Gcm::new_from_slice(&self.key).expect("32-byte key");
        let mut nonce = [0u8; 12];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let ct = cipher.encrypt(Nonce::from_slice(&nonce), Payload { msg: secret, aad: context.as_bytes() }).expect("AES-GCM encrypts");
        let mut blob = nonce.to_vec();
        blob.extend(ct);
        Sealed { blob: STANDARD.encode(blob), kek_id: self.id() }
    }

    pub fn open(&self, sealed: &Sealed, context: &str) -> Result<Vec<u8>, KeyError> {
        if sealed.kek_id != self.id() {
            return Err(KeyError::WrongKek(sealed.kek_id.clone()));
        }
        let blob = STANDARD.decode(&sealed.blob).map_err(|_| KeyError::Decrypt)?;
        if blob.len() < 12 + 16 {
            return Err(KeyError::Decrypt);
        }
        let cipher = Aes256Gcm::new_from_slice(&self.key).expect("32-byte key");
        cipher.decrypt(Nonce::from_slice(&blob[..12]), Payload { msg: &blob[12..], aad: context.as_bytes() }).map_err(|_| KeyError::Decrypt)
    }
}

/// A new secret key of `kind`: its 32 secret bytes and its public address (EVM checksummed
/// address, or Solana base58 public key).
pub fn generate(kind: KeyKind) -> ([u8; 32], String) {
    let mut secret = [0u8; 32];
    loop {
        rand::rngs::OsRng.fill_bytes(&mut secret);
        if let Some(address) = address_of(kind, &secret) {
            return (secret, address);
        }
    }
}

/// The public address of a secret key (as its chain family writes it); None when the bytes are
/// not a valid key.
pub fn address_of(kind: KeyKind, secret: &[u8; 32]) -> Option<String> {
    if kind == KeyKind::Secp256k1 && alloy_signer_local::PrivateKeySigner::from_slice(secret).is_err() {
        return None;
    }
    crate::families::Family::of_key(kind).embedded_address(secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_keys_open_only_with_their_kek_and_row() {
        let kek = Kek::from_hex(&Kek::generate_hex()).unwrap();
        let (secret, address) = generate(KeyKind::Secp256k1);
        assert!(address.starts_with("0x") && address.len() == 42);
        let sealed = kek.seal(&secret, "user-1:secp256k1");
        assert!(!sealed.blob.contains(&hex::encode(secret)));
        assert_eq!(kek.open(&sealed, "user-1:secp256k1").unwrap(), secret);
        assert_eq!(kek.open(&sealed, "user-2:secp256k1"), Err(KeyError::Decrypt));
        let other = Kek::from_hex(&Kek::generate_hex()).unwrap();
        assert_eq!(other.open(&sealed, "user-1:secp256k1"), Err(KeyError::WrongKek(kek.id())));
        assert!(format!("{kek:?}").starts_with("Kek(") && !format!("{kek:?}").contains(&hex::encode(kek.key)));
        assert_eq!(Kek::from_hex("abc").unwrap_err(), KeyError::BadKek);
    }

    #[test]
    fn solana_addresses_are_base58_public_keys() {
        let (secret, address) = generate(KeyKind::Ed25519);
        assert_eq!(bs58::decode(&address).into_vec().unwrap(), ed25519_dalek::SigningKey::from_bytes(&secret).verifying_key().as_bytes());
    }
}
