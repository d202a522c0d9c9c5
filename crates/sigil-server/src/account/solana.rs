//! Solana balances through the proxy's upstreams: SOL (getBalance) and every SPL token account
//! (getTokenAccountsByOwner, both token programs), each with its mint's decimals.

use std::sync::Arc;

use serde_json::{json, Value};

use super::routes::Holding;
use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::rpc::jsonrpc::Reply;
use crate::rpc::Rpc;

pub const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
pub const TOKEN_2022_PROGRAM: &str = "TokenzQdBNbLqP5VWeRthBQM1Th1hNqHfgPLz6d8DA7";

async fn call(rpc: &Arc<Rpc>, chain: &str, method: &str, params: Value) -> ApiResult<Value> {
    let reply = rpc.call(chain, method, Some(&params.to_string())).await.map_err(super::routes::upstream_error)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_parsed_token_accounts() {
        let answer = json!({"context": {"slot": 1}, "value": [
            {"pubkey": "x", "account": {"data": {"parsed": {"info": {"mint": "So11111111111111111111111111111111111111112", "tokenAmount": {"amount": "1500000", "decimals": 6, "uiAmountString": "1.5"}}}, "program": "spl-token"}}},
            {"pubkey": "y", "account": {"data": ["base64", "..."]}},
        ]});
        assert_eq!(token_amounts(&answer), vec![("So11111111111111111111111111111111111111112".to_owned(), "1500000".to_owned(), 6)]);
        assert!(token_amounts(&json!({"value": null})).is_empty());
    }
}
