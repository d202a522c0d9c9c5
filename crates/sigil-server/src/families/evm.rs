//! EVM chains (eip155): address rules, balances (the native coin and configured ERC-20s in one
//! batched call), contract-account sign-in (EIP-1271 on chain), and what the embedded wallet
//! signs with the alloy crates: personal_sign, eth_signTypedData_v4, eth_sendTransaction
//! (EIP-1559; nonce, gas and fees from the chain, then broadcast through the server's proxy).

use std::sync::Arc;

use alloy_consensus::{SignableTransaction, TxEip1559};
use alloy_eips::eip2718::Encodable2718;
use alloy_primitives::{hex, Address, Bytes, TxKind, U256};
use alloy_signer::SignerSync;
use alloy_signer_local::PrivateKeySigner;
use serde_json::{json, Value};
use sigil_core::amount;
use sigil_core::caip::is_evm_address;
use sigil_core::siwx::{self, SignInMessage};

use super::evm_calls::AccountType;
use super::{Handling, Holding, RpcError, SignError, SignInRefusal};
use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult};
use crate::rpc::calls;
use crate::rpc::jsonrpc::{Call, Reply};
use crate::rpc::Rpc;

/// 0x and 40 hex digits, stored lower-case.
pub fn check_address(address: &str) -> Result<String, &'static str> {
    if is_evm_address(address) {
        Ok(calls::normalize(address))
    } else {
        Err("an EVM address: 40 hex characters, optional 0x")
    }
}

/// The native balance and every configured ERC-20 held, in one batched call.
pub async fn holdings(rpc: &Arc<Rpc>, chain: &ChainConfig, owner: &str) -> ApiResult<Vec<Holding>> {
    let mut calls =
        vec![Call { id: "null".into(), method: "eth_getBalance".into(), params: Some(format!(r#"["{owner}","latest"]"#)), notification: false, exact: false }];
    // Token addresses were checked when the chains were loaded; the owner by the route.
    calls.extend(chain.tokens.iter().filter_map(|t| calls::balance_of(&t.address, owner)));
    let results = calls::batch(rpc, &chain.id, &calls).await.map_err(crate::rpc::upstream_error)?;
    let native = results[0].clone().ok_or_else(|| ApiError::unavailable("eth_getBalance failed"))?;
    let decimal = |hex: &str| amount::hex_to_decimal(hex).map_err(|e| ApiError::unavailable(format!("upstream answered {e}")));
    let mut held = vec![Holding::native(chain, decimal(&native)?)];
    for (t, hex) in chain.tokens.iter().zip(results.into_iter().skip(1)) {
        let Some(hex) = hex.filter(|h| !amount::is_zero_hex(h)) else { continue };
        held.push(Holding {
            token: Some(t.address.clone()),
            name: t.name.clone(),
            symbol: t.symbol.clone(),
            decimals: t.decimals,
            icon: t.icon.clone(),
            integer: decimal(&hex)?,
        });
    }
    Ok(held)
}

/// A signature that is not the address's key may be a contract account's: asked on chain
/// (EIP-1271 `isValidSignature`) through the proxy.
pub async fn verify_contract_signature(rpc: &Arc<Rpc>, message: &SignInMessage, text: &str, signature: &str) -> Result<(), SignInRefusal> {
    let sig = siwx::decode_hex(signature).map_err(|_| SignInRefusal::Invalid)?;
    let data = siwx::eip1271_call_data(siwx::eip191_hash(text), &sig);
    let params = json!([{"to": message.address, "data": data}, "latest"]).to_string();
    let reply = rpc.call(&message.caip2_chain_id(), "eth_call", Some(&params)).await.map_err(|_| SignInRefusal::ChainUnavailable)?;
    match reply {
        Reply::Result(raw) if serde_json::from_str::<String>(&raw).is_ok_and(|r| siwx::is_eip1271_magic(&r)) => Ok(()),
        _ => Err(SignInRefusal::Invalid),
    }
}

/// The checksummed address of a secp256k1 secret key.
pub fn address_of(secret: &[u8; 32]) -> String {
    PrivateKeySigner::from_slice(secret).map(|s| s.address().to_checksum(None)).unwrap_or_default()
}

/// How the embedded wallet answers an EIP-1193 method.
pub fn wallet_request(method: &str, chain: &str, account: &str) -> Result<Handling, SignError> {
    Ok(match method {
        "eth_accounts" | "eth_requestAccounts" => Handling::Local(Value::from(vec![account.to_owned()])),
        "eth_chainId" => {
            let id: u64 =
                chain.strip_prefix("eip155:").and_then(|c| c.parse().ok()).ok_or_else(|| SignError::Params(format!("{chain} is not an EVM chain")))?;
            Handling::Local(format!("{id:#x}").into())
        }
        "personal_sign" | "eth_signTypedData_v4" | "eth_sendTransaction" | "wallet_sendCalls" => Handling::Sign,
        "wallet_getCallsStatus" | "wallet_getCapabilities" => Handling::Ask,
        // A raw transaction is the wallet's to make, never the page's.
        "eth_sendRawTransaction" => return Err(SignError::NotAllowed),
        _ => Handling::Read,
    })
}

/// What the embedded wallet answers from the chain without its key (EIP-5792 reads).
pub async fn ask(method: &str, params: &Value, rpc: &Arc<Rpc>, account: &str, preference: AccountType) -> Result<Value, SignError> {
    let account: Address = account.parse().map_err(|_| SignError::NotAllowed)?;
    match method {
        "wallet_getCallsStatus" => super::evm_calls::calls_status(rpc, params).await,
        "wallet_getCapabilities" => super::evm_calls::capabilities(rpc, account, params, preference).await,
        _ => Err(SignError::NotAllowed),
    }
}

/// Signs an approved request with the user's secp256k1 key.
pub async fn sign(secret: &[u8; 32], method: &str, params: &Value, rpc: &Arc<Rpc>, chain: &str, preference: AccountType) -> Result<Value, SignError> {
    let key = PrivateKeySigner::from_slice(secret).map_err(|e| SignError::Params(e.to_string()))?;
    Ok(match method {
        "wallet_sendCalls" => super::evm_calls::send_calls(&key, rpc, chain, params, preference).await?,
        "personal_sign" => personal_sign(&key, params)?.into(),
        "eth_signTypedData_v4" => sign_typed_data(&key, params)?.into(),
        "eth_sendTransaction" => send_transaction(&key, rpc, chain, params).await?.into(),
        _ => return Err(SignError::NotAllowed),
    })
}

pub(super) fn params(value: &Value, n: usize) -> Result<&Vec<Value>, SignError> {
    value.as_array().filter(|a| a.len() >= n).ok_or_else(|| SignError::Params(format!("expected an array of at least {n} items")))
}

pub(super) fn same_address(given: &Value, ours: Address) -> Result<(), SignError> {
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

pub(super) fn quantity(v: &Value) -> Option<U256> {
    v.as_str().and_then(sigil_core::evm::quantity)
}

pub(super) async fn read(rpc: &Arc<Rpc>, chain: &str, method: &str, params: Value) -> Result<Value, SignError> {
    match rpc.call(chain, method, Some(&params.to_string())).await.map_err(|e| SignError::Unreachable(e.to_string()))? {
        Reply::Result(raw) => serde_json::from_str(&raw).map_err(|e| SignError::Unreachable(e.to_string())),
        Reply::Error(raw) => Err(SignError::Refused(RpcError::from_raw(&raw))),
    }
}

/// EIP-1559 fees from the chain: the node's tip, and twice the latest base fee plus the tip.
pub(super) async fn fees(rpc: &Arc<Rpc>, chain: &str) -> Result<(U256, U256), SignError> {
    let tip = quantity(&read(rpc, chain, "eth_maxPriorityFeePerGas", json!([])).await?).unwrap_or(U256::from(1_000_000_000u64));
    let block = read(rpc, chain, "eth_getBlockByNumber", json!(["latest", false])).await?;
    let base = block.get("baseFeePerGas").and_then(quantity).unwrap_or_default();
    Ok((tip, base * U256::from(2) + tip))
}

/// The numeric id of an eip155 chain.
pub(super) fn chain_number(chain: &str) -> Result<u64, SignError> {
    chain.strip_prefix("eip155:").and_then(|c| c.parse().ok()).ok_or_else(|| SignError::Params(format!("{chain} is not an EVM chain")))
}

/// eth_sendTransaction({from, to, value, data, gas?, nonce?}): filled from the chain, signed
/// as EIP-1559, broadcast through the proxy; the transaction hash.
pub async fn send_transaction(key: &PrivateKeySigner, rpc: &Arc<Rpc>, chain: &str, p: &Value) -> Result<String, SignError> {
    let tx = params(p, 1)?[0].clone();
    if let Some(from) = tx.get("from") {
        same_address(from, key.address())?;
    }
    let chain_id = chain_number(chain)?;
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
    let (tip, max_fee) = fees(rpc, chain).await?;
    let mut call = json!({"from": from, "value": format!("{value:#x}"), "data": data.to_string()});
    if let TxKind::Call(to) = to {
        call["to"] = to.to_checksum(None).into();
    }
    let gas = match tx.get("gas").or_else(|| tx.get("gasLimit")).and_then(quantity) {
        Some(g) => g,
        None => quantity(&read(rpc, chain, "eth_estimateGas", json!([call])).await?).ok_or_else(|| SignError::Unreachable("no gas estimate".into()))?,
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
    broadcast(rpc, chain, sign_raw(key, unsigned)?).await
}

/// `tx` signed by `key`, EIP-2718 encoded.
pub(super) fn sign_raw<T>(key: &PrivateKeySigner, tx: T) -> Result<Vec<u8>, SignError>
where
    T: SignableTransaction<alloy_primitives::Signature>,
    alloy_consensus::Signed<T>: Encodable2718,
{
    let signature = key.sign_hash_sync(&tx.signature_hash()).map_err(|e| SignError::Params(e.to_string()))?;
    Ok(tx.into_signed(signature).encoded_2718())
}

/// Sends a signed transaction through the proxy; its hash.
pub(super) async fn broadcast(rpc: &Arc<Rpc>, chain: &str, raw: Vec<u8>) -> Result<String, SignError> {
    let hash = read(rpc, chain, "eth_sendRawTransaction", json!([format!("0x{}", hex::encode(raw))])).await?;
    hash.as_str().map(str::to_owned).ok_or_else(|| SignError::Unreachable("the chain gave no transaction hash".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
