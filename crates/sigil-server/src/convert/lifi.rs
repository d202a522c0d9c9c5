//! LI.FI's quote API as a swap source, same-chain swaps only (its documented wire format only):
//! `GET {url}/v1/quote?fromChain&toChain&fromToken&toToken&fromAmount&fromAddress&slippage`
//! (slippage as a fraction: 0.01 is 1 %) answers `estimate {toAmount, toAmountMin,
//! approvalAddress, gasCosts, feeCosts}` and a ready `transactionRequest {to, data, value,
//! gasLimit, gasPrice}` (hex quantities). The key, optional, goes as `x-lifi-api-key`; the native
//! coin is the zero address. A 404 (no quote) is no route, or not enough liquidity when the tools
//! say `INSUFFICIENT_LIQUIDITY` or `AMOUNT_TOO_LOW`. No `integrator` fee or `referrer` is sent.

use serde_json::Value;

use super::{address, api_key, swap_call, uint, Asset, Convert, Plan, Quote, Refusal, SwapError, Trade};
use crate::chains::AggregatorSource;

const NAME: &str = "LI.FI";

/// LI.FI's address for the native coin.
pub const NATIVE: &str = "0x0000000000000000000000000000000000000000";

fn token(asset: Asset) -> String {
    match asset {
        Asset::Native => NATIVE.to_owned(),
        Asset::Erc20(a) => a.to_checksum(None),
    }
}

/// A 4xx's typed meaning: 404 is no quote (typed by the tools' error codes), others say why.
fn refusal(key: Option<&str>) -> impl FnOnce(u16, &Value) -> Option<SwapError> + '_ {
    move |status, body| {
        let said = body["message"].as_str()?;
        let codes: Vec<&str> = body["errors"].as_array().map(|e| e.iter().filter_map(|e| e["code"].as_str()).collect()).unwrap_or_default();
        let kind = if status == 404 || body["code"] == 1002 {
            if codes.iter().any(|c| matches!(*c, "INSUFFICIENT_LIQUIDITY" | "AMOUNT_TOO_LOW")) {
                Refusal::Liquidity
            } else {
                Refusal::NoRoute
            }
        } else if body["code"] == 1007 {
            Refusal::WouldFail
        } else {
            Refusal::Other
        };
        let said = if codes.is_empty() { said.to_owned() } else { format!("{said} ({})", codes.join(", ")) };
        Some(kind.says(NAME, &said, key))
    }
}

/// A quote for `trade`, with its transaction (LI.FI always builds one).
pub async fn quote(convert: &Convert, source: &AggregatorSource, chain: &str, trade: &Trade) -> Result<Quote, SwapError> {
    let key = api_key(NAME, source, false)?;
    let Some(user) = trade.user else {
        return Err(SwapError::Refused(Refusal::Other, "A quote from LI.FI needs the account that swaps (userAddress)".into()));
    };
    let number = super::chain_number(chain);
    let query = [
        ("fromChain", number.clone()),
        ("toChain", number),
        ("fromToken", token(trade.from)),
        ("toToken", token(trade.to)),
        ("fromAmount", trade.amount.to_string()),
        ("fromAddress", user.to_checksum(None)),
        // Through whole basis points, so 0.3 % is sent as 0.003, not 0.0029999999999999996.
        ("slippage", ((trade.slippage * 100.0).round() / 10_000.0).to_string()),
    ];
    let url = format!("{}/v1/quote", source.url.trim_end_matches('/'));
    let headers: Vec<(&str, &str)> = key.as_deref().map(|k| ("x-lifi-api-key", k)).into_iter().collect();
    let answer = convert.aggregator_get(NAME, &url, &query, &headers).await?;
    let body = answer.json(NAME, refusal(key.as_deref()))?;
    let estimate = &body["estimate"];
    let amount_out = uint(&estimate["toAmount"]).ok_or_else(|| SwapError::SourceUnreadable(format!("The swap source {NAME} answered no estimate.toAmount")))?;
    let tx = if trade.with_tx { Some(swap_call(NAME, &body["transactionRequest"], "gasLimit")?) } else { None };
    let spender = address(&estimate["approvalAddress"]).filter(|a| !a.is_zero());
    if let (Some(spender), Asset::Erc20(_)) = (spender, trade.from) {
        convert.remember_spender(chain, source, spender);
    }
    Ok(Quote {
        amount_out,
        amount_out_min: uint(&estimate["toAmountMin"]),
        price_impact: None,
        path: vec![super::parse_config_address(&trade.from.address()), super::parse_config_address(&trade.to.address())],
        spender,
        plan: Plan::Aggregator(tx),
    })
}
