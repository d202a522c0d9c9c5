//! The few EVM calls account data needs, as raw ABI: balanceOf, getReserves, token0.

use sigil_core::amount;

use crate::rpc::jsonrpc::{self, Call, Reply};
use crate::rpc::{Failure, Rpc};

pub const BALANCE_OF: &str = "0x70a08231";
pub const GET_RESERVES: &str = "0x0902f1ac";
pub const TOKEN0: &str = "0x0dfe1681";

/// 0x-prefixed, lower-case.
pub fn normalize(address: &str) -> String {
    format!("0x{}", address.strip_prefix("0x").unwrap_or(address).to_ascii_lowercase())
}

fn word(address: &str) -> String {
    format!("{:0>64}", address.strip_prefix("0x").unwrap_or(address).to_ascii_lowercase())
}

pub fn eth_call(to: &str, data: &str) -> Call {
    Call { id: "null".into(), method: "eth_call".into(), params: Some(format!(r#"[{{"to":"{to}","data":"{data}"}},"latest"]"#)), notification: false }
}

pub fn balance_of(token: &str, owner: &str) -> Call {
    eth_call(token, &format!("{BALANCE_OF}{}", word(owner)))
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

/// Splits ABI return data into 32-byte words (hex, no prefix).
pub fn words(data: &str) -> Vec<&str> {
    let hex = data.strip_prefix("0x").unwrap_or(data);
    if !hex.is_ascii() {
        return Vec::new(); // an upstream's garbage, not ABI data
    }
    (0..hex.len() / 64).map(|i| &hex[i * 64..(i + 1) * 64]).collect()
}

/// A 32-byte word as an exact decimal string.
pub fn word_to_decimal(word: &str) -> Option<String> {
    amount::hex_to_decimal(word).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_balance_of() {
        let c = balance_of("0xToken", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assert_eq!(c.params.unwrap(), r#"[{"to":"0xToken","data":"0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"},"latest"]"#);
        assert_eq!(words(&format!("0x{}{}", "0".repeat(63) + "1", "0".repeat(63) + "2")).len(), 2);
    }
}
