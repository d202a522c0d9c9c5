//! EIP-5792 calls from the embedded wallet (issue 26): `wallet_sendCalls`,
//! `wallet_getCallsStatus` and `wallet_getCapabilities`, version 2.0.0.
//!
//! On a chain with a smart-account implementation configured, and while the user prefers the
//! smart account, a batch is one transaction from the account to itself calling
//! `executeBatch` of Simple7702Account (account-abstraction v0.8): the account's own address
//! becomes the smart account (EIP-7702), so nothing needs a bundler and the address never
//! changes. The first batch delegates: a type-4 transaction carrying the authorization, signed
//! here for the chain (never chain id 0) and the account's next nonce after the transaction's own.
//! Elsewhere, or for an EOA preference, the calls go one by one as plain transactions, unless the
//! app required atomicity (error 5760).
//!
//! A batch's id carries what its status needs: the chain, whether it was atomic and the
//! transaction hashes. Nothing is stored, so nothing acknowledged can be lost.

use std::sync::Arc;

use alloy_consensus::{TxEip1559, TxEip7702};
use alloy_eips::eip7702::{Authorization, SignedAuthorization};
use alloy_primitives::{hex, Address, Bytes, TxKind, U256};
use alloy_signer::SignerSync;
use alloy_signer_local::PrivateKeySigner;
use alloy_sol_types::{sol, SolCall};
use serde_json::{json, Value};

use super::evm::{broadcast, chain_number, fees, params, quantity, read, same_address, send_transaction, sign_raw};
use super::evm_sponsored::Sponsor;
use super::{RpcError, SignError};
use crate::rpc::Rpc;

sol! {
    /// Simple7702Account's (BaseAccount's) call: `executeBatch((address,uint256,bytes)[])`.
    #[derive(Debug, PartialEq)]
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }
    function executeBatch(Call[] calls);
}

/// The EIP-5792 version spoken.
pub const VERSION: &str = "2.0.0";
/// The most calls one batch may carry (5740 beyond).
pub const MAX_CALLS: usize = 16;
/// What the 7702 delegation designator starts with (EIP-7702).
const DESIGNATOR: &str = "0xef0100";

/// How the user wants calls sent (the frame's preferred account type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum AccountType {
    Eoa,
    /// The spec's default for eip155.
    #[default]
    SmartAccount,
}

/// An EIP-5792 error (codes 5700-5760) or the wallet's refusal, as the page's JSON-RPC error.
fn refused(code: i64, message: impl Into<String>) -> SignError {
    SignError::Refused(RpcError { code, message: message.into(), data: None })
}

/// What an account's code says of its delegation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delegation {
    /// No code: a plain EOA, ready to delegate.
    None,
    /// Delegated to the configured implementation: a smart account.
    Ours,
    /// Other code (delegated elsewhere): left alone, never re-delegated behind the user's back.
    Other,
}

/// The delegation designator of `implementation`: `0xef0100 || address`.
pub fn designator(implementation: Address) -> String {
    format!("{DESIGNATOR}{}", hex::encode(implementation))
}

/// Reads the delegation from an `eth_getCode` answer.
pub fn delegation_of(code: &str, implementation: Address) -> Delegation {
    match code.to_ascii_lowercase().as_str() {
        "0x" | "" => Delegation::None,
        c if c == designator(implementation) => Delegation::Ours,
        _ => Delegation::Other,
    }
}

/// The chain's smart-account implementation, when one is configured.
fn implementation(rpc: &Rpc, chain: &str) -> Option<Address> {
    rpc.chains().get(chain)?.smart_account.as_ref()?.implementation.parse().ok()
}

async fn delegation(rpc: &Arc<Rpc>, chain: &str, account: Address, implementation: Address) -> Result<Delegation, SignError> {
    let code = read(rpc, chain, "eth_getCode", json!([account.to_checksum(None), "latest"])).await?;
    Ok(delegation_of(code.as_str().unwrap_or_default(), implementation))
}

/// An authorization for `implementation` on `chain_id` at `nonce`, signed by `key`. Chain id 0
/// (valid on every chain) is never signed.
pub fn sign_authorization(key: &PrivateKeySigner, chain_id: u64, implementation: Address, nonce: u64) -> Result<SignedAuthorization, SignError> {
    if chain_id == 0 {
        return Err(SignError::Params("an authorization is only signed for one chain".into()));
    }
    let authorization = Authorization { chain_id: U256::from(chain_id), address: implementation, nonce };
    let signature = key.sign_hash_sync(&authorization.signature_hash()).map_err(|e| SignError::Params(e.to_string()))?;
    Ok(authorization.into_signed(signature))
}

/// An authorization as JSON-RPC carries it (`authorizationList` of a call to estimate).
pub(super) fn authorization_json(a: &SignedAuthorization) -> Value {
    json!({
        "chainId": format!("{:#x}", a.chain_id()),
        "address": a.address().to_checksum(None),
        "nonce": format!("{:#x}", a.nonce()),
        "yParity": format!("{:#x}", a.y_parity()),
        "r": format!("{:#x}", a.r()),
        "s": format!("{:#x}", a.s()),
    })
}

/// A checked `wallet_sendCalls` request.
#[derive(Debug, PartialEq)]
pub struct Batch {
    pub atomic_required: bool,
    pub calls: Vec<Call>,
}

/// Reads `wallet_sendCalls` params for `ours` on `chain_id`: the spec's call shape (to 0x.., data
/// and value optional), the same chain, at most MAX_CALLS calls, and no capability the wallet
/// lacks unless the app marked it optional.
pub fn parse_batch(p: &Value, chain_id: u64, ours: Address) -> Result<Batch, SignError> {
    let request = params(p, 1)?[0].as_object().ok_or_else(|| SignError::Params("wallet_sendCalls takes one object".into()))?;
    if let Some(from) = request.get("from").filter(|f| !f.is_null()) {
        same_address(from, ours)?;
    }
    if let Some(asked) = request.get("chainId").filter(|c| !c.is_null()) {
        if quantity(asked).map(|c| c != U256::from(chain_id)).unwrap_or(true) {
            return Err(refused(5710, format!("Unsupported chain id: the batch is for {asked}, the wallet is on {chain_id:#x}")));
        }
    }
    if let Some(version) = request.get("version").and_then(Value::as_str) {
        if !matches!(version, "2.0.0" | "1.0" | "1.0.0") {
            return Err(SignError::Params(format!("unknown wallet_sendCalls version '{version}' (this wallet speaks {VERSION})")));
        }
    }
    if let Some(capabilities) = request.get("capabilities").and_then(Value::as_object) {
        for (name, value) in capabilities {
            if value.get("optional") != Some(&Value::Bool(true)) {
                return Err(refused(5700, format!("Unsupported non-optional capability: {name}")));
            }
        }
    }
    let calls = request.get("calls").and_then(Value::as_array).ok_or_else(|| SignError::Params("'calls' must be an array".into()))?;
    if calls.is_empty() {
        return Err(SignError::Params("'calls' is empty".into()));
    }
    if calls.len() > MAX_CALLS {
        return Err(refused(5740, format!("Batch too large: at most {MAX_CALLS} calls")));
    }
    let calls = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let target = call.get("to").and_then(Value::as_str).and_then(|t| t.parse::<Address>().ok());
            let target = target.ok_or_else(|| SignError::Params(format!("calls[{i}].to must be an address")))?;
            let value = match call.get("value").filter(|v| !v.is_null()) {
                Some(v) => quantity(v).ok_or_else(|| SignError::Params(format!("calls[{i}].value must be a hex quantity")))?,
                None => U256::ZERO,
            };
            let data: Bytes = match call.get("data").filter(|d| !d.is_null()) {
                Some(d) => d.as_str().and_then(|d| d.parse().ok()).ok_or_else(|| SignError::Params(format!("calls[{i}].data must be 0x hex")))?,
                None => Bytes::new(),
            };
            Ok(Call { target, value, data })
        })
        .collect::<Result<Vec<_>, SignError>>()?;
    Ok(Batch { atomic_required: request.get("atomicRequired").and_then(Value::as_bool).unwrap_or(false), calls })
}

/// How a batch was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Transaction by transaction.
    OneByOne,
    /// One transaction from the account itself.
    Atomic,
    /// One sponsored user operation, through the chain's bundler.
    UserOperation,
}

impl Sent {
    fn flag(self) -> u8 {
        match self {
            Sent::OneByOne => 0,
            Sent::Atomic => 1,
            Sent::UserOperation => 2,
        }
    }
}

/// A batch's id: `0x`, the chain id (8 bytes), how it was sent (00 one by one, 01 atomic, 02 a
/// user operation), then each transaction hash (the user operation's hash).
pub fn batch_id(chain_id: u64, sent: Sent, hashes: &[String]) -> String {
    let mut id = format!("0x{chain_id:016x}{:02x}", sent.flag());
    for h in hashes {
        id.push_str(h.trim_start_matches("0x"));
    }
    id
}

/// The chain id, how the batch was sent and the hashes an id of batch_id carries.
pub fn parse_batch_id(id: &str) -> Option<(u64, Sent, Vec<String>)> {
    let body = id.strip_prefix("0x")?;
    if !body.is_ascii() || body.len() < 18 + 64 || (body.len() - 18) % 64 != 0 || (body.len() - 18) / 64 > MAX_CALLS {
        return None;
    }
    if !body.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let chain = u64::from_str_radix(&body[..16], 16).ok()?;
    let hashes: Vec<String> = body.as_bytes()[18..].chunks(64).map(|h| format!("0x{}", String::from_utf8_lossy(h).to_ascii_lowercase())).collect();
    let sent = match &body[16..18] {
        "00" => Sent::OneByOne,
        "01" => Sent::Atomic,
        "02" if hashes.len() == 1 => Sent::UserOperation,
        _ => return None,
    };
    Some((chain, sent, hashes))
}

/// `wallet_sendCalls`: the batch's id (`{id}`), sent atomically from the smart account where it
/// can be, else call by call.
pub async fn send_calls(key: &PrivateKeySigner, rpc: &Arc<Rpc>, chain: &str, p: &Value, preference: AccountType) -> Result<Value, SignError> {
    let chain_id = chain_number(chain)?;
    let from = key.address();
    let batch = parse_batch(p, chain_id, from)?;
    let smart = match implementation(rpc, chain).filter(|_| preference == AccountType::SmartAccount) {
        Some(implementation) => match delegation(rpc, chain, from, implementation).await? {
            Delegation::Other => None,
            d => Some((implementation, d)),
        },
        None => None,
    };
    let Some((implementation, delegated)) = smart else {
        if batch.atomic_required {
            return Err(refused(5760, "Atomicity not supported: this account sends calls one by one on this network"));
        }
        let mut hashes = Vec::with_capacity(batch.calls.len());
        for call in &batch.calls {
            let tx = json!([{"to": call.target.to_checksum(None), "value": format!("{:#x}", call.value), "data": call.data.to_string()}]);
            hashes.push(send_transaction(key, rpc, chain, &tx).await?);
        }
        return Ok(json!({"id": batch_id(chain_id, Sent::OneByOne, &hashes)}));
    };
    let input: Bytes = executeBatchCall { calls: batch.calls }.abi_encode().into();
    if let Some(sponsor) = rpc.chains().get(chain).and_then(|c| c.smart_account.as_ref()).and_then(Sponsor::of) {
        let hash = super::evm_sponsored::send(key, rpc, (chain, chain_id), (implementation, delegated), input, &sponsor).await?;
        return Ok(json!({"id": batch_id(chain_id, Sent::UserOperation, &[hash])}));
    }
    let nonce = quantity(&read(rpc, chain, "eth_getTransactionCount", json!([from.to_checksum(None), "pending"])).await?).unwrap_or_default().to::<u64>();
    // The sender is the authority: its nonce goes up for the transaction before the
    // authorization is checked, so the authorization carries the one after.
    let authorization = match delegated {
        Delegation::None => Some(sign_authorization(key, chain_id, implementation, nonce + 1)?),
        _ => None,
    };
    let (tip, max_fee) = fees(rpc, chain).await?;
    let mut call = json!({"from": from.to_checksum(None), "to": from.to_checksum(None), "data": input.to_string(), "value": "0x0"});
    if let Some(a) = &authorization {
        call["authorizationList"] = json!([authorization_json(a)]);
    }
    let estimate = quantity(&read(rpc, chain, "eth_estimateGas", json!([call])).await?).ok_or_else(|| SignError::Unreachable("no gas estimate".into()))?;
    // A fifth more than the estimate: the calls run in a later block than the one estimated.
    let gas_limit = (estimate * U256::from(6) / U256::from(5)).to::<u64>();
    let (max_fee_per_gas, max_priority_fee_per_gas) = (max_fee.to::<u128>(), tip.to::<u128>());
    let raw = match authorization {
        Some(authorization) => {
            let tx = TxEip7702 {
                chain_id,
                nonce,
                gas_limit,
                max_fee_per_gas,
                max_priority_fee_per_gas,
                to: from,
                value: U256::ZERO,
                access_list: Default::default(),
                authorization_list: vec![authorization],
                input,
            };
            sign_raw(key, tx)?
        }
        None => {
            let tx = TxEip1559 {
                chain_id,
                nonce,
                gas_limit,
                max_fee_per_gas,
                max_priority_fee_per_gas,
                to: TxKind::Call(from),
                value: U256::ZERO,
                access_list: Default::default(),
                input,
            };
            sign_raw(key, tx)?
        }
    };
    let hash = broadcast(rpc, chain, raw).await?;
    Ok(json!({"id": batch_id(chain_id, Sent::Atomic, &[hash])}))
}

/// `wallet_getCallsStatus([id])`: 100 while a transaction has no receipt; then 200 when every
/// call succeeded, 500 when the chain reverted them all (an atomic batch: its one transaction),
/// 600 when some reverted.
pub async fn calls_status(rpc: &Arc<Rpc>, p: &Value) -> Result<Value, SignError> {
    let id = params(p, 1)?[0].as_str().unwrap_or_default();
    let unknown = || refused(5730, "Unknown bundle id");
    let (chain_id, sent, hashes) = parse_batch_id(id).ok_or_else(unknown)?;
    let chain = format!("eip155:{chain_id}");
    let Some(config) = rpc.chains().get(&chain) else { return Err(unknown()) };
    let atomic = sent != Sent::OneByOne;
    let pending = || json!({"version": VERSION, "id": id, "chainId": format!("{chain_id:#x}"), "atomic": atomic, "status": 100});
    let mut receipts = Vec::with_capacity(hashes.len());
    if sent == Sent::UserOperation {
        let sponsor = config.smart_account.as_ref().and_then(Sponsor::of).ok_or_else(unknown)?;
        match super::evm_sponsored::receipt(&sponsor, &hashes[0]).await? {
            None => return Ok(pending()),
            // The operation's own outcome: its transaction may succeed while the calls reverted.
            Some((success, mut receipt)) => {
                receipt["status"] = if success { "0x1" } else { "0x0" }.into();
                receipts.push(receipt);
            }
        }
    }
    for hash in hashes.iter().filter(|_| sent != Sent::UserOperation) {
        let receipt = read(rpc, &chain, "eth_getTransactionReceipt", json!([hash])).await?;
        if receipt.is_null() {
            return Ok(pending());
        }
        receipts.push(receipt);
    }
    let ok = receipts.iter().filter(|r| r.get("status").and_then(Value::as_str) == Some("0x1")).count();
    let status = match ok {
        n if n == receipts.len() => 200,
        0 => 500,
        _ => 600,
    };
    let receipts: Vec<Value> = receipts
        .iter()
        .map(|r| {
            let logs: Vec<Value> =
                r["logs"].as_array().into_iter().flatten().map(|l| json!({"address": l["address"], "data": l["data"], "topics": l["topics"]})).collect();
            json!({"logs": logs, "status": r["status"], "blockHash": r["blockHash"], "blockNumber": r["blockNumber"], "gasUsed": r["gasUsed"], "transactionHash": r["transactionHash"]})
        })
        .collect();
    Ok(json!({"version": VERSION, "id": id, "chainId": format!("{chain_id:#x}"), "atomic": atomic, "status": status, "receipts": receipts}))
}

/// `wallet_getCapabilities([address, chainIds?])`: per served EVM chain (those asked), `atomic`:
/// `supported` once the account is delegated, `ready` before, `unsupported` where it cannot be
/// (no implementation, code of another kind, or the user prefers the EOA).
pub async fn capabilities(rpc: &Arc<Rpc>, account: Address, p: &Value, preference: AccountType) -> Result<Value, SignError> {
    let p = params(p, 1)?;
    same_address(&p[0], account)?;
    let asked: Option<Vec<u64>> = p.get(1).and_then(Value::as_array).map(|ids| ids.iter().filter_map(|id| quantity(id).map(|n| n.to::<u64>())).collect());
    let mut answer = serde_json::Map::new();
    for (chain, config) in &rpc.chains().by_id {
        let Ok(number) = chain_number(chain) else { continue };
        if asked.as_ref().is_some_and(|ids| !ids.contains(&number)) {
            continue;
        }
        let status = match (config.smart_account.is_some(), preference, implementation(rpc, chain)) {
            (true, AccountType::SmartAccount, Some(implementation)) => match delegation(rpc, chain, account, implementation).await? {
                Delegation::Ours => "supported",
                Delegation::None => "ready",
                Delegation::Other => "unsupported",
            },
            _ => "unsupported",
        };
        answer.insert(format!("{number:#x}"), json!({"atomic": {"status": status}}));
    }
    Ok(Value::Object(answer))
}

/// The chains where the embedded wallet can be a smart account (numeric ids).
pub fn enabled_chains(rpc: &Rpc) -> Vec<u64> {
    rpc.chains().by_id.iter().filter(|(_, c)| c.smart_account.is_some()).filter_map(|(id, _)| chain_number(id).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::Signature;

    const ANVIL0: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    const IMPLEMENTATION: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

    fn key() -> PrivateKeySigner {
        ANVIL0.parse().unwrap()
    }

    #[test]
    fn an_authorization_recovers_to_the_account_and_names_one_chain() {
        let implementation: Address = IMPLEMENTATION.parse().unwrap();
        let signed = sign_authorization(&key(), 31337, implementation, 8).unwrap();
        assert_eq!((*signed.chain_id(), *signed.address(), signed.nonce()), (U256::from(31337), implementation, 8));
        let signature: Signature = signed.signature().unwrap();
        assert_eq!(signature.recover_address_from_prehash(&signed.inner().signature_hash()).unwrap(), key().address());
        // Chain id 0 would let anyone replay the delegation on every chain.
        assert!(matches!(sign_authorization(&key(), 0, implementation, 8), Err(SignError::Params(_))));
    }

    #[test]
    fn delegation_is_read_from_the_designator() {
        let implementation: Address = IMPLEMENTATION.parse().unwrap();
        assert_eq!(delegation_of("0x", implementation), Delegation::None);
        assert_eq!(delegation_of("0xef01005fbdb2315678afecb367f032d93f642f64180aa3", implementation), Delegation::Ours);
        assert_eq!(delegation_of("0xEF01005FBDB2315678AFECB367F032D93F642F64180AA3", implementation), Delegation::Ours);
        assert_eq!(delegation_of("0xef0100000000000000000000000000000000000000dead", implementation), Delegation::Other);
        assert_eq!(delegation_of("0x6080604052", implementation), Delegation::Other);
    }

    #[test]
    fn batch_ids_carry_chain_atomicity_and_hashes() {
        let hashes = vec![format!("0x{}", "ab".repeat(32)), format!("0x{}", "cd".repeat(32))];
        let id = batch_id(31337, Sent::OneByOne, &hashes);
        assert_eq!(parse_batch_id(&id), Some((31337, Sent::OneByOne, hashes.clone())));
        assert_eq!(parse_batch_id(&batch_id(1, Sent::Atomic, &hashes[..1])), Some((1, Sent::Atomic, hashes[..1].to_vec())));
        assert_eq!(parse_batch_id(&batch_id(1, Sent::UserOperation, &hashes[..1])), Some((1, Sent::UserOperation, hashes[..1].to_vec())));
        // A user operation is one hash; other flags are not ids of this wallet.
        for bad in
            ["", "0x", "0x00", &id[..id.len() - 1], &id.replace("ab", "zz"), &format!("{}02{}", &id[..18], &id[20..]), &format!("{}03{}", &id[..18], &id[20..])]
        {
            assert_eq!(parse_batch_id(bad), None, "{bad}");
        }
        assert_eq!(parse_batch_id(&batch_id(1, Sent::Atomic, &vec![hashes[0].clone(); MAX_CALLS + 1])), None);
    }

    #[test]
    fn a_batch_is_checked_before_anything_is_signed() {
        let ours = key().address();
        let call = json!({"to": "0x000000000000000000000000000000000000bEEF", "value": "0x1", "data": "0x1234"});
        let batch = parse_batch(&json!([{"version": "2.0.0", "chainId": "0x7a69", "from": ours.to_checksum(None), "atomicRequired": true, "calls": [call, {"to": "0x000000000000000000000000000000000000bEEF"}]}]), 31337, ours).unwrap();
        assert!(batch.atomic_required);
        assert_eq!(batch.calls.len(), 2);
        assert_eq!((batch.calls[0].value, batch.calls[0].data.to_string()), (U256::from(1), "0x1234".to_owned()));
        let code = |r: Result<Batch, SignError>| match r {
            Err(SignError::Refused(e)) => e.code,
            other => panic!("{other:?}"),
        };
        assert_eq!(code(parse_batch(&json!([{"chainId": "0x1", "calls": [call]}]), 31337, ours)), 5710);
        assert_eq!(code(parse_batch(&json!([{"calls": vec![call.clone(); MAX_CALLS + 1]}]), 31337, ours)), 5740);
        assert_eq!(code(parse_batch(&json!([{"calls": [call], "capabilities": {"paymasterService": {"url": "https://pm"}}}]), 31337, ours)), 5700);
        assert!(parse_batch(&json!([{"calls": [call], "capabilities": {"paymasterService": {"url": "https://pm", "optional": true}}}]), 31337, ours).is_ok());
        // Another account's batch, or calls that are not calls, are refused as bad params.
        let other = json!([{"from": "0x000000000000000000000000000000000000dEaD", "calls": [call]}]);
        assert!(matches!(parse_batch(&other, 31337, ours), Err(SignError::Params(_))));
        for bad in [
            json!([{"calls": []}]),
            json!([{"calls": [{"to": "nope"}]}]),
            json!([{"calls": [{"to": "0x000000000000000000000000000000000000bEEF", "data": "xyz"}]}]),
        ] {
            assert!(matches!(parse_batch(&bad, 31337, ours), Err(SignError::Params(_))), "{bad}");
        }
    }

    #[test]
    fn execute_batch_is_simple_7702_accounts_selector() {
        // cast sig "executeBatch((address,uint256,bytes)[])"
        assert_eq!(hex::encode(executeBatchCall::SELECTOR), "34fcd5be");
    }
}
