//! Solana chains: address rules (base58 of a 32-byte public key), balances through the proxy's
//! upstreams (SOL by getBalance, every SPL token account by getTokenAccountsByOwner, both token
//! programs, each with its mint's decimals), the clusters sign-in accepts, and what the
//! embedded wallet signs with ed25519: messages (never a transaction's bytes) and transactions.

use std::sync::Arc;

use serde_json::{json, Value};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ed25519_dalek::Signer as _;

use super::{Handling, Holding, SignError};
use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::rpc::jsonrpc::Reply;
use crate::rpc::Rpc;

pub const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
pub const TOKEN_2022_PROGRAM: &str = "TokenzQdBNbLqP5VWeRthBQM1Th1hNqHfgPLz6d8DA7";

/// The clusters sign-in accepts without a configured chain (CAIP-2 references of mainnet,
/// devnet and testnet).
const CLUSTERS: &[&str] = &["5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z"];

/// Whether `chain` (CAIP-2) is one of Solana's public clusters.
pub fn is_cluster(chain: &str) -> bool {
    chain.strip_prefix("solana:").is_some_and(|reference| CLUSTERS.contains(&reference))
}

/// Base58 of a 32-byte public key, as it is.
pub fn check_address(address: &str) -> Result<String, &'static str> {
    sigil_core::siwx::check_solana_address(address).map(|_| address.to_owned()).map_err(|_| "a Solana address: base58 of a 32-byte public key")
}

/// The base58 public key of an ed25519 secret key.
pub fn address_of(secret: &[u8; 32]) -> String {
    bs58::encode(ed25519_dalek::SigningKey::from_bytes(secret).verifying_key().as_bytes()).into_string()
}

/// How the embedded wallet answers a Solana method.
pub fn wallet_request(method: &str) -> Handling {
    match method {
        "solana_signMessage" | "solana_signTransaction" => Handling::Sign,
        _ => Handling::Read,
    }
}

/// Signs an approved request with the user's ed25519 key.
pub fn sign(secret: &[u8; 32], method: &str, params: &Value) -> Result<Value, SignError> {
    let key = ed25519_dalek::SigningKey::from_bytes(secret);
    match method {
        "solana_signMessage" => Ok(json!({"signature": sign_message(&key, params)?})),
        "solana_signTransaction" => Ok(json!({"transaction": sign_transaction(&key, params)?})),
        _ => Err(SignError::NotAllowed),
    }
}

async fn call(rpc: &Arc<Rpc>, chain: &str, method: &str, params: Value) -> ApiResult<Value> {
    let reply = rpc.call(chain, method, Some(&params.to_string())).await.map_err(crate::rpc::upstream_error)?;
    match reply {
        Reply::Result(raw) => serde_json::from_str(&raw).map_err(|e| ApiError::unavailable(format!("{method}: {e}"))),
        Reply::Error(raw) => Err(ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, ErrorCode::UpstreamUnavailable, format!("{method} failed: {raw}"))),
    }
}

/// SPL token accounts of an owner as their JSON-parsed RPC answer gives them: (mint, amount, decimals).
pub fn token_amounts(answer: &Value) -> Vec<(String, String, u8)> {
    answer["value"]
        .as_array()
        .map(|accounts| {
            accounts
                .iter()
                .filter_map(|a| {
                    let info = &a["account"]["data"]["parsed"]["info"];
                    let amount = &info["tokenAmount"];
                    Some((info["mint"].as_str()?.to_owned(), amount["amount"].as_str()?.to_owned(), u8::try_from(amount["decimals"].as_u64()?).ok()?))
                })
                .collect()
        })
        .unwrap_or_default()
}

pub async fn holdings(rpc: &Arc<Rpc>, chain: &ChainConfig, owner: &str) -> ApiResult<Vec<Holding>> {
    let sol = call(rpc, &chain.id, "getBalance", json!([owner, {"commitment": "confirmed"}])).await?;
    let lamports = sol["value"].as_u64().ok_or_else(|| ApiError::unavailable("getBalance gave no value"))?;
    let mut held = vec![Holding::native(chain, lamports.to_string())];
    for program in [TOKEN_PROGRAM, TOKEN_2022_PROGRAM] {
        let params = json!([owner, {"programId": program}, {"encoding": "jsonParsed", "commitment": "confirmed"}]);
        let Ok(answer) = call(rpc, &chain.id, "getTokenAccountsByOwner", params).await else { continue };
        for (mint, amount, decimals) in token_amounts(&answer) {
            if amount.trim_start_matches('0').is_empty() {
                continue;
            }
            let known = chain.token(&mint);
            let short = format!("{}…", &mint[..4.min(mint.len())]);
            held.push(Holding {
                name: known.map_or_else(|| format!("Token {short}"), |t| t.name.clone()),
                symbol: known.map_or(short, |t| t.symbol.clone()),
                decimals,
                icon: known.and_then(|t| t.icon.clone()),
                token: Some(mint),
                integer: amount,
            });
        }
    }
    Ok(held)
}

/// Solana signMessage({message, pubkey}): ed25519 over the message bytes (base58 in, base58 out).
/// Bytes that are a transaction message are refused: signed "as a message", they would be a
/// signed transaction the approval never showed as one (the probe moved 1.5 SOL that way).
pub fn sign_message(key: &ed25519_dalek::SigningKey, p: &Value) -> Result<String, SignError> {
    let message = p.get("message").and_then(Value::as_str).ok_or_else(|| SignError::Params("'message' (base58) is required".into()))?;
    let bytes = bs58::decode(message).into_vec().map_err(|_| SignError::Params("'message' is not base58".into()))?;
    if is_transaction_message(&bytes) {
        return Err(SignError::Params("this message is a Solana transaction: it can only be signed as a transaction, where it is shown as one".into()));
    }
    if let Some(pubkey) = p.get("pubkey").and_then(Value::as_str) {
        if pubkey != bs58::encode(key.verifying_key().as_bytes()).into_string() {
            return Err(SignError::Params(format!("{pubkey} is not this wallet's public key")));
        }
    }
    Ok(bs58::encode(key.sign(&bytes).to_bytes()).into_string())
}

/// Reads Solana's compact-u16 length at `at`; (value, bytes used).
fn compact_u16(bytes: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut value = 0usize;
    for i in 0..3 {
        let b = *bytes.get(at + i)?;
        value |= usize::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// Whether `bytes` are, whole, a Solana transaction message (legacy or v0): header, account
/// keys, recent blockhash, instructions and, for v0, address-table lookups, with nothing left.
pub fn is_transaction_message(bytes: &[u8]) -> bool {
    let mut at = 0usize;
    let length = |at: &mut usize| -> Option<usize> {
        let (n, used) = compact_u16(bytes, *at)?;
        *at += used;
        Some(n)
    };
    let skip = |at: &mut usize, n: usize| -> Option<()> {
        *at = at.checked_add(n).filter(|end| *end <= bytes.len())?;
        Some(())
    };
    let parsed = (|| {
        let versioned = *bytes.first()? & 0x80 != 0;
        if versioned {
            // Only version 0 exists; the off-chain message format starts with 0xff.
            if bytes[0] != 0x80 {
                return None;
            }
            at = 1;
        }
        let required = usize::from(*bytes.get(at)?);
        skip(&mut at, 3)?;
        let keys = length(&mut at)?;
        if required == 0 || keys < required {
            return None;
        }
        skip(&mut at, keys.checked_mul(32)?)?;
        skip(&mut at, 32)?;
        for _ in 0..length(&mut at)? {
            skip(&mut at, 1)?;
            let accounts = length(&mut at)?;
            skip(&mut at, accounts)?;
            let data = length(&mut at)?;
            skip(&mut at, data)?;
        }
        if versioned {
            for _ in 0..length(&mut at)? {
                skip(&mut at, 32)?;
                let writable = length(&mut at)?;
                skip(&mut at, writable)?;
                let readonly = length(&mut at)?;
                skip(&mut at, readonly)?;
            }
        }
        Some(at == bytes.len())
    })();
    parsed == Some(true)
}

/// Solana signTransaction({transaction}): a wire-format transaction (base64) with this
/// wallet's signature put in its slot among the required signers.
pub fn sign_transaction(key: &ed25519_dalek::SigningKey, p: &Value) -> Result<String, SignError> {
    let bad = |why: &str| SignError::Params(format!("transaction: {why}"));
    let text = p.get("transaction").and_then(Value::as_str).ok_or_else(|| bad("'transaction' (base64) is required"))?;
    let mut tx = STANDARD.decode(text).map_err(|_| bad("not base64"))?;
    let (signatures, used) = compact_u16(&tx, 0).ok_or_else(|| bad("no signature count"))?;
    let message_at = used + signatures * 64;
    let message = tx.get(message_at..).ok_or_else(|| bad("shorter than its signatures"))?.to_vec();
    // Message header: versioned messages start with 0x80 | version.
    let header_at = usize::from(message.first().is_some_and(|b| b & 0x80 != 0));
    let required = usize::from(*message.get(header_at).ok_or_else(|| bad("no header"))?);
    let (keys, keys_used) = compact_u16(&message, header_at + 3).ok_or_else(|| bad("no account keys"))?;
    let ours = key.verifying_key().to_bytes();
    let first_key = header_at + 3 + keys_used;
    let slot = (0..keys.min(required))
        .find(|i| message.get(first_key + i * 32..first_key + (i + 1) * 32) == Some(&ours[..]))
        .ok_or_else(|| bad("this wallet is not one of its signers"))?;
    if slot >= signatures {
        return Err(bad("no room for this wallet's signature"));
    }
    let signature = key.sign(&message).to_bytes();
    tx[used + slot * 64..used + (slot + 1) * 64].copy_from_slice(&signature);
    Ok(STANDARD.encode(tx))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A System Program transfer of `lamports` from `from` to `to`: the probe's SOL transfer.
    fn transfer_message(from: [u8; 32], to: [u8; 32], lamports: u64, versioned: bool) -> Vec<u8> {
        let mut m = if versioned { vec![0x80] } else { vec![] };
        m.extend([1u8, 0, 1, 3]);
        m.extend(from);
        m.extend(to);
        m.extend([0u8; 32]); // the System Program
        m.extend([4u8; 32]); // recent blockhash
        m.extend([1u8, 2, 2, 0, 1, 12]);
        m.extend(2u32.to_le_bytes());
        m.extend(lamports.to_le_bytes());
        if versioned {
            m.push(0);
        }
        m
    }

    #[test]
    fn transaction_messages_are_told_from_other_bytes() {
        for versioned in [false, true] {
            let tx = transfer_message([1; 32], [2; 32], 1_500_000_000, versioned);
            assert!(is_transaction_message(&tx), "versioned {versioned}");
            // One byte more or less is not a transaction message.
            assert!(!is_transaction_message(&tx[..tx.len() - 1]));
            assert!(!is_transaction_message(&[tx.as_slice(), &[0]].concat()));
        }
        assert!(!is_transaction_message(b"Sign in to example.com\nNonce: 123"));
        assert!(!is_transaction_message(b""));
        assert!(!is_transaction_message(&[0xff, b's', b'o', b'l', b'a', b'n', b'a']), "the off-chain message format");
        let key = ed25519_dalek::SigningKey::from_bytes(&[5u8; 32]);
        let probe = transfer_message(key.verifying_key().to_bytes(), [2; 32], 1_500_000_000, false);
        assert!(sign_message(&key, &json!({"message": bs58::encode(&probe).into_string()})).is_err());
    }

    #[test]
    fn reads_parsed_token_accounts() {
        let answer = json!({"context": {"slot": 1}, "value": [
            {"pubkey": "x", "account": {"data": {"parsed": {"info": {"mint": "So11111111111111111111111111111111111111112", "tokenAmount": {"amount": "1500000", "decimals": 6, "uiAmountString": "1.5"}}}, "program": "spl-token"}}},
            {"pubkey": "y", "account": {"data": ["base64", "..."]}},
        ]});
        assert_eq!(token_amounts(&answer), vec![("So11111111111111111111111111111111111111112".to_owned(), "1500000".to_owned(), 6)]);
        assert!(token_amounts(&json!({"value": null})).is_empty());
    }

    #[test]
    fn solana_transactions_get_their_signature_in_place() {
        let key = ed25519_dalek::SigningKey::from_bytes(&[5u8; 32]);
        // A legacy message: header (1 signer, 0, 1), keys [ours, program], blockhash, no instructions.
        let mut message = vec![1u8, 0, 1, 2];
        message.extend(key.verifying_key().to_bytes());
        message.extend([9u8; 32]);
        message.extend([7u8; 32]);
        message.push(0);
        let mut tx = vec![1u8];
        tx.extend([0u8; 64]);
        tx.extend(&message);
        let signed = STANDARD.decode(sign_transaction(&key, &json!({"transaction": STANDARD.encode(&tx)})).unwrap()).unwrap();
        let sig = ed25519_dalek::Signature::from_bytes(signed[1..65].try_into().unwrap());
        assert!(key.verifying_key().verify_strict(&message, &sig).is_ok());
        assert_eq!(&signed[65..], &message[..]);
        let stranger = ed25519_dalek::SigningKey::from_bytes(&[6u8; 32]);
        assert!(sign_transaction(&stranger, &json!({"transaction": STANDARD.encode(&tx)})).is_err());
        // The message of a transaction is refused as a "message" (issue 20, N9).
        assert!(is_transaction_message(&message));
        let refused = sign_message(&key, &json!({"message": bs58::encode(&message).into_string()}));
        assert!(matches!(refused, Err(SignError::Params(m)) if m.contains("is a Solana transaction")));
        let m = sign_message(&key, &json!({"message": bs58::encode(b"hi").into_string()})).unwrap();
        let sig = ed25519_dalek::Signature::from_bytes(&bs58::decode(m).into_vec().unwrap().try_into().unwrap());
        assert!(key.verifying_key().verify_strict(b"hi", &sig).is_ok());
    }
}
