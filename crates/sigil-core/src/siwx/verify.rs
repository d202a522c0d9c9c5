//! Signature checks for sign-in messages: EIP-191 `personal_sign` recovery for EVM accounts,
//! the pieces of an EIP-1271 `isValidSignature` call for contract accounts (the caller makes
//! the `eth_call`), and ed25519 for Solana.

use super::message::{Namespace, SignInMessage};
use crate::evm::{self, RecoverError};

pub use crate::evm::EIP1271_MAGIC_VALUE;

/// Why a signature was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the signature is not valid hex")]
    InvalidHex,
    #[error("the signature is not in an encoding this kind of account uses")]
    InvalidEncoding,
    #[error("the signature must be {expected} bytes, got {actual}")]
    InvalidLength { expected: usize, actual: usize },
    #[error("invalid recovery id v={0} (expected 27, 28, 0 or 1)")]
    InvalidRecoveryId(u8),
    #[error("the signature is malformed (r or s out of range, or no key recovers from it)")]
    MalformedSignature,
    #[error("'{0}' is not a valid address")]
    InvalidAddress(String),
    #[error("'{0}' is not a valid public key")]
    InvalidPublicKey(String),
    #[error("the message was signed by {recovered}, not {expected}")]
    AddressMismatch { expected: String, recovered: String },
    #[error("the signature does not match the message and public key")]
    BadSignature,
    #[error("sign-in messages of {0} accounts cannot be verified")]
    UnsupportedNamespace(Namespace),
}

/// Decode hex with or without a `0x` prefix.
pub fn decode_hex(s: &str) -> Result<Vec<u8>, VerifyError> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
    hex::decode(digits).map_err(|_| VerifyError::InvalidHex)
}

/// The EIP-191 `personal_sign` hash:
/// `keccak256("\x19Ethereum Signed Message:\n" + len(message) + message)`.
pub fn eip191_hash(message: impl AsRef<[u8]>) -> [u8; 32] {
    evm::eip191_hash(message).0
}

/// The EVM address (EIP-55 checksummed) of the key that made a 65-byte `r || s || v`
/// `personal_sign` signature over `message`. `v` may be 27/28 or 0/1.
pub fn recover_eip191(message: &str, signature_hex: &str) -> Result<String, VerifyError> {
    let bytes = decode_hex(signature_hex)?;
    match evm::recover_personal_sign(message, &bytes) {
        Ok(address) => Ok(address.to_checksum(None)),
        Err(RecoverError::Length(actual)) => Err(VerifyError::InvalidLength { expected: 65, actual }),
        Err(RecoverError::RecoveryId(v)) => Err(VerifyError::InvalidRecoveryId(v)),
        Err(RecoverError::Malformed) => Err(VerifyError::MalformedSignature),
    }
}

/// Verify an EOA `personal_sign` signature: the recovered address must equal `expected_address`
/// (compared case-insensitively).
pub fn verify_eip191(message: &str, signature_hex: &str, expected_address: &str) -> Result<(), VerifyError> {
    let well_formed = expected_address.strip_prefix("0x").is_some_and(|h| h.len() == 40 && h.bytes().all(|b| b.is_ascii_hexdigit()));
    if !well_formed {
        return Err(VerifyError::InvalidAddress(expected_address.to_owned()));
    }
    let recovered = recover_eip191(message, signature_hex)?;
    if recovered.eq_ignore_ascii_case(expected_address) {
        Ok(())
    } else {
        Err(VerifyError::AddressMismatch { expected: expected_address.to_owned(), recovered })
    }
}

/// `0x`-prefixed call data for `isValidSignature(bytes32 hash, bytes signature)` (EIP-1271).
pub fn eip1271_call_data(message_hash: [u8; 32], signature: &[u8]) -> String {
    evm::call_data(&evm::isValidSignatureCall { hash: message_hash.into(), signature: signature.to_vec().into() })
}

/// Does `eth_call` return data (hex, `0x` optional) hold the EIP-1271 magic value `0x1626ba7e`
/// (an ABI `bytes4`: the value then 28 zero bytes)?
pub fn is_eip1271_magic(return_data_hex: &str) -> bool {
    match decode_hex(return_data_hex) {
        Ok(data) => data.len() == 32 && data[..4] == EIP1271_MAGIC_VALUE && data[4..].iter().all(|&b| b == 0),
        Err(_) => false,
    }
}

/// Decode a Solana signature given as base58 or hex (`0x` prefix or 128 hex digits).
fn decode_solana_signature(s: &str) -> Result<Vec<u8>, VerifyError> {
    if s.starts_with("0x") || s.starts_with("0X") || (s.len() == 128 && s.bytes().all(|b| b.is_ascii_hexdigit())) {
        return decode_hex(s);
    }
    bs58::decode(s).into_vec().map_err(|_| VerifyError::InvalidEncoding)
}

/// Verify a Solana `signMessage` signature: ed25519 (strict) over the UTF-8 message bytes,
/// with the signer's base58 public key.
pub fn verify_solana(message: &str, signature_base58_or_hex: &str, pubkey_base58: &str) -> Result<(), VerifyError> {
    let key_bytes: [u8; 32] =
        bs58::decode(pubkey_base58).into_vec().ok().and_then(|b| b.try_into().ok()).ok_or_else(|| VerifyError::InvalidPublicKey(pubkey_base58.to_owned()))?;
    let key = ed25519_dalek::VerifyingKey::from_bytes(&key_bytes).map_err(|_| VerifyError::InvalidPublicKey(pubkey_base58.to_owned()))?;
    let sig_bytes = decode_solana_signature(signature_base58_or_hex)?;
    let sig_bytes: [u8; 64] = sig_bytes.as_slice().try_into().map_err(|_| VerifyError::InvalidLength { expected: 64, actual: sig_bytes.len() })?;
    let signature = ed25519_dalek::Signature::from_bytes(&sig_bytes);
    key.verify_strict(message.as_bytes(), &signature).map_err(|_| VerifyError::BadSignature)
}

/// Verify a Bitcoin message signature: BIP-322 (simple: the witness, base64; or full: the
/// signed transaction, base64) for any address type, or a legacy BIP-137 signature (65 bytes,
/// base64) for P2PKH, P2WPKH and P2SH-P2WPKH addresses.
pub fn verify_bitcoin(message: &str, signature: &str, address: &str) -> Result<(), VerifyError> {
    let signature = signature.trim();
    let verified = bip322::verify_simple_encoded(address, message, signature).is_ok()
        || bip322::verify_full_encoded(address, message, signature).is_ok()
        || verify_bip137(message, signature, address);
    if verified {
        return Ok(());
    }
    if signature.parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>().is_ok() || base64_len(signature).is_none() {
        return Err(VerifyError::InvalidEncoding);
    }
    Err(VerifyError::BadSignature)
}

/// A legacy (BIP-137) message signature: header, r, s. The header says the key's form (27-30
/// uncompressed, 31-34 compressed P2PKH, 35-38 P2SH-P2WPKH, 39-42 P2WPKH); wallets that sign
/// segwit addresses with a P2PKH header (Electrum and others) are accepted too, so the
/// recovered key matches when any of its single-key address forms is the address.
fn verify_bip137(message: &str, signature: &str, address: &str) -> bool {
    use bitcoin::base64::Engine;
    use bitcoin::hashes::Hash;
    use bitcoin::secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
    use bitcoin::secp256k1::{Message, Secp256k1};
    use bitcoin::{CompressedPublicKey, PublicKey, ScriptBuf};

    let Ok(bytes) = bitcoin::base64::engine::general_purpose::STANDARD.decode(signature) else { return false };
    let Ok(bytes) = <[u8; 65]>::try_from(bytes.as_slice()) else { return false };
    let flag = bytes[0];
    if !(27..=42).contains(&flag) {
        return false;
    }
    let Ok(id) = RecoveryId::from_i32(i32::from((flag - 27) & 3)) else { return false };
    let Ok(sig) = RecoverableSignature::from_compact(&bytes[1..], id) else { return false };
    let digest = Message::from_digest(bitcoin::sign_message::signed_msg_hash(message).to_byte_array());
    let Ok(key) = Secp256k1::verification_only().recover_ecdsa(&digest, &sig) else { return false };
    let Ok(address) = address.parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>() else { return false };
    let script = address.assume_checked_ref().script_pubkey();
    let key = PublicKey { inner: key, compressed: flag >= 31 };
    if script == ScriptBuf::new_p2pkh(&key.pubkey_hash()) {
        return true;
    }
    let Ok(key) = CompressedPublicKey::try_from(key) else { return false };
    let p2wpkh = ScriptBuf::new_p2wpkh(&key.wpubkey_hash());
    script == p2wpkh || script == ScriptBuf::new_p2sh(&p2wpkh.script_hash())
}

fn base64_len(s: &str) -> Option<usize> {
    use bitcoin::base64::Engine;
    // BIP-322 signatures may carry a three-letter kind first ("smp", "ful").
    let body = s.strip_prefix("smp").or_else(|| s.strip_prefix("ful")).unwrap_or(s);
    bitcoin::base64::engine::general_purpose::STANDARD.decode(body).ok().map(|b| b.len())
}

/// Verify a signature over a sign-in message for its own namespace and address: EIP-191 for
/// `eip155` (an EOA; for a contract account this fails and the caller tries EIP-1271 with
/// [`eip191_hash`] and [`eip1271_call_data`]), ed25519 for `solana`.
pub fn verify_message(message: &SignInMessage, signature: &str) -> Result<(), VerifyError> {
    let text = message.to_string();
    match message.namespace {
        Namespace::Eip155 => verify_eip191(&text, signature, &message.address),
        Namespace::Solana => verify_solana(&text, signature, &message.address),
        Namespace::Bip122 => verify_bitcoin(&text, signature, &message.address),
        other => Err(VerifyError::UnsupportedNamespace(other)),
    }
}
