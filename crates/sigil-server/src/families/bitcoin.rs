//! Bitcoin chains: address rules, and balances from the chain's Esplora API (electrs,
//! mempool.space): GET /address/{address} gives funded and spent sums, confirmed and in the
//! mempool. (Sign-in signatures, BIP-322 and legacy, are core's siwx.)

use serde_json::Value;

use super::Holding;
use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::rpc::Rpc;

/// A Bitcoin address of any script type, as it is.
pub fn check_address(address: &str) -> Result<String, &'static str> {
    sigil_core::siwx::check_bitcoin_address(address).map(|_| address.to_owned()).map_err(|_| "a Bitcoin address")
}

/// Satoshis held by an address as Esplora reports it: confirmed plus unconfirmed.
pub fn satoshis(stats: &Value) -> Option<i128> {
    let sum = |part: &str| -> Option<i128> {
        let s = &stats[part];
        Some(i128::from(s["funded_txo_sum"].as_u64()?) - i128::from(s["spent_txo_sum"].as_u64()?))
    };
    Some(sum("chain_stats")? + sum("mempool_stats").unwrap_or(0))
}

pub async fn holdings(rpc: &Rpc, chain: &ChainConfig, address: &str) -> ApiResult<Vec<Holding>> {
    let esplora = rpc.esplora(&chain.id).ok_or_else(|| ApiError::unavailable(format!("{} has no esplora API configured", chain.id)))?;
    let unavailable = |why: String| ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, ErrorCode::UpstreamUnavailable, why);
    let (status, body) = esplora.get(&format!("/address/{address}")).await.map_err(|e| unavailable(format!("esplora: {e}")))?;
    if !status.is_success() {
        return Err(unavailable(format!("esplora answered {status}")));
    }
    let stats: Value = serde_json::from_slice(&body).map_err(|e| unavailable(format!("esplora: {e}")))?;
    let sats = satoshis(&stats).ok_or_else(|| unavailable("esplora gave no address stats".into()))?;
    Ok(vec![Holding::native(chain, sats.max(0).to_string())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_confirmed_and_mempool() {
        let stats = serde_json::json!({
            "address": "bcrt1q...",
            "chain_stats": {"funded_txo_count": 2, "funded_txo_sum": 5_000_000_000u64, "spent_txo_count": 1, "spent_txo_sum": 1_000_000_000u64, "tx_count": 3},
            "mempool_stats": {"funded_txo_count": 1, "funded_txo_sum": 25_000u64, "spent_txo_count": 0, "spent_txo_sum": 0, "tx_count": 1}
        });
        assert_eq!(satoshis(&stats), Some(4_000_025_000));
        assert_eq!(satoshis(&serde_json::json!({})), None);
    }
}
