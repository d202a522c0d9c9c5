//! Sponsored batches (issue 26): where a chain's `smart_account` names a bundler and a paymaster
//! service, the embedded wallet's batch is an ERC-4337 v0.8 user operation from the account
//! itself (EIP-7702: the first one carries the delegation as `eip7702Auth`, its initCode the
//! 0x7702 marker), its gas paid by the paymaster (ERC-7677: stub data to estimate with, then the
//! final data), signed over the EntryPoint's EIP-712 hash, and sent to the bundler. Off by default.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use alloy_primitives::{hex, keccak256, Address, Bytes, B256, U256};
use alloy_signer::SignerSync;
use alloy_signer_local::PrivateKeySigner;
use alloy_sol_types::{sol, SolCall, SolValue};
use serde_json::{json, Value};

use super::evm::{fees, quantity, read};
use super::evm_calls::{authorization_json, sign_authorization, Delegation};
use super::{RpcError, SignError};
use crate::chains::SmartAccount;
use crate::rpc::Rpc;

/// EntryPoint v0.8's canonical address: the one Simple7702Account accepts calls from.
pub const ENTRY_POINT_V08: &str = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
/// The initCode marker of an EIP-7702 account (v0.8): 0x7702, padded to an address.
const EIP7702_MARKER: &str = "0x7702000000000000000000000000000000000000";
/// A signature of the right length for estimates (ECDSA recovery fails, validation goes on).
const DUMMY_SIGNATURE: &str =
    "0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c";
/// How long the bundler and the paymaster service are waited for, per call.
const SERVICE_WAIT: Duration = Duration::from_secs(10);

sol! {
    function getNonce(address sender, uint192 key) view returns (uint256 nonce);
}

/// The bundler and paymaster of a chain whose smart accounts are sponsored.
pub struct Sponsor<'a> {
    pub bundler: &'a str,
    pub paymaster: &'a str,
    pub entry_point: Address,
}

impl<'a> Sponsor<'a> {
    /// The chain's sponsor, when its `smart_account` names both services.
    pub fn of(account: &'a SmartAccount) -> Option<Sponsor<'a>> {
        let entry_point = account.entry_point.as_deref().unwrap_or(ENTRY_POINT_V08).parse().ok()?;
        Some(Sponsor { bundler: account.bundler.as_deref()?, paymaster: account.paymaster.as_deref()?, entry_point })
    }
}

fn http() -> &'static reqwest::Client {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(|| reqwest::Client::builder().timeout(SERVICE_WAIT).build().unwrap_or_default())
}

/// One JSON-RPC call to a bundler or paymaster service: its result, or its error as the page's.
pub async fn service_call(url: &str, method: &str, params: Value) -> Result<Value, SignError> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let res = http().post(url).json(&body).send().await.map_err(|e| SignError::Unreachable(format!("{method}: {e}")))?;
    let answer: Value = res.json().await.map_err(|e| SignError::Unreachable(format!("{method}: the service answered no JSON ({e})")))?;
    match answer.get("error") {
        Some(error) => Err(SignError::Refused(RpcError {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(-32603),
            message: error.get("message").and_then(Value::as_str).unwrap_or("the service refused").chars().take(500).collect(),
            data: error.get("data").cloned(),
        })),
        None => Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
    }
}

fn word(op: &Value, field: &str) -> U256 {
    op.get(field).and_then(quantity).unwrap_or_default()
}

fn bytes(op: &Value, field: &str) -> Vec<u8> {
    op.get(field).and_then(Value::as_str).and_then(|h| hex::decode(h.trim_start_matches("0x")).ok()).unwrap_or_default()
}

/// Two 128-bit values in one word (high, low): accountGasLimits and gasFees.
fn packed(high: U256, low: U256) -> B256 {
    B256::from((high << 128) | (low & ((U256::from(1) << 128) - U256::from(1))))
}

/// The EntryPoint v0.8's hash of a user operation (its `getUserOpHash`): EIP-712 over
/// PackedUserOperation, with an EIP-7702 account's initCode counted as its delegate (`implementation`).
pub fn user_op_hash(op: &Value, chain_id: u64, entry_point: Address, implementation: Address) -> B256 {
    let factory = op.get("factory").and_then(Value::as_str).unwrap_or_default();
    let factory_data = bytes(op, "factoryData");
    let init_code_hash = if factory.eq_ignore_ascii_case(EIP7702_MARKER) {
        keccak256([implementation.as_slice(), &factory_data].concat())
    } else if let Ok(factory) = factory.parse::<Address>() {
        keccak256([factory.as_slice(), &factory_data].concat())
    } else {
        keccak256([])
    };
    let paymaster_and_data = match op.get("paymaster").and_then(Value::as_str).and_then(|p| p.parse::<Address>().ok()) {
        Some(paymaster) => [
            paymaster.as_slice(),
            &word(op, "paymasterVerificationGasLimit").to_be_bytes::<32>()[16..],
            &word(op, "paymasterPostOpGasLimit").to_be_bytes::<32>()[16..],
            &bytes(op, "paymasterData"),
        ]
        .concat(),
        None => Vec::new(),
    };
    let sender: Address = op.get("sender").and_then(Value::as_str).and_then(|s| s.parse().ok()).unwrap_or_default();
    let type_hash = keccak256(
        "PackedUserOperation(address sender,uint256 nonce,bytes initCode,bytes callData,bytes32 accountGasLimits,uint256 preVerificationGas,bytes32 gasFees,bytes paymasterAndData)",
    );
    let struct_hash = keccak256(
        (
            type_hash,
            sender,
            word(op, "nonce"),
            init_code_hash,
            keccak256(bytes(op, "callData")),
            packed(word(op, "verificationGasLimit"), word(op, "callGasLimit")),
            word(op, "preVerificationGas"),
            packed(word(op, "maxPriorityFeePerGas"), word(op, "maxFeePerGas")),
            keccak256(paymaster_and_data),
        )
            .abi_encode(),
    );
    let domain = keccak256(
        (
            keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
            keccak256("ERC4337"),
            keccak256("1"),
            U256::from(chain_id),
            entry_point,
        )
            .abi_encode(),
    );
    keccak256([&[0x19, 0x01][..], domain.as_slice(), struct_hash.as_slice()].concat())
}

/// Copies the fields a service answered that a user operation carries.
fn take(op: &mut Value, answer: &Value, fields: &[&str]) {
    for field in fields {
        if let Some(v) = answer.get(*field).filter(|v| v.is_string()) {
            op[*field] = v.clone();
        }
    }
}

const PAYMASTER_FIELDS: [&str; 4] = ["paymaster", "paymasterData", "paymasterVerificationGasLimit", "paymasterPostOpGasLimit"];

/// Sends `call_data` (the account's executeBatch) as a sponsored user operation; the hash the
/// bundler gives it.
pub async fn send(
    key: &PrivateKeySigner,
    rpc: &Arc<Rpc>,
    (chain, chain_id): (&str, u64),
    (implementation, delegated): (Address, Delegation),
    call_data: Bytes,
    sponsor: &Sponsor<'_>,
) -> Result<String, SignError> {
    let sender = key.address();
    let entry_point = sponsor.entry_point.to_checksum(None);
    let nonce_call = format!("0x{}", hex::encode(getNonceCall { sender, key: Default::default() }.abi_encode()));
    let nonce = read(rpc, chain, "eth_call", json!([{"to": entry_point, "data": nonce_call}, "latest"])).await?;
    let nonce = quantity(&nonce).ok_or_else(|| SignError::Unreachable("the EntryPoint gave no nonce".into()))?;
    let (tip, max_fee) = fees(rpc, chain).await?;
    let mut op = json!({
        "sender": sender.to_checksum(None),
        "nonce": format!("{nonce:#x}"),
        "callData": call_data.to_string(),
        "callGasLimit": "0x0",
        "verificationGasLimit": "0x0",
        "preVerificationGas": "0x0",
        "maxFeePerGas": format!("{max_fee:#x}"),
        "maxPriorityFeePerGas": format!("{tip:#x}"),
        "signature": DUMMY_SIGNATURE,
    });
    if delegated == Delegation::None {
        // The bundler sends the transaction: the authorization carries the account's own nonce.
        let account_nonce = quantity(&read(rpc, chain, "eth_getTransactionCount", json!([sender.to_checksum(None), "pending"])).await?).unwrap_or_default();
        let authorization = sign_authorization(key, chain_id, implementation, account_nonce.to::<u64>())?;
        op["factory"] = EIP7702_MARKER.into();
        op["factoryData"] = "0x".into();
        op["eip7702Auth"] = authorization_json(&authorization);
    }
    let chain_hex = format!("{chain_id:#x}");
    let stub = service_call(sponsor.paymaster, "pm_getPaymasterStubData", json!([op, entry_point, chain_hex, {}])).await?;
    take(&mut op, &stub, &PAYMASTER_FIELDS);
    let gas = service_call(sponsor.bundler, "eth_estimateUserOperationGas", json!([op, entry_point])).await?;
    take(&mut op, &gas, &["preVerificationGas", "verificationGasLimit", "callGasLimit", "paymasterVerificationGasLimit", "paymasterPostOpGasLimit"]);
    // The stub's data is final when the service says so; else the real data, for these limits.
    if stub.get("isFinal") != Some(&Value::Bool(true)) {
        let data = service_call(sponsor.paymaster, "pm_getPaymasterData", json!([op, entry_point, chain_hex, {}])).await?;
        take(&mut op, &data, &PAYMASTER_FIELDS);
    }
    if op.get("paymaster").is_none_or(|p| !p.is_string()) {
        return Err(SignError::Unreachable("the paymaster service named no paymaster".into()));
    }
    let hash = user_op_hash(&op, chain_id, sponsor.entry_point, implementation);
    let signature = key.sign_hash_sync(&hash).map_err(|e| SignError::Params(e.to_string()))?;
    op["signature"] = format!("0x{}", hex::encode(signature.as_bytes())).into();
    let sent = service_call(sponsor.bundler, "eth_sendUserOperation", json!([op, entry_point])).await?;
    sent.as_str()
        .filter(|h| h.len() == 66 && h.starts_with("0x") && h[2..].bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_lowercase)
        .ok_or_else(|| SignError::Unreachable("the bundler gave no user operation hash".into()))
}

/// A sponsored batch's status from the bundler's `eth_getUserOperationReceipt`: None while it
/// has none; else whether it succeeded and its transaction's receipt.
pub async fn receipt(sponsor: &Sponsor<'_>, hash: &str) -> Result<Option<(bool, Value)>, SignError> {
    let answer = service_call(sponsor.bundler, "eth_getUserOperationReceipt", json!([hash])).await?;
    if answer.is_null() {
        return Ok(None);
    }
    let success = answer.get("success").and_then(Value::as_bool).unwrap_or(false);
    Ok(Some((success, answer.get("receipt").cloned().unwrap_or(Value::Null))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gas_pairs_pack_high_and_low() {
        let w = packed(U256::from(0x10000), U256::from(0x30000));
        assert_eq!(hex::encode(w), format!("{:032x}{:032x}", 0x10000, 0x30000));
    }

    #[test]
    fn a_7702_account_is_hashed_as_its_delegate() {
        let implementation: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3".parse().unwrap();
        let entry_point: Address = ENTRY_POINT_V08.parse().unwrap();
        let op =
            json!({"sender": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "nonce": "0x0", "callData": "0x", "factory": EIP7702_MARKER, "factoryData": "0x"});
        let other: Address = "0x000000000000000000000000000000000000dEaD".parse().unwrap();
        // The delegate is part of what is signed; another chain or EntryPoint is another hash.
        let hash = user_op_hash(&op, 31337, entry_point, implementation);
        assert_ne!(hash, user_op_hash(&op, 31337, entry_point, other));
        assert_ne!(hash, user_op_hash(&op, 1, entry_point, implementation));
        assert_ne!(hash, user_op_hash(&op, 31337, other, implementation));
    }
}
