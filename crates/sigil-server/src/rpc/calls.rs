//! EVM contract reads through the proxy's upstreams: the calls and their decoding are
//! `sigil_core::evm`'s (alloy); this file makes and batches them as JSON-RPC `eth_call`s, for
//! whichever area reads a contract (balances, prices, names, Farcaster custody).

use sigil_core::evm::{self, Address};

use super::jsonrpc::{self, Call, Reply};
use super::{Failure, Rpc};

/// 0x-prefixed, lower-case.
pub fn normalize(address: &str) -> String {
    format!("0x{}", address.strip_prefix("0x").unwrap_or(address).to_ascii_lowercase())
}

/// An `eth_call` of `data` (hex call data) on `to`, at the latest block.
pub fn eth_call(to: &str, data: &str) -> Call {
    Call {
        id: "null".into(),
        method: "eth_call".into(),
        params: Some(format!(r#"[{{"to":"{to}","data":"{data}"}},"latest"]"#)),
        notification: false,
        exact: false,
    }
}

/// ERC-20 `balanceOf(owner)` on `token`; None when `owner` is not an address.
pub fn balance_of(token: &str, owner: &str) -> Option<Call> {
    let owner: Address = evm::parse_address(owner)?;
    Some(eth_call(token, &evm::call_data(&evm::balanceOfCall { owner })))
}

/// The hex string result of a reply, if it is one.
pub fn hex_result(reply: &Reply) -> Option<String> {
    match reply {
        Reply::Result(raw) => serde_json::from_str::<String>(raw).ok(),
        Reply::Error(_) => None,
    }
}

/// Sends `calls` as one upstream batch; each entry is the call's hex result or None.
pub async fn batch(rpc: &Rpc, chain: &str, calls: &[Call]) -> Result<Vec<Option<String>>, Failure> {
    if calls.is_empty() {
        return Ok(Vec::new());
    }
    let refs: Vec<&Call> = calls.iter().collect();
    let bytes = rpc.send(chain, jsonrpc::batch_body(&refs).into()).await?;
    Ok(jsonrpc::batch_replies(&bytes, calls.len()).iter().map(hex_result).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_balance_of() {
        let c = balance_of("0xToken", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap();
        assert_eq!(c.params.unwrap(), r#"[{"to":"0xToken","data":"0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"},"latest"]"#);
        assert!(balance_of("0xToken", "0x12").is_none());
    }
}
