//! The keyless swap source: a Uniswap-V2-style router (Router02's interface), read with
//! `eth_call`s through the chain's upstreams. A quote asks `getAmountsOut` along the direct
//! path and along one hop through each base token (the router's `WETH()` and the chain's
//! `base_tokens`), all in one batch, and the largest output wins; the price impact comes from
//! the reserves of the winning route's pairs (`getPair` on the router's `factory()`, then
//! `getReserves`). A swap is `swapExactETHForTokens`, `swapExactTokensForETH` or
//! `swapExactTokensForTokens` on the router, with the minimum received from the user's
//! slippage.

use std::collections::HashSet;

use alloy_primitives::{Address, U256};
use sigil_core::evm::{self, call_data, decode_return, getReservesCall, UniswapV2Factory as Factory, UniswapV2Router as Router};

use super::{Asset, Convert, SwapError};
use crate::rpc::calls::{self, eth_call};
use crate::rpc::jsonrpc::Call;
use crate::rpc::Rpc;

/// A pool's reserves are uint112: no amount above this fits in one.
pub const MAX_AMOUNT: U256 = U256::from_limbs([u64::MAX, (1 << 48) - 1, 0, 0]);

/// Base tokens a chain may list (each one more path in every quote's batch).
pub const MAX_BASE_TOKENS: usize = 8;

/// The fee a V2 pool keeps of each input, in thousandths.
const FEE_PER_MILLE: u64 = 3;

/// Pairs kept in memory at most (a pair's address never changes once created).
const MAX_PAIRS: usize = 100_000;

/// What is read once of a router: its factory and the wrapped native token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterInfo {
    pub address: Address,
    pub factory: Address,
    pub weth: Address,
}

/// The path a quote takes and the amount after each hop (`amounts[0]` is the input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub path: Vec<Address>,
    pub amounts: Vec<U256>,
}

impl Route {
    pub fn amount_out(&self) -> U256 {
        self.amounts.last().copied().unwrap_or_default()
    }
}

fn hex(address: Address) -> String {
    format!("{address:#x}")
}

/// The token a pool holds for `asset`: the native coin trades as the router's wrapped token.
pub fn pooled(asset: Asset, router: &RouterInfo) -> Address {
    match asset {
        Asset::Native => router.weth,
        Asset::Erc20(a) => a,
    }
}

/// The direct path first, then one hop through each base token other than the two ends.
pub fn candidate_paths(a: Address, b: Address, bases: &[Address]) -> Vec<Vec<Address>> {
    let mut seen = HashSet::new();
    let mut paths = vec![vec![a, b]];
    for &middle in bases {
        if middle != a && middle != b && seen.insert(middle) {
            paths.push(vec![a, middle, b]);
        }
    }
    paths
}

/// The price impact of `route` in percent (2 decimals), the pools' fee left out: how much less
/// than the pools' current prices give the route gives. None when a reserve is 0.
pub fn price_impact(route: &Route, reserves: &[(U256, U256)]) -> Option<f64> {
    let number = |n: U256| n.to_string().parse::<f64>().ok();
    let mut ideal = number(*route.amounts.first()?)?;
    for (hop, &(reserve0, reserve1)) in route.path.windows(2).zip(reserves) {
        let (reserve_in, reserve_out) = if hop[0] < hop[1] { (reserve0, reserve1) } else { (reserve1, reserve0) };
        if reserve_in.is_zero() {
            return None;
        }
        ideal *= (1000 - FEE_PER_MILLE) as f64 / 1000.0 * number(reserve_out)? / number(reserve_in)?;
    }
    if route.path.len() != reserves.len() + 1 || ideal <= 0.0 {
        return None;
    }
    let impact = (1.0 - number(route.amount_out())? / ideal) * 100.0;
    Some((impact.max(0.0) * 100.0).round() / 100.0)
}

/// What a V2 router's `getAmountsOut` answers along `path` from its pairs' `reserves` (the
/// library's getAmountOut per hop, the pool keeping FEE_PER_MILLE of each input). None when the
/// reserves do not fit the path or one is 0 (the router reverts then).
pub fn amounts_out(amount_in: U256, path: &[Address], reserves: &[(U256, U256)]) -> Option<Vec<U256>> {
    if path.len() != reserves.len() + 1 {
        return None;
    }
    let mut amounts = vec![amount_in];
    for (hop, &(reserve0, reserve1)) in path.windows(2).zip(reserves) {
        let (reserve_in, reserve_out) = if hop[0] < hop[1] { (reserve0, reserve1) } else { (reserve1, reserve0) };
        if reserve_in.is_zero() || reserve_out.is_zero() {
            return None;
        }
        // Amounts and reserves are uint112: the products stay far below 2^256.
        let with_fee = *amounts.last()? * U256::from(1000 - FEE_PER_MILLE);
        amounts.push(with_fee * reserve_out / (reserve_in * U256::from(1000) + with_fee));
    }
    Some(amounts)
}

/// The router's swap call for `route`: its call data, and the value sent with it (selling the
/// native coin only).
pub fn swap_call(from: Asset, to: Asset, route: &Route, amount_out_min: U256, recipient: Address, deadline: U256) -> (String, Option<U256>) {
    let amount_in = route.amounts[0];
    let path = route.path.clone();
    match (from, to) {
        (Asset::Native, _) => (call_data(&Router::swapExactETHForTokensCall { amountOutMin: amount_out_min, path, to: recipient, deadline }), Some(amount_in)),
        (_, Asset::Native) => {
            (call_data(&Router::swapExactTokensForETHCall { amountIn: amount_in, amountOutMin: amount_out_min, path, to: recipient, deadline }), None)
        }
        _ => (call_data(&Router::swapExactTokensForTokensCall { amountIn: amount_in, amountOutMin: amount_out_min, path, to: recipient, deadline }), None),
    }
}

/// A route found: the best path's amounts, its pairs' reserves when they were read in the same
/// batch, and what the riders of that batch answered (in their order).
pub struct Found {
    pub route: Route,
    pub reserves: Option<Vec<(U256, U256)>>,
    pub riders: Vec<Option<String>>,
}

/// How long the best path found for a pair is asked alone (its amounts read fresh each time).
pub const ROUTE_KEPT: std::time::Duration = std::time::Duration::from_secs(30);
/// Best paths kept at most.
pub const ROUTES_MAX: usize = 10_000;

impl Convert {
    /// The router's factory and wrapped native token, read once per chain and router.
    pub async fn router(&self, rpc: &Rpc, chain: &str, router: Address) -> Result<RouterInfo, SwapError> {
        let key = (chain.to_owned(), router);
        if let Some(info) = self.routers.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(*info);
        }
        let calls = [eth_call(&hex(router), &call_data(&Router::WETHCall {})), eth_call(&hex(router), &call_data(&Router::factoryCall {}))];
        let results = calls::batch(rpc, chain, &calls).await.map_err(SwapError::Upstream)?;
        let weth = results.first().and_then(|r| r.as_deref()).and_then(decode_return::<Router::WETHCall>);
        let factory = results.get(1).and_then(|r| r.as_deref()).and_then(decode_return::<Router::factoryCall>);
        let (Some(weth), Some(factory)) = (weth, factory) else { return Err(SwapError::RouterUnreadable(hex(router))) };
        let info = RouterInfo { address: router, factory, weth };
        self.routers.lock().unwrap_or_else(|e| e.into_inner()).insert(key, info);
        Ok(info)
    }

    /// The best route from `a` to `b` for `amount`: the largest output of the candidate paths,
    /// the direct one on a tie, with the reserves of its pairs when they were read in the same
    /// batch (the pairs of every candidate already known: one round trip for the quote and its
    /// price impact). No path quoted: no route, or not enough liquidity when every pool of some
    /// path exists (and so is empty). The path chosen is kept ROUTE_KEPT for the pair and the
    /// amount's order of magnitude: a quote within it reads that path alone (fresh amounts and
    /// reserves), and all the candidates again when that path gives nothing.
    pub async fn best_route(
        &self,
        rpc: &Rpc,
        chain: &str,
        router: &RouterInfo,
        bases: &[Address],
        (a, b, amount): (Address, Address, U256),
        riders: &[Call],
    ) -> Result<Found, SwapError> {
        let key = (chain.to_owned(), router.address, a, b, amount.bit_len());
        if let Some(path) = self.routes.get(&key) {
            if let Some(found) = self.quote_from_reserves(rpc, chain, router, &path, amount, riders).await {
                return Ok(found);
            }
            match self.quote_paths(rpc, chain, router, vec![path], amount, riders).await {
                Ok(found) if !found.route.amount_out().is_zero() => return Ok(found),
                _ => {}
            }
        }
        let mut middles = vec![router.weth];
        middles.extend_from_slice(bases);
        let paths = candidate_paths(a, b, &middles);
        let found = self.quote_paths(rpc, chain, router, paths, amount, riders).await?;
        self.routes.put(key, found.route.path.clone());
        Ok(found)
    }

    /// The route along `path` computed from its pairs' reserves, read in one batch with the
    /// `riders`: one call fewer than asking the router, and the same amounts, for a path whose
    /// `getAmountsOut` was seen within ROUTE_KEPT to answer what amounts_out computes (a fork with
    /// another fee, even per pair, is asked itself). None when that is not known of the path, a
    /// pair is not known yet, or the amounts come to nothing: the caller asks the router then.
    async fn quote_from_reserves(&self, rpc: &Rpc, chain: &str, router: &RouterInfo, path: &[Address], amount: U256, riders: &[Call]) -> Option<Found> {
        self.reserve_priced.get(&(chain.to_owned(), router.address, path.to_vec()))?;
        let pairs: Vec<Address> = {
            let known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            path.windows(2).map(|w| known.get(&(chain.to_owned(), router.factory, w[0].min(w[1]), w[0].max(w[1]))).copied()).collect::<Option<_>>()?
        };
        let mut batch: Vec<Call> = pairs.iter().map(|p| eth_call(&hex(*p), &call_data(&getReservesCall {}))).collect();
        batch.extend_from_slice(riders);
        let mut results = calls::batch(rpc, chain, &batch).await.ok()?;
        let rider_results = results.split_off(pairs.len().min(results.len()));
        let reserves: Vec<(U256, U256)> = results
            .iter()
            .map(|r| r.as_deref().and_then(decode_return::<getReservesCall>).map(|r| (U256::from(r.reserve0), U256::from(r.reserve1))))
            .collect::<Option<_>>()?;
        let route = Route { path: path.to_vec(), amounts: amounts_out(amount, path, &reserves)? };
        if route.amount_out().is_zero() {
            return None;
        }
        Some(Found { route, reserves: Some(reserves), riders: rider_results })
    }

    /// The best of `paths` for `amount` (see best_route), in one batch with the known pairs'
    /// reserves and the `riders` (calls the quote's caller needs from the chain too).
    async fn quote_paths(
        &self,
        rpc: &Rpc,
        chain: &str,
        router: &RouterInfo,
        paths: Vec<Vec<Address>>,
        amount: U256,
        riders: &[Call],
    ) -> Result<Found, SwapError> {
        let mut quotes: Vec<_> =
            paths.iter().map(|path| eth_call(&hex(router.address), &call_data(&Router::getAmountsOutCall { amountIn: amount, path: path.clone() }))).collect();
        // The reserves of every pair already known on the candidate paths, in the same batch.
        let mut known: Vec<Address> = {
            let pairs = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            paths
                .iter()
                .flat_map(|p| p.windows(2))
                .filter_map(|w| pairs.get(&(chain.to_owned(), router.factory, w[0].min(w[1]), w[0].max(w[1]))).copied())
                .collect()
        };
        known.sort();
        known.dedup();
        quotes.extend(known.iter().map(|p| eth_call(&hex(*p), &call_data(&getReservesCall {}))));
        quotes.extend_from_slice(riders);
        let mut results = calls::batch(rpc, chain, &quotes).await.map_err(SwapError::Upstream)?;
        let rider_results = results.split_off(results.len().saturating_sub(riders.len()));
        let reserves_read: Vec<Option<(U256, U256)>> = results
            .split_off(paths.len().min(results.len()))
            .iter()
            .map(|r| r.as_deref().and_then(decode_return::<getReservesCall>).map(|r| (U256::from(r.reserve0), U256::from(r.reserve1))))
            .collect();
        let reserves_of = |route: &Route| -> Option<Vec<(U256, U256)>> {
            let pairs = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            route
                .path
                .windows(2)
                .map(|w| {
                    let pair = pairs.get(&(chain.to_owned(), router.factory, w[0].min(w[1]), w[0].max(w[1])))?;
                    *reserves_read.get(known.binary_search(pair).ok()?)?
                })
                .collect()
        };
        let mut best: Option<Route> = None;
        for (path, result) in paths.iter().zip(results) {
            let Some(amounts) = result.as_deref().and_then(decode_return::<Router::getAmountsOutCall>) else { continue };
            if amounts.len() != path.len() {
                continue;
            }
            let route = Route { path: path.clone(), amounts };
            if best.as_ref().is_none_or(|b| route.amount_out() > b.amount_out()) {
                best = Some(route);
            }
        }
        match best {
            Some(route) if route.amount_out().is_zero() => Err(SwapError::AmountTooSmall),
            Some(route) => {
                let reserves = reserves_of(&route);
                // The router's amounts read beside the reserves they come from: when they are
                // what the V2 formula gives, later quotes along this path compute them instead.
                if reserves.as_deref().and_then(|r| amounts_out(route.amounts[0], &route.path, r)).as_ref() == Some(&route.amounts) {
                    self.reserve_priced.put((chain.to_owned(), router.address, route.path.clone()), ());
                }
                Ok(Found { route, reserves, riders: rider_results })
            }
            None => {
                let hops: Vec<(Address, Address)> = paths.iter().flat_map(|p| p.windows(2).map(|w| (w[0], w[1]))).collect();
                let pairs = self.pairs(rpc, chain, router.factory, &hops).await.map_err(SwapError::Upstream)?;
                let mut at = 0;
                let pooled = paths.iter().any(|p| {
                    let hops = &pairs[at..at + p.len() - 1];
                    at += p.len() - 1;
                    hops.iter().all(Option::is_some)
                });
                Err(if pooled { SwapError::NotEnoughLiquidity } else { SwapError::NoRoute })
            }
        }
    }

    /// The price impact of `route` from its pairs' reserves; None when it cannot be read.
    pub async fn price_impact(&self, rpc: &Rpc, chain: &str, router: &RouterInfo, route: &Route) -> Option<f64> {
        let hops: Vec<(Address, Address)> = route.path.windows(2).map(|w| (w[0], w[1])).collect();
        let pairs = self.pairs(rpc, chain, router.factory, &hops).await.ok()?;
        let pairs: Vec<Address> = pairs.into_iter().collect::<Option<_>>()?;
        let calls: Vec<_> = pairs.iter().map(|p| eth_call(&hex(*p), &call_data(&getReservesCall {}))).collect();
        let results = calls::batch(rpc, chain, &calls).await.ok()?;
        let reserves: Vec<(U256, U256)> = results
            .iter()
            .map(|r| r.as_deref().and_then(decode_return::<getReservesCall>).map(|r| (U256::from(r.reserve0), U256::from(r.reserve1))))
            .collect::<Option<_>>()?;
        price_impact(route, &reserves)
    }

    /// The pair of each (tokenA, tokenB) on `factory`, None where there is none. Pairs found
    /// are kept (they never move); absent ones are asked again next time.
    async fn pairs(&self, rpc: &Rpc, chain: &str, factory: Address, hops: &[(Address, Address)]) -> Result<Vec<Option<Address>>, crate::rpc::Failure> {
        let key = |&(a, b): &(Address, Address)| (chain.to_owned(), factory, a.min(b), a.max(b));
        let mut found: Vec<Option<Address>> = {
            let known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            hops.iter().map(|h| known.get(&key(h)).copied()).collect()
        };
        let missing: Vec<usize> = (0..hops.len()).filter(|&i| found[i].is_none()).collect();
        if missing.is_empty() {
            return Ok(found);
        }
        let calls: Vec<_> =
            missing.iter().map(|&i| eth_call(&hex(factory), &call_data(&Factory::getPairCall { tokenA: hops[i].0, tokenB: hops[i].1 }))).collect();
        let results = calls::batch(rpc, chain, &calls).await?;
        let mut known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= MAX_PAIRS {
            known.clear();
        }
        for (&i, result) in missing.iter().zip(results) {
            let pair = result.as_deref().and_then(decode_return::<Factory::getPairCall>).filter(|p| !p.is_zero());
            if let Some(pair) = pair {
                known.insert(key(&hops[i]), pair);
            }
            found[i] = pair;
        }
        Ok(found)
    }
}

/// ERC-20 `approve(spender, amount)` call data.
pub fn approve_data(spender: Address, amount: U256) -> String {
    call_data(&evm::approveCall { spender, amount })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(n: u8) -> Address {
        Address::repeat_byte(n)
    }

    #[test]
    fn paths_go_direct_then_through_each_other_base_once() {
        let paths = candidate_paths(addr(1), addr(2), &[addr(9), addr(1), addr(3), addr(9), addr(2)]);
        assert_eq!(paths, vec![vec![addr(1), addr(2)], vec![addr(1), addr(9), addr(2)], vec![addr(1), addr(3), addr(2)]]);
    }

    #[test]
    fn the_largest_amount_fits_a_pool() {
        assert_eq!(MAX_AMOUNT, (U256::from(1) << 112usize) - U256::from(1));
    }

    #[test]
    fn price_impact_from_reserves() {
        // 1 in a pool of 1000:1000 (the fee left out): out = 997 * 1000 / (1000 * 1000 + 997) ~ 0.996.
        let route = Route { path: vec![addr(1), addr(2)], amounts: vec![U256::from(1_000_000u64), U256::from(996_006u64)] };
        let reserves = [(U256::from(1_000_000_000u64), U256::from(1_000_000_000u64))];
        assert_eq!(price_impact(&route, &reserves), Some(0.1));
        // Reserves the other way round when the path sells the higher address.
        let back = Route { path: vec![addr(2), addr(1)], amounts: vec![U256::from(1000u64), U256::from(1990u64)] };
        assert_eq!(price_impact(&back, &[(U256::from(2_000_000u64), U256::from(1_000_000u64))]), Some(0.2));
        assert_eq!(price_impact(&route, &[(U256::ZERO, U256::from(5))]), None);
        assert_eq!(price_impact(&route, &[]), None);
    }

    #[test]
    fn amounts_from_reserves_as_the_router_gives_them() {
        // Router02's getAmountsOut for 1e18 through 10e18:20000e6, then 20000e6:5e21 (the second
        // pair sells its higher token): 997 * in * out / (1000 * in_reserve + 997 * in) per hop.
        let e18 = U256::from(10u64).pow(U256::from(18));
        let path = [addr(1), addr(2), addr(0)];
        let reserves = [(U256::from(10u64) * e18, U256::from(20_000_000_000u64)), (U256::from(5000u64) * e18, U256::from(20_000_000_000u64))];
        let amounts = amounts_out(e18, &path, &reserves).unwrap();
        assert_eq!(amounts[1], U256::from(1_813_221_787u64));
        assert_eq!(amounts[2], "414480966371451701578".parse::<U256>().unwrap());
        assert_eq!(amounts_out(e18, &path, &reserves[..1]), None);
        assert_eq!(amounts_out(e18, &path[..2], &[(U256::ZERO, U256::from(1))]), None);
    }

    #[test]
    fn selling_the_native_coin_sends_it() {
        let route = Route { path: vec![addr(1), addr(2)], amounts: vec![U256::from(5), U256::from(7)] };
        let (data, value) = swap_call(Asset::Native, Asset::Erc20(addr(2)), &route, U256::from(6), addr(3), U256::from(100));
        assert!(data.starts_with("0x7ff36ab5"), "{data}");
        assert_eq!(value, Some(U256::from(5)));
        let (data, value) = swap_call(Asset::Erc20(addr(1)), Asset::Native, &route, U256::from(6), addr(3), U256::from(100));
        assert!(data.starts_with("0x18cbafe5"), "{data}");
        assert_eq!(value, None);
        let (data, _) = swap_call(Asset::Erc20(addr(1)), Asset::Erc20(addr(2)), &route, U256::from(6), addr(3), U256::from(100));
        assert!(data.starts_with("0x38ed1739"), "{data}");
        assert!(approve_data(addr(3), U256::from(1)).starts_with("0x095ea7b3"));
    }
}
