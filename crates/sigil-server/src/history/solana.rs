//! Solana history, answered from the chain's node: the node is the index. A page is one
//! getSignaturesForAddress (20, newest first, before the cursor's signature) and a
//! getTransaction for each signature (8 at a time), each read from its balances: what the
//! account's SOL and SPL token accounts held before and after. Nothing is cached: a page asked
//! again right after a send lists it.
//!
//! What the node lists is what names the account among a transaction's keys: tokens received
//! into a token account of the account without the account itself among the keys (no account
//! creation in the same transaction) are in that token account's history, not the account's.

use std::collections::BTreeMap;

use futures::{StreamExt, TryStreamExt};
use serde_json::{json, Value};
use sigil_core::amount;

use super::routes::{icon, rfc3339, FungibleInfo, HistoryResponse, HistoryTransaction, Metadata, Quantity, Transfer, Url, PAGE};
use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::guards::UpstreamBudget;
use crate::paging;
use crate::projects::Project;
use crate::rpc::jsonrpc::Reply;
use crate::AppState;

/// getTransaction calls in flight at once for one page.
const CONCURRENCY: usize = 8;

/// The opaque cursor: the last listed signature, base64url.
pub fn encode_cursor(signature: &str) -> String {
    paging::encode(signature)
}

/// The signature a cursor names, when it is a cursor this server gave (a 64-byte base58 signature).
pub fn decode_cursor(cursor: &str) -> Option<String> {
    let signature = paging::decode(cursor)?;
    (bs58::decode(&signature).into_vec().ok()?.len() == 64).then_some(signature)
}

/// A node that failed or refused: 502, the server's JSON error.
fn node_error(method: &str, why: impl std::fmt::Display) -> ApiError {
    ApiError {
        cause: Some(format!("{method}: {why}")),
        ..ApiError::new(axum::http::StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, format!("The chain's node did not answer {method}"))
    }
}

async fn call(state: &AppState, chain: &str, method: &str, params: Value) -> ApiResult<Value> {
    match state.rpc.call(chain, method, Some(&params.to_string())).await.map_err(|e| node_error(method, e))? {
        Reply::Result(raw) => serde_json::from_str(&raw).map_err(|e| node_error(method, e)),
        Reply::Error(raw) => Err(node_error(method, raw)),
    }
}

/// One page of `owner`'s transactions on `chain`, newest first, after the cursor's signature.
/// Each upstream call is one of the project's upstream budget: the listing, then one per
/// transaction read (up to 21 a page).
pub async fn history(state: &AppState, project: &Project, chain: &ChainConfig, owner: &str, cursor: Option<&str>) -> ApiResult<HistoryResponse> {
    let before = cursor.map(|c| decode_cursor(c).ok_or_else(|| ApiError::invalid_param("cursor", "not a cursor this server gave"))).transpose()?;
    UpstreamBudget::take(state, project, 1)?;
    let mut options = json!({"limit": PAGE, "commitment": "confirmed"});
    if let Some(before) = &before {
        options["before"] = json!(before);
    }
    let listed = call(state, &chain.id, "getSignaturesForAddress", json!([owner, options])).await?;
    let signatures: Vec<String> = listed
        .as_array()
        .ok_or_else(|| node_error("getSignaturesForAddress", "not a list"))?
        .iter()
        .filter_map(|s| s["signature"].as_str().map(str::to_owned))
        .take(PAGE as usize)
        .collect();
    if !signatures.is_empty() {
        UpstreamBudget::take(state, project, signatures.len())?;
    }
    let transactions: Vec<(String, Value)> = futures::stream::iter(signatures.iter().cloned())
        .map(|signature| async move {
            let params = json!([signature, {"encoding": "json", "commitment": "confirmed", "maxSupportedTransactionVersion": 0}]);
            call(state, &chain.id, "getTransaction", params).await.map(|tx| (signature, tx))
        })
        .buffered(CONCURRENCY)
        .try_collect()
        .await?;
    let data = transactions
        .iter()
        .filter_map(|(signature, tx)| {
            let read = read(signature, tx)?;
            Some(item(state, project, chain, owner, &read))
        })
        .collect();
    let next = (signatures.len() as i64 >= PAGE).then(|| signatures.last().map(|s| encode_cursor(s))).flatten();
    Ok(HistoryResponse { data, next })
}

/// An SPL token account's balance as a transaction's meta lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenBalance {
    pub account_index: usize,
    pub mint: String,
    pub owner: Option<String>,
    pub amount: u128,
    pub decimals: u8,
}

/// What history reads of a getTransaction answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub signature: String,
    pub block_time: i64,
    pub failed: bool,
    pub fee: u64,
    /// Every account key: the message's, then the loaded ones (writable, read-only), as the
    /// balances are indexed.
    pub keys: Vec<String>,
    pub pre: Vec<u64>,
    pub post: Vec<u64>,
    pub pre_tokens: Vec<TokenBalance>,
    pub post_tokens: Vec<TokenBalance>,
    /// The program of the first instruction.
    pub program: Option<String>,
}

fn token_balances(list: &Value) -> Vec<TokenBalance> {
    list.as_array()
        .map(|l| {
            l.iter()
                .filter_map(|b| {
                    let ui = &b["uiTokenAmount"];
                    Some(TokenBalance {
                        account_index: usize::try_from(b["accountIndex"].as_u64()?).ok()?,
                        mint: b["mint"].as_str()?.to_owned(),
                        owner: b["owner"].as_str().map(str::to_owned),
                        amount: ui["amount"].as_str()?.parse().ok()?,
                        decimals: u8::try_from(ui["decimals"].as_u64()?).ok()?,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

fn numbers(list: &Value) -> Vec<u64> {
    list.as_array().map(|l| l.iter().map(|n| n.as_u64().unwrap_or(0)).collect()).unwrap_or_default()
}

/// Reads a getTransaction answer (json or jsonParsed); None for a transaction the node does not have.
pub fn read(signature: &str, tx: &Value) -> Option<Read> {
    let meta = tx.get("meta").filter(|m| m.is_object())?;
    let message = &tx["transaction"]["message"];
    let key = |k: &Value| k.as_str().or_else(|| k["pubkey"].as_str()).map(str::to_owned);
    let mut keys: Vec<String> = message["accountKeys"].as_array()?.iter().filter_map(key).collect();
    // jsonParsed lists the loaded keys among accountKeys already; json lists them in the meta.
    if message["accountKeys"].as_array().is_some_and(|k| k.first().is_some_and(Value::is_string)) {
        for part in ["writable", "readonly"] {
            keys.extend(meta["loadedAddresses"][part].as_array().into_iter().flatten().filter_map(key));
        }
    }
    let first = message["instructions"].as_array().and_then(|i| i.first());
    let program = first.and_then(|i| {
        i["programId"].as_str().map(str::to_owned).or_else(|| i["programIdIndex"].as_u64().and_then(|n| keys.get(usize::try_from(n).ok()?).cloned()))
    });
    Some(Read {
        signature: signature.to_owned(),
        block_time: tx["blockTime"].as_i64().unwrap_or(0),
        failed: !meta["err"].is_null(),
        fee: meta["fee"].as_u64().unwrap_or(0),
        pre: numbers(&meta["preBalances"]),
        post: numbers(&meta["postBalances"]),
        pre_tokens: token_balances(&meta["preTokenBalances"]),
        post_tokens: token_balances(&meta["postTokenBalances"]),
        keys,
        program,
    })
}

/// What moved for one account of one asset: its change in the smallest unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The mint; None for SOL.
    pub mint: Option<String>,
    pub delta: i128,
    pub decimals: u8,
}

/// SOL changes of every account key, the fee given back to the fee payer (the first key).
fn sol_deltas(tx: &Read) -> Vec<(&str, i128)> {
    tx.keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let fee = if i == 0 { i128::from(tx.fee) } else { 0 };
            // Two u64s and a fee: no i128 overflows.
            let delta = i128::from(tx.post.get(i).copied().unwrap_or(0)) - i128::from(tx.pre.get(i).copied().unwrap_or(0)) + fee;
            (k.as_str(), delta)
        })
        .collect()
}

/// Token changes per (owner, mint), over every token account of the owner (absent: 0). A
/// change that does not fit an i128 (no real token's) is left out.
fn token_deltas(tx: &Read) -> BTreeMap<(String, String), (i128, u8)> {
    let mut sums: BTreeMap<(String, String), (Option<i128>, u8)> = BTreeMap::new();
    for (list, sign) in [(&tx.pre_tokens, -1i128), (&tx.post_tokens, 1)] {
        for b in list {
            let Some(owner) = &b.owner else { continue };
            let entry = sums.entry((owner.clone(), b.mint.clone())).or_insert((Some(0), b.decimals));
            entry.0 = entry.0.and_then(|sum| sum.checked_add(sign * i128::try_from(b.amount).ok()?));
        }
    }
    sums.into_iter()
        .filter_map(|(key, (sum, decimals))| match sum {
            Some(sum) => Some((key, (sum, decimals))),
            None => {
                tracing::debug!(signature = %tx.signature, mint = %key.1, "a token balance change too large to read: skipped");
                None
            }
        })
        .collect()
}

/// What moved for `owner`: each token, in mint order, then SOL (without the fee it paid; beside
/// a token, SOL is mostly the rent of an account the transaction made, so it comes last).
pub fn moves(tx: &Read, owner: &str) -> Vec<Move> {
    let mut out: Vec<Move> = token_deltas(tx)
        .into_iter()
        .filter(|((who, _), (delta, _))| who == owner && *delta != 0)
        .map(|((_, mint), (delta, decimals))| Move { mint: Some(mint), delta, decimals })
        .collect();
    let sol = sol_deltas(tx).into_iter().filter(|(k, _)| *k == owner).try_fold(0i128, |sum, (_, d)| sum.checked_add(d)).unwrap_or(0);
    if sol != 0 {
        out.push(Move { mint: None, delta: sol, decimals: 9 });
    }
    out
}

/// The other side of what moved for `owner`: the owner whose balance of its main asset (a
/// token before SOL, the largest change) moved the other way most; without one, the fee
/// payer, else the first instruction's program.
pub fn counterparty(tx: &Read, owner: &str, moved: &[Move]) -> String {
    let main = moved.iter().filter(|m| m.mint.is_some()).max_by_key(|m| m.delta.unsigned_abs()).or_else(|| moved.first());
    let other = main.and_then(|m| {
        let opposite = |d: i128| d.signum() == -m.delta.signum();
        let candidates: Vec<(String, i128)> = match &m.mint {
            Some(mint) => token_deltas(tx).into_iter().filter(|((who, k), _)| k == mint && who != owner).map(|((who, _), (d, _))| (who, d)).collect(),
            None => sol_deltas(tx).into_iter().filter(|(k, _)| *k != owner).map(|(k, d)| (k.to_owned(), d)).collect(),
        };
        candidates.into_iter().filter(|(_, d)| opposite(*d)).max_by_key(|(_, d)| d.unsigned_abs()).map(|(who, _)| who)
    });
    let payer = tx.keys.first().filter(|k| *k != owner).cloned();
    other.or(payer).or_else(|| tx.program.clone()).unwrap_or_else(|| owner.to_owned())
}

/// send (only out), receive (only in), trade (one asset out, another in), execute (nothing moved).
pub fn operation(moved: &[Move]) -> &'static str {
    let outs: Vec<&Option<String>> = moved.iter().filter(|m| m.delta < 0).map(|m| &m.mint).collect();
    let ins: Vec<&Option<String>> = moved.iter().filter(|m| m.delta > 0).map(|m| &m.mint).collect();
    match (outs.is_empty(), ins.is_empty()) {
        (false, false) if outs.iter().any(|o| !ins.contains(o)) => "trade",
        (false, _) => "send",
        (true, false) => "receive",
        (true, true) => "execute",
    }
}

fn item(state: &AppState, project: &Project, chain: &ChainConfig, owner: &str, tx: &Read) -> HistoryTransaction {
    let moved = moves(tx, owner);
    let other = counterparty(tx, owner, &moved);
    let transfers = moved
        .iter()
        .map(|m| {
            let (name, symbol) = match &m.mint {
                None => (chain.native.name.clone(), chain.native.symbol.clone()),
                Some(mint) => match chain.token(mint) {
                    Some(t) => (t.name.clone(), t.symbol.clone()),
                    None => {
                        let short = format!("{}…", mint.chars().take(4).collect::<String>());
                        (format!("Token {short}"), short)
                    }
                },
            };
            let url = icon(state, project, chain, m.mint.as_deref());
            Transfer {
                fungible_info: Some(FungibleInfo { name, symbol, icon: Url { url } }),
                nft_info: None,
                direction: if m.delta < 0 { "out" } else { "in" },
                quantity: Quantity { numeric: amount::format_units(&m.delta.unsigned_abs().to_string(), m.decimals) },
                value: 0.0,
                price: 0.0,
                sender: if m.delta < 0 { owner.to_owned() } else { other.clone() },
                recipient: if m.delta < 0 { other.clone() } else { owner.to_owned() },
            }
        })
        .collect();
    HistoryTransaction {
        id: format!("{}:{}", chain.id, tx.signature),
        metadata: Metadata {
            mined_at: rfc3339(tx.block_time),
            chain: chain.id.clone(),
            status: if tx.failed { "failed" } else { "confirmed" },
            operation_type: operation(&moved),
            sent_from: tx.keys.first().cloned().unwrap_or_default(),
            sent_to: other,
            hash: tx.signature.clone(),
            nonce: None,
            spam: None,
        },
        transfers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "Me11111111111111111111111111111111111111111";
    const YOU: &str = "You1111111111111111111111111111111111111111";
    const MINT: &str = "Mint111111111111111111111111111111111111111";

    fn balance(index: u64, owner: &str, amount: &str) -> Value {
        json!({"accountIndex": index, "mint": MINT, "owner": owner, "programId": "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
            "uiTokenAmount": {"amount": amount, "decimals": 6, "uiAmountString": "x"}})
    }

    #[test]
    fn a_sol_send_is_read_without_its_fee_on_both_sides() {
        // As getTransaction (json) answers a System Program transfer of 1.5 SOL.
        let tx = json!({"blockTime": 1_795_716_000, "meta": {"err": null, "fee": 5000,
            "preBalances": [10_000_000_000u64, 0, 1], "postBalances": [8_499_995_000u64, 1_500_000_000u64, 1],
            "preTokenBalances": [], "postTokenBalances": [], "loadedAddresses": {"writable": [], "readonly": []}},
            "transaction": {"message": {"accountKeys": [ME, YOU, "11111111111111111111111111111111"],
                "instructions": [{"programIdIndex": 2, "accounts": [0, 1], "data": "x"}]}}});
        let read = read("sig", &tx).unwrap();
        assert_eq!(read.program.as_deref(), Some("11111111111111111111111111111111"));
        let mine = moves(&read, ME);
        assert_eq!(mine, vec![Move { mint: None, delta: -1_500_000_000, decimals: 9 }]);
        assert_eq!((operation(&mine), counterparty(&read, ME, &mine).as_str()), ("send", YOU));
        let yours = moves(&read, YOU);
        assert_eq!(yours, vec![Move { mint: None, delta: 1_500_000_000, decimals: 9 }]);
        assert_eq!((operation(&yours), counterparty(&read, YOU, &yours).as_str()), ("receive", ME));
    }

    #[test]
    fn token_moves_sum_the_owners_accounts_and_a_failure_moves_nothing() {
        // A transferChecked of 2.5 (6 decimals) into an account made in the same transaction (no pre balance).
        let tx = json!({"blockTime": 1, "meta": {"err": null, "fee": 5, "preBalances": [100, 0, 0], "postBalances": [95, 0, 0],
            "preTokenBalances": [balance(1, ME, "10000000")], "postTokenBalances": [balance(1, ME, "7500000"), balance(2, YOU, "2500000")]},
            "transaction": {"message": {"accountKeys": [{"pubkey": ME}, {"pubkey": "a1"}, {"pubkey": "a2"}], "instructions": []}}});
        let read = read("sig", &tx).unwrap();
        let mine = moves(&read, ME);
        assert_eq!(mine, vec![Move { mint: Some(MINT.into()), delta: -2_500_000, decimals: 6 }]);
        assert_eq!(counterparty(&read, ME, &mine), YOU);
        assert_eq!(moves(&read, YOU), vec![Move { mint: Some(MINT.into()), delta: 2_500_000, decimals: 6 }]);
        assert_eq!(operation(&moves(&read, YOU)), "receive");

        let failed = json!({"blockTime": 1, "meta": {"err": {"InstructionError": [0, "Custom"]}, "fee": 5, "preBalances": [100, 7], "postBalances": [95, 7]},
            "transaction": {"message": {"accountKeys": [ME, YOU], "instructions": [{"programId": "Prog", "accounts": [], "data": ""}]}}});
        let read = super::read("sig", &failed).unwrap();
        assert!(read.failed);
        assert!(moves(&read, ME).is_empty());
        assert_eq!(operation(&[]), "execute");
        assert_eq!(counterparty(&read, ME, &[]), "Prog", "nothing moved: the program called");
        assert_eq!(super::read("sig", &Value::Null), None);
    }

    #[test]
    fn balances_too_large_are_skipped_not_a_panic() {
        let big = |index: u64, amount: u128| json!({"accountIndex": index, "mint": MINT, "owner": ME, "uiTokenAmount": {"amount": amount.to_string(), "decimals": 6}});
        // Two accounts of i128::MAX each (their sum overflows), and one above i128::MAX.
        for post in [json!([big(1, i128::MAX as u128), big(2, i128::MAX as u128)]), json!([big(1, u128::MAX)])] {
            let tx = json!({"blockTime": 1, "meta": {"err": null, "fee": 5, "preBalances": [u64::MAX, 0], "postBalances": [0, 0],
                "preTokenBalances": [], "postTokenBalances": post},
                "transaction": {"message": {"accountKeys": [ME, "a1"], "instructions": []}}});
            let read = read("sig", &tx).unwrap();
            let mine = moves(&read, ME);
            assert_eq!(mine, vec![Move { mint: None, delta: -i128::from(u64::MAX) + 5, decimals: 9 }]);
            assert_eq!(counterparty(&read, ME, &mine), ME, "nothing else moved: the account itself");
        }
    }

    #[test]
    fn trades_and_cursors() {
        let out = Move { mint: None, delta: -1, decimals: 9 };
        let r#in = Move { mint: Some(MINT.into()), delta: 1, decimals: 6 };
        assert_eq!(operation(&[out.clone(), r#in]), "trade");
        assert_eq!(operation(&[out]), "send");
        let sig = bs58::encode([7u8; 64]).into_string();
        assert_eq!(decode_cursor(&encode_cursor(&sig)), Some(sig));
        for bad in ["", "abc", &encode_cursor("0OIl"), &encode_cursor(&bs58::encode([1u8; 32]).into_string())] {
            assert_eq!(decode_cursor(bad), None, "{bad}");
        }
    }
}
