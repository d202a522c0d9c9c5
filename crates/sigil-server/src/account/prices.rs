//! USD prices: from a Uniswap-v2-style pair's reserves against a stablecoin where the chain
//! configures one for the token, else from the static table.

use crate::chains::{ChainConfig, Chains, PricePair};
use crate::rpc::{Failure, Rpc};

use crate::rpc::calls as evm;

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
    use sigil_core::evm::{call_data, decode_return, getReservesCall, token0Call};
    let calls = [evm::eth_call(&pair.pair, &call_data(&getReservesCall {})), evm::eth_call(&pair.pair, &call_data(&token0Call {}))];
    let results = evm::batch(rpc, &chain.id, &calls).await?;
    let reserves = results[0].as_deref().and_then(decode_return::<getReservesCall>);
    let token0 = results[1].as_deref().and_then(decode_return::<token0Call>);
    let (Some(reserves), Some(token0)) = (reserves, token0) else { return Ok(None) };
    let (r0, r1) = (reserves.reserve0.to_string(), reserves.reserve1.to_string());
    let (base, quote) = if format!("{token0:#x}").eq_ignore_ascii_case(&pair.token) { (r0, r1) } else { (r1, r0) };
    let decimals = |a: &str| chain.token(a).map(|t| i32::from(t.decimals));
    let (Some(bd), Some(qd)) = (decimals(&pair.token), decimals(&pair.quote)) else { return Ok(None) };
    let base: f64 = base.parse().unwrap_or(0.0) / 10f64.powi(bd);
    let quote: f64 = quote.parse().unwrap_or(0.0) / 10f64.powi(qd);
    Ok((base > 0.0).then(|| quote / base))
}
