//! USD prices: from a Uniswap-v2-style pair's reserves against a stablecoin where the chain
//! configures one for the token, else from the static table.

use crate::chains::{ChainConfig, Chains, PricePair};
use crate::rpc::{Failure, Rpc};

use super::evm;

/// Price of `token` (None for the chain's native currency) with symbol `symbol`.
pub async fn usd_price(rpc: &Rpc, chains: &Chains, chain: &ChainConfig, token: Option<&str>, symbol: &str) -> Option<f64> {
    if let Some(addr) = token {
        if let Some(pair) = chain.price_pairs.iter().find(|p| p.token.eq_ignore_ascii_case(addr)) {
            match pair_price(rpc, chain, pair).await {
                Ok(Some(p)) => return Some(p),
                Ok(None) => tracing::warn!(chain = %chain.id, pair = %pair.pair, "price pair gave no price"),
                Err(e) => tracing::warn!(chain = %chain.id, pair = %pair.pair, ?e, "price pair unreachable"),
            }
        }
    }
    chains.static_price(symbol)
}

/// quote reserve / base reserve, each scaled by its token's decimals.
pub async fn pair_price(rpc: &Rpc, chain: &ChainConfig, pair: &PricePair) -> Result<Option<f64>, Failure> {
    let results = evm::batch(rpc, &chain.id, &[evm::eth_call(&pair.pair, evm::GET_RESERVES), evm::eth_call(&pair.pair, evm::TOKEN0)]).await?;
    let (Some(reserves), Some(token0)) = (results[0].as_deref(), results[1].as_deref()) else { return Ok(None) };
    let words = evm::words(reserves);
    let token0_word = evm::words(token0);
    if words.len() < 2 || token0_word.is_empty() {
        return Ok(None);
    }
    let token0 = format!("0x{}", &token0_word[0][24..]);
    let (r0, r1) = (evm::word_to_decimal(words[0]), evm::word_to_decimal(words[1]));
    let (Some(r0), Some(r1)) = (r0, r1) else { return Ok(None) };
    let (base, quote) = if token0.eq_ignore_ascii_case(&pair.token) { (r0, r1) } else { (r1, r0) };
    let decimals = |a: &str| chain.token(a).map(|t| i32::from(t.decimals));
    let (Some(bd), Some(qd)) = (decimals(&pair.token), decimals(&pair.quote)) else { return Ok(None) };
    let base: f64 = base.parse().unwrap_or(0.0) / 10f64.powi(bd);
    let quote: f64 = quote.parse().unwrap_or(0.0) / 10f64.powi(qd);
    Ok((base > 0.0).then(|| quote / base))
}
