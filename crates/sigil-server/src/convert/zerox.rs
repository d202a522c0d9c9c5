//! 0x's Swap API v2 (allowance-holder) as a swap source (its documented wire format only): a
//! quote is `GET {url}/swap/allowance-holder/price?chainId&sellToken&buyToken&sellAmount&taker`,
//! a swap `.../quote?...&slippageBps` with its `transaction {to, data, value, gas, gasPrice}`.
//! The contract to approve is the answer's `allowanceTarget`, else `issues.allowance.spender`
//! (kept per chain for the allowance endpoint). Headers `0x-api-key` and `0x-version: v2`; the
//! native coin is 0xEeee...EEeE. `liquidityAvailable: false` is not enough liquidity; the
//! documented error names (`INSUFFICIENT_BALANCE`, `TOKEN_NOT_SUPPORTED`,
//! `SWAP_VALIDATION_FAILED`, ...) are typed. No fee parameter (`swapFeeRecipient`,
//! `swapFeeBps`) is sent.

use serde_json::Value;

use super::{address, api_key, swap_call, uint, Asset, Convert, Plan, Quote, Refusal, SwapError, Trade};
use crate::chains::AggregatorSource;

const NAME: &str = "0x";

/// 0x's placeholder for the native coin.
pub const NATIVE: &str = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

fn token(asset: Asset) -> String {
    match asset {
        Asset::Native => NATIVE.to_owned(),
        Asset::Erc20(a) => a.to_checksum(None),
    }
}

/// A 4xx's typed meaning, from its documented `name`.
fn refusal(key: Option<&str>) -> impl FnOnce(u16, &Value) -> Option<SwapError> + '_ {
    move |_, body| {
        let name = body["name"].as_str()?;
        let said = body["message"].as_str().unwrap_or(name);
        let kind = match name {
            "INSUFFICIENT_BALANCE" => Refusal::Balance,
            "TOKEN_NOT_SUPPORTED" => Refusal::NoRoute,
            "SWAP_VALIDATION_FAILED" => Refusal::WouldFail,
            _ => Refusal::Other,
        };
        Some(kind.says(NAME, &format!("{name}: {said}"), key))
    }
}

/// A price for `trade`, or with `trade.with_tx` a firm quote with its transaction.
pub async fn quote(convert: &Convert, source: &AggregatorSource, chain: &str, trade: &Trade) -> Result<Quote, SwapError> {
    let key = api_key(NAME, source, true)?.unwrap_or_default();
    let mut query = vec![
        ("chainId", super::chain_number(chain)),
        ("sellToken", token(trade.from)),
        ("buyToken", token(trade.to)),
        ("sellAmount", trade.amount.to_string()),
    ];
    if let Some(user) = trade.user {
        query.push(("taker", user.to_checksum(None)));
    }
    let path = if trade.with_tx {
        if trade.user.is_none() {
            return Err(SwapError::Refused(Refusal::Other, "A swap through 0x needs the account that swaps (userAddress)".into()));
        }
        let bps = (trade.slippage * 100.0).round().clamp(0.0, 10_000.0) as u64;
        query.push(("slippageBps", bps.to_string()));
        "quote"
    } else {
        "price"
    };
    let url = format!("{}/swap/allowance-holder/{path}", source.url.trim_end_matches('/'));
    let answer = convert.aggregator_get(NAME, &url, &query, &[("0x-api-key", &key), ("0x-version", "v2")]).await?;
    let body = answer.json(NAME, refusal(Some(&key)))?;
    if body["liquidityAvailable"] == Value::Bool(false) {
        return Err(Refusal::Liquidity.says(NAME, "no liquidity is available for this pair and amount (liquidityAvailable: false)", None));
    }
    let amount_out = uint(&body["buyAmount"]).ok_or_else(|| SwapError::SourceUnreadable(format!("The swap source {NAME} answered no buyAmount")))?;
    let tx = if trade.with_tx { Some(swap_call(NAME, &body["transaction"], "gas")?) } else { None };
    let spender = address(&body["allowanceTarget"]).or_else(|| address(&body["issues"]["allowance"]["spender"])).filter(|a| !a.is_zero());
    if let (Some(spender), Asset::Erc20(_)) = (spender, trade.from) {
        convert.remember_spender(chain, source, spender);
    }
    Ok(Quote {
        amount_out,
        // The firm quote's minimum is at the slippage asked; the price's at 0x's default.
        amount_out_min: if trade.with_tx { uint(&body["minBuyAmount"]) } else { None },
        price_impact: None,
        path: vec![super::parse_config_address(&trade.from.address()), super::parse_config_address(&trade.to.address())],
        spender,
        plan: Plan::Aggregator(tx),
    })
}
