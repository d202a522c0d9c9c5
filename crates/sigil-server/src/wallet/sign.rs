//! What an embedded wallet signs, with the alloy crates (EVM) and ed25519 (Solana):
//! personal_sign, eth_signTypedData_v4, eth_sendTransaction (EIP-1559; nonce, gas and fees
//! from the chain, then broadcast through the server's own RPC proxy), Solana signMessage and
//! signTransaction. Reads go to the proxy; anything else is refused.

use std::sync::Arc;

use alloy_consensus::{SignableTransaction, TxEip1559};
use alloy_eips::eip2718::Encodable2718;
use alloy_primitives::{hex, Address, Bytes, TxKind, U256};
use alloy_signer::SignerSync;
use alloy_signer_local::PrivateKeySigner;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ed25519_dalek::Signer as _;
use serde_json::{json, Value};

use crate::rpc::jsonrpc::Reply;
use crate::rpc::Rpc;

/// Spec section 6 and the frame's own wording.
pub const NOT_ALLOWED: &str = "Requested RPC call is not allowed";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SignError {
    #[error("{NOT_ALLOWED}")]
    NotAllowed,
    #[error("Invalid params: {0}")]
    Params(String),
    #[error("{0}")]
    Chain(String),
}

/// EIP-1193 methods that need the user's approval in the frame before the frame asks for them.
pub fn needs_approval(method: &str) -> bool {
    matches!(
        method,
        "personal_sign" | "eth_signTypedData_v4" | "eth_sendTransaction" | "solana_signMessage" | "solana_signTransaction" | "solana_signAndSendTransaction"
    )
}

fn params(value: &Value, n: usize) -> Result<&Vec<Value>, SignError> {
    value.as_array().filter(|a| a.len() >= n).ok_or_else(|| SignError::Params(format!("expected an array of at least {n} items")))
}

fn same_address(given: &Value, ours: Address) -> Result<(), SignError> {
    let given: Address = given.as_str().and_then(|s| s.parse().ok()).ok_or_else(|| SignError::Params("the address is not an EVM address".into()))?;
    if given == ours {
        Ok(())
    } else {
        Err(SignError::Params(format!("{given} is not this wallet's address ({ours})")))
    }
}

/// The bytes of a personal_sign message: hex when it is 0x-hex, else its UTF-8 text.
fn message_bytes(value: &Value) -> Result<Vec<u8>, SignError> {
    let text = value.as_str().ok_or_else(|| SignError::Params("the message must be a string".into()))?;
    match text.strip_prefix("0x").map(hex::decode) {
        Some(Ok(bytes)) => Ok(bytes),
        _ => Ok(text.as_bytes().to_vec()),
    }
}

/// personal_sign(message, address).
pub fn personal_sign(key: &PrivateKeySigner, p: &Value) -> Result<String, SignError> {
    let p = params(p, 2)?;
    same_address(&p[1], key.address())?;
    let signature = key.sign_message_sync(&message_bytes(&p[0])?).map_err(|e| SignError::Params(e.to_string()))?;
    Ok(format!("0x{}", hex::encode(signature.as_bytes())))
}

/// eth_signTypedData_v4(address, typedData as JSON text or object).
pub fn sign_typed_data(key: &PrivateKeySigner, p: &Value) -> Result<String, SignError> {
    let p = params(p, 2)?;
    same_address(&p[0], key.address())?;
    let typed: alloy_dyn_abi::TypedData = match &p[1] {
        Value::String(text) => serde_json::from_str(text),
        other => serde_json::from_value(other.clone()),
    }
    .map_err(|e| SignError::Params(format!("typed data: {e}")))?;
    let hash = typed.eip712_signing_hash().map_err(|e| SignError::Params(format!("typed data: {e}")))?;
    let signature = key.sign_hash_sync(&hash).map_err(|e| SignError::Params(e.to_string()))?;
    Ok(format!("0x{}", hex::encode(signature.as_bytes())))
}

fn quantity(v: &Value) -> Option<U256> {
    v.as_str().and_then(|s| U256::from_str_radix(s.strip_prefix("0x")?, 16).ok())
}

async fn read(rpc: &Arc<Rpc>, chain: &str, method: &str, params: Value) -> Result<Value, SignError> {
    match rpc.call(chain, method, Some(&params.to_string())).await.map_err(|e| SignError::Chain(e.to_string()))? {
        Reply::Result(raw) => serde_json::from_str(&raw).map_err(|e| SignError::Chain(e.to_string())),
        Reply::Error(raw) => {
            let error: Value = serde_json::from_str(&raw).unwrap_or(Value::Null);
            Err(SignError::Chain(error["message"].as_str().unwrap_or("the chain refused the call").to_owned()))
        }
    }
}

/// eth_sendTransaction({from, to, value, data, gas?, nonce?}): filled from the chain, signed
/// as EIP-1559, broadcast through the proxy; the transaction hash.
pub async fn send_transaction(key: &PrivateKeySigner, rpc: &Arc<Rpc>, chain: &str, p: &Value) -> Result<String, SignError> {
    let tx = params(p, 1)?[0].clone();
    if let Some(from) = tx.get("from") {
        same_address(from, key.address())?;
    }
    let chain_id: u64 = chain.strip_prefix("eip155:").and_then(|c| c.parse().ok()).ok_or_else(|| SignError::Params(format!("{chain} is not an EVM chain")))?;
    let from = key.address().to_checksum(None);
    let to = match tx.get("to").and_then(Value::as_str) {
        Some(to) => TxKind::Call(to.parse().map_err(|_| SignError::Params("'to' is not an address".into()))?),
        None => TxKind::Create,
    };
    let value = tx.get("value").map(|v| quantity(v).ok_or_else(|| SignError::Params("'value' must be a hex quantity".into()))).transpose()?.unwrap_or_default();
    let data: Bytes = match tx.get("data").or_else(|| tx.get("input")).and_then(Value::as_str) {
        Some(d) => d.parse().map_err(|_| SignError::Params("'data' must be hex".into()))?,
        None => Bytes::new(),
    };
    let nonce = match tx.get("nonce").and_then(quantity) {
        Some(n) => n.to::<u64>(),
        None => quantity(&read(rpc, chain, "eth_getTransactionCount", json!([from, "pending"])).await?).unwrap_or_default().to::<u64>(),
    };
    let tip = quantity(&read(rpc, chain, "eth_maxPriorityFeePerGas", json!([])).await?).unwrap_or(U256::from(1_000_000_000u64));
    let block = read(rpc, chain, "eth_getBlockByNumber", json!(["latest", false])).await?;
    let base = block.get("baseFeePerGas").and_then(quantity).unwrap_or_default();
    let max_fee = base * U256::from(2) + tip;
    let mut call = json!({"from": from, "value": format!("{value:#x}"), "data": data.to_string()});
    if let TxKind::Call(to) = to {
        call["to"] = to.to_checksum(None).into();
    }
    let gas = match tx.get("gas").or_else(|| tx.get("gasLimit")).and_then(quantity) {
        Some(g) => g,
        None => quantity(&read(rpc, chain, "eth_estimateGas", json!([call])).await?).ok_or_else(|| SignError::Chain("no gas estimate".into()))?,
    };
    let unsigned = TxEip1559 {
        chain_id,
        nonce,
        gas_limit: gas.to::<u64>(),
        max_fee_per_gas: max_fee.to::<u128>(),
        max_priority_fee_per_gas: tip.to::<u128>(),
        to,
        value,
        access_list: Default::default(),
        input: data,
    };
    let signature = key.sign_hash_sync(&unsigned.signature_hash()).map_err(|e| SignError::Params(e.to_string()))?;
    let raw = format!("0x{}", hex::encode(unsigned.into_signed(signature).encoded_2718()));
    let hash = read(rpc, chain, "eth_sendRawTransaction", json!([raw])).await?;
    hash.as_str().map(str::to_owned).ok_or_else(|| SignError::Chain("the chain gave no transaction hash".into()))
}

/// Solana signMessage({message, pubkey}): ed25519 over the message bytes (base58 in, base58 out).
/// Bytes that are a transaction message are refused: signed "as a message", they would be a
/// signed transaction the approval never showed as one (the probe moved 1.5 SOL that way).
pub fn solana_sign_message(key: &ed25519_dalek::SigningKey, p: &Value) -> Result<String, SignError> {
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
pub fn solana_sign_transaction(key: &ed25519_dalek::SigningKey, p: &Value) -> Result<String, SignError> {
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
        assert!(solana_sign_message(&key, &json!({"message": bs58::encode(&probe).into_string()})).is_err());
    }

    const ANVIL0: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    fn key() -> PrivateKeySigner {
        ANVIL0.parse().unwrap()
    }

    #[test]
    fn personal_sign_recovers_to_the_wallet() {
        let sig = personal_sign(&key(), &json!(["0x68656c6c6f", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"])).unwrap();
        // The same signature anvil gives for account 0 (sigil_core::evm tests).
        assert_eq!(sig, "0xf16ea9a3478698f695fd1401bfe27e9e4a7e8e3da94aa72b021125e31fa899cc573c48ea3fe1d4ab61a9db10c19032026e3ed2dbccba5a178235ac27f94504311c");
        assert!(matches!(personal_sign(&key(), &json!(["0x68", "0x0000000000000000000000000000000000000001"])), Err(SignError::Params(_))));
    }

    #[test]
    fn typed_data_is_eip712() {
        let typed = json!({
            "types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}], "Mail": [{"name": "contents", "type": "string"}]},
            "primaryType": "Mail",
            "domain": {"name": "Sigil", "chainId": 31337},
            "message": {"contents": "hello"}
        });
        let sig = sign_typed_data(&key(), &json!(["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", typed.to_string()])).unwrap();
        let data: alloy_dyn_abi::TypedData = serde_json::from_value(typed).unwrap();
        let signature: alloy_primitives::Signature = sig.parse().unwrap();
        let recovered = signature.recover_address_from_prehash(&data.eip712_signing_hash().unwrap()).unwrap();
        assert_eq!(recovered, key().address());
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
        let signed = STANDARD.decode(solana_sign_transaction(&key, &json!({"transaction": STANDARD.encode(&tx)})).unwrap()).unwrap();
        let sig = ed25519_dalek::Signature::from_bytes(signed[1..65].try_into().unwrap());
        assert!(key.verifying_key().verify_strict(&message, &sig).is_ok());
        assert_eq!(&signed[65..], &message[..]);
        let stranger = ed25519_dalek::SigningKey::from_bytes(&[6u8; 32]);
        assert!(solana_sign_transaction(&stranger, &json!({"transaction": STANDARD.encode(&tx)})).is_err());
        // The message of a transaction is refused as a "message" (issue 20, N9).
        assert!(is_transaction_message(&message));
        let refused = solana_sign_message(&key, &json!({"message": bs58::encode(&message).into_string()}));
        assert!(matches!(refused, Err(SignError::Params(m)) if m.contains("is a Solana transaction")));
        let m = solana_sign_message(&key, &json!({"message": bs58::encode(b"hi").into_string()})).unwrap();
        let sig = ed25519_dalek::Signature::from_bytes(&bs58::decode(m).into_vec().unwrap().try_into().unwrap());
        assert!(key.verifying_key().verify_strict(b"hi", &sig).is_ok());
    }
}
