//! 1inch's Swap API v6 as a swap source (its documented wire format only): a quote is
//! `GET {url}/swap/v6.0/{chain}/quote?src&dst&amount` (`dstAmount`), a swap
//! `GET .../swap?src&dst&amount&from&origin&slippage&disableEstimate` (`dstAmount` and
//! `tx {from, to, data, value, gas, gasPrice}`), the contract to approve
//! `GET .../approve/spender` (`address`, kept per chain). The key goes as
//! `Authorization: Bearer <key>`; the native coin is 0xEeee...EEeE; slippage is in percent. No
//! referrer or fee parameter is sent. A 400's `description` is passed on, typed where 1inch's
//! documented messages say what it is (insufficient liquidity, not enough balance or allowance,
//! cannot estimate).

use alloy_primitives::Address;
use serde_json::Value;

use super::{address, api_key, swap_call, uint, Asset, Convert, Plan, Quote, Refusal, SwapError, Trade};
use crate::chains::AggregatorSource;

const NAME: &str = "1inch";

/// 1inch's placeholder for the native coin.
pub const NATIVE: &str = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

fn token(asset: Asset) -> String {
    match asset {
        Asset::Native => NATIVE.to_owned(),
        Asset::Erc20(a) => a.to_checksum(None),
    }
}

/// `{url}/swap/v6.0/{chain}/{path}`.
fn endpoint(source: &AggregatorSource, chain: &str, path: &str) -> String {
    format!("{}/swap/v6.0/{}/{path}", source.url.trim_end_matches('/'), super::chain_number(chain))
}

/// A 4xx's typed meaning, from its `description` (or `error`).
fn refusal(key: Option<&str>) -> impl FnOnce(u16, &Value) -> Option<SwapError> + '_ {
    move |_, body| {
        let said = body["description"].as_str().or_else(|| body["error"].as_str())?;
        let lower = said.to_ascii_lowercase();
        let kind = if lower.contains("insufficient liquidity") {
            Refusal::Liquidity
        } else if lower.contains("not enough") && lower.contains("allowance") {
            Refusal::Allowance
        } else if lower.contains("not enough") && lower.contains("balance") {
            Refusal::Balance
        } else if lower.contains("cannot estimate") {
            Refusal::WouldFail
        } else {
            Refusal::Other
        };
        Some(kind.says(NAME, said, key))
    }
}

async fn get(convert: &Convert, source: &AggregatorSource, chain: &str, path: &str, query: &[(&str, String)]) -> Result<Value, SwapError> {
    let key = api_key(NAME, source, true)?.unwrap_or_default();
    let bearer = format!("Bearer {key}");
    let answer = convert.aggregator_get(NAME, &endpoint(source, chain, path), query, &[("authorization", &bearer)]).await?;
    answer.json(NAME, refusal(Some(&key)))
}

/// The router 1inch's swaps are approved to on `chain` (asked once, then kept).
pub async fn spender(convert: &Convert, source: &AggregatorSource, chain: &str) -> Result<Address, SwapError> {
    if let Some(known) = convert.known_spender(chain, source) {
        return Ok(known);
    }
    let body = get(convert, source, chain, "approve/spender", &[]).await?;
    let spender = address(&body["address"]).ok_or_else(|| SwapError::SourceUnreadable(format!("The swap source {NAME} names no spender")))?;
    convert.remember_spender(chain, source, spender);
    Ok(spender)
}

/// A quote for `trade`, or with `trade.with_tx` its swap transaction.
pub async fn quote(convert: &Convert, source: &AggregatorSource, chain: &str, trade: &Trade) -> Result<Quote, SwapError> {
    let mut query = vec![("src", token(trade.from)), ("dst", token(trade.to)), ("amount", trade.amount.to_string())];
    let asked = async {
        if trade.with_tx {
            let user = trade.user.map(|u| u.to_checksum(None)).unwrap_or_default();
            query.extend([
                ("from", user.clone()),
                ("origin", user),
                ("slippage", trade.slippage.to_string()),
                ("disableEstimate", (!trade.estimate).to_string()),
            ]);
            get(convert, source, chain, "swap", &query).await
        } else {
            get(convert, source, chain, "quote", &query).await
        }
    };
    let (body, spender) = tokio::join!(asked, spender(convert, source, chain));
    let (body, spender) = (body?, spender?);
    let amount_out = uint(&body["dstAmount"]).ok_or_else(|| SwapError::SourceUnreadable(format!("The swap source {NAME} answered no dstAmount")))?;
    let tx = if trade.with_tx { Some(swap_call(NAME, &body["tx"], "gas")?) } else { None };
    Ok(Quote {
        amount_out,
        amount_out_min: None,
        price_impact: None,
        path: vec![super::parse_config_address(&trade.from.address()), super::parse_config_address(&trade.to.address())],
        spender: Some(spender),
        plan: Plan::Aggregator(tx),
    })
}
