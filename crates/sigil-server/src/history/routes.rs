//! GET /v1/account/{address}/history: an account's transactions on one chain, newest first, in
//! AppKit's shape (so an AppKit client pointed at Sigil shows them too), from the indexer's
//! tables (EVM) or the chain's node (Solana, solana.rs). Pages of 20 behind an opaque cursor;
//! spam is left out unless asked for.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use sigil_core::amount;
use sigil_core::caip::ChainId;
use sigil_core::evm::checksummed;
use utoipa::{IntoParams, ToSchema};

use super::store::{self, Kind, TokenRow, TransferRow, TxRow};
use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::families::Family;
use crate::paging;
use crate::projects::Project;
use crate::query::text;
use crate::AppState;

/// Transactions per page.
pub const PAGE: i64 = 20;

/// How long a page stays in the page cache. What this process indexes takes effect at once
/// (the key holds its count of index writes); another process's writes within this long.
pub const PAGE_TTL: std::time::Duration = std::time::Duration::from_secs(5);
pub const PAGE_CACHE_MAX: usize = 10_000;

/// Recent EVM pages by (this process's index writes, project, chain, address, cursor,
/// includeSpam): a page is two indexed queries, and an Activity tab asks the same first page
/// again while a send is pending.
pub type PageCache = crate::cache::TtlCache<(u64, String, String, String, String, bool), HistoryResponse>;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// CAIP-2 chain id; a chain that is neither indexed (EVM) nor a configured Solana chain
    /// gives an empty list.
    #[serde(rename = "chainId")]
    #[param(rename = "chainId", required = true)]
    pub chain_id: Option<String>,
    /// The `next` of the previous page.
    pub cursor: Option<String>,
    /// Include transactions flagged as spam (address poisoning, lookalike tokens).
    #[serde(rename = "includeSpam")]
    #[param(rename = "includeSpam")]
    pub include_spam: Option<bool>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryResponse {
    pub data: Vec<HistoryTransaction>,
    /// The cursor of the next page; null on the last.
    pub next: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryTransaction {
    /// CAIP-2 chain id and transaction hash: eip155:1:0x...
    pub id: String,
    pub metadata: Metadata,
    pub transfers: Vec<Transfer>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    /// RFC 3339, UTC, from the block's timestamp.
    pub mined_at: String,
    pub chain: String,
    /// confirmed or failed.
    pub status: &'static str,
    /// send, receive, mint, burn, approve, trade or execute.
    pub operation_type: &'static str,
    /// The transaction's sender (EIP-55).
    pub sent_from: String,
    /// The called account or created contract (EIP-55).
    pub sent_to: String,
    pub hash: String,
    /// null where the chain has none (Solana) or its node did not give it.
    pub nonce: Option<i64>,
    /// Why the transaction is hidden by default; null when it is not.
    pub spam: Option<Spam>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Spam {
    /// zero-value or lookalike.
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Transfer {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fungible_info: Option<FungibleInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nft_info: Option<NftInfo>,
    /// in, out or self.
    pub direction: &'static str,
    pub quantity: Quantity,
    /// Fiat value (0: not priced).
    pub value: f64,
    pub price: f64,
    /// Who it moved from and to (as in Zerion's transfers): a token's receiver, which the
    /// transaction's sentTo (the token contract) does not name.
    pub sender: String,
    pub recipient: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FungibleInfo {
    pub name: String,
    pub symbol: String,
    pub icon: Url,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NftInfo {
    pub name: String,
    pub content: NftContent,
    pub flags: NftFlags,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NftContent {
    pub preview: Url,
    pub detail: Url,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NftFlags {
    pub is_spam: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Url {
    pub url: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Quantity {
    /// Exact amount in whole tokens (NFTs: a count), as a decimal string.
    pub numeric: String,
}

/// The opaque cursor: the (block, transaction index) the next page starts below.
fn encode_cursor(tx: &TxRow) -> String {
    paging::encode(&format!("{}.{}", tx.block, tx.tx_index))
}

fn decode_cursor(cursor: &str) -> Option<(i64, i64)> {
    let text = paging::decode(cursor)?;
    let (block, index) = text.split_once('.')?;
    Some((paging::number(block)?, paging::number(index)?))
}

/// Unix seconds as RFC 3339 in UTC (days to a civil date: Howard Hinnant's algorithm).
pub fn rfc3339(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// A token's icon as balances give it (`token` None: the chain's coin): the coin's and listed
/// tokens' only, with the asking project's id (image routes are behind the project gate); ""
/// for any other token (the web shows a glyph).
pub(super) fn icon(state: &AppState, project: &Project, chain: &ChainConfig, token: Option<&str>) -> String {
    let mut url = crate::account::routes::token_icon(state, chain, token);
    crate::account::routes::for_project(state, project, &mut url);
    url
}

fn transfer(state: &AppState, project: &Project, chain: &ChainConfig, address: &str, t: &TransferRow, token: Option<&TokenRow>, spam: bool) -> Transfer {
    let direction = match (t.sender == address, t.recipient == address) {
        (true, true) => "self",
        (true, false) => "out",
        _ => "in",
    };
    let (name, symbol, decimals) = match (t.kind.is_coin(), token) {
        (true, _) => (chain.native.name.clone(), chain.native.symbol.clone(), chain.native.decimals),
        (false, Some(tk)) => (tk.name.clone(), tk.symbol.clone(), u8::try_from(tk.decimals).unwrap_or(0)),
        (false, None) => (String::new(), String::new(), 0),
    };
    let (fungible_info, nft_info, numeric) = if t.kind.is_nft() {
        let name = if name.is_empty() { format!("#{}", t.token_id) } else { format!("{name} #{}", t.token_id) };
        let empty = || Url { url: String::new() };
        (None, Some(NftInfo { name, content: NftContent { preview: empty(), detail: empty() }, flags: NftFlags { is_spam: spam } }), t.amount.clone())
    } else {
        let url = icon(state, project, chain, (!t.kind.is_coin()).then_some(t.token.as_str()));
        (Some(FungibleInfo { name, symbol, icon: Url { url } }), None, amount::format_units(&t.amount, decimals))
    };
    Transfer {
        fungible_info,
        nft_info,
        direction,
        quantity: Quantity { numeric },
        value: 0.0,
        price: 0.0,
        sender: checksummed(&t.sender),
        recipient: checksummed(&t.recipient),
    }
}

/// Asks the chain's node for the nonces the index does not have yet (it read the chain without
/// transaction bodies) and keeps them; a node that does not answer in time leaves them null.
async fn fill_nonces(state: &AppState, chain: &str, rows: &mut [(Option<String>, TxRow)]) {
    let missing: Vec<String> = rows.iter().filter(|(_, tx)| tx.nonce.is_none()).map(|(_, tx)| tx.hash.clone()).collect();
    if missing.is_empty() {
        return;
    }
    let source = super::evm::Source::new(state.rpc.clone(), chain);
    let nonces = match tokio::time::timeout(NONCE_WAIT, source.nonces(&missing)).await {
        Ok(Ok(nonces)) => nonces,
        Ok(Err(e)) => return tracing::debug!(chain, error = %e, "nonces not read"),
        Err(_) => return tracing::debug!(chain, "nonces not read in time"),
    };
    let found: HashMap<String, i64> = missing.into_iter().zip(nonces).filter_map(|(h, n)| n.map(|n| (h, n))).collect();
    for (_, tx) in rows.iter_mut() {
        tx.nonce = tx.nonce.or_else(|| found.get(&tx.hash).copied());
    }
    let found: Vec<(String, i64)> = found.into_iter().collect();
    if let Err(e) = store::save_nonces(&state.db, chain, &found).await {
        tracing::warn!(chain, error = %e, "nonces not stored");
    }
}

/// How long a page waits for the nonces it lacks.
const NONCE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// An account's transactions on one chain, newest first, 20 a page: on EVM chains from Sigil's
/// own index (native and token transfers: ERC-20, ERC-721, ERC-1155; approvals and contract
/// calls), on Solana chains from the chain's node (SOL and SPL token changes of the account).
#[utoipa::path(get, path = "/v1/account/{address}/history", tag = "blockchain",
    params(("address" = String, Path, description = "The account's address (EVM: 40 hex, optional 0x, any case; Solana: base58)"), HistoryQuery, crate::query::ProjectQuery),
    responses((status = 200, body = HistoryResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 502, body = crate::error::ErrorBody, description = "A Solana chain's node failed")))]
pub async fn history(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    Path(address): Path<String>,
    Query(query): Query<HistoryQuery>,
) -> ApiResult<Json<HistoryResponse>> {
    let chain_id = text(&query.chain_id).ok_or_else(|| ApiError::invalid_param("chainId", "required, e.g. eip155:1"))?;
    let parsed: ChainId = chain_id.parse().map_err(|e| ApiError::invalid_param("chainId", e))?;
    let family = parsed.known_namespace().and_then(Family::of_namespace);
    let owner = match family {
        Some(family) => family.check_address(&address).map_err(|expected| ApiError::invalid_param("address", format!("expected {expected}")))?,
        None => address.clone(),
    };
    let empty = || Ok(Json(HistoryResponse { data: Vec::new(), next: None }));
    // History turned off (`--history-enabled false`) is off on every chain: nothing indexed is
    // shown, and no Solana node is asked.
    if !state.config.settings.history.enabled {
        return empty();
    }
    // Solana: answered from the chain's node (no index needed), unless the chain turns history off.
    if family == Some(Family::Solana) {
        let chain = state.rpc.chains().get(&parsed.to_string()).filter(|c| c.history.enabled != Some(false));
        return match chain {
            Some(chain) => super::solana::history(&state, &project, chain, &owner, text(&query.cursor)).await.map(Json),
            None => empty(),
        };
    }
    let before = text(&query.cursor).map(|c| decode_cursor(c).ok_or_else(|| ApiError::invalid_param("cursor", "not a cursor this server gave"))).transpose()?;
    let Some(chain) = state.rpc.chains().get(&parsed.to_string()).filter(|c| super::is_indexed(c)) else { return empty() };
    let include_spam = query.include_spam.unwrap_or(false);
    let key = (store::writes(), project.id.clone(), chain.id.clone(), owner.clone(), text(&query.cursor).unwrap_or("").to_owned(), include_spam);
    if let Some(page) = state.history_pages.get(&key) {
        return Ok(Json(page));
    }
    let mut rows = store::page(&state.db, &chain.id, &owner, before, include_spam, PAGE + 1).await?;
    // The bottom of the index: the chain's history upstream fills what is older, once (a
    // page that still waits for it is not cached).
    let mut cache = true;
    if rows.len() as i64 <= PAGE {
        match super::upstream::fill(&state.db, &state.history_upstreams, chain, &owner).await {
            super::upstream::Fill::Stored => rows = store::page(&state.db, &chain.id, &owner, before, include_spam, PAGE + 1).await?,
            super::upstream::Fill::NotYet => cache = false,
            super::upstream::Fill::Done => {}
        }
    }
    let next = (rows.len() as i64 > PAGE).then(|| {
        rows.truncate(PAGE as usize);
        encode_cursor(&rows[rows.len() - 1].1)
    });
    fill_nonces(&state, &chain.id, &mut rows).await;
    let hashes: Vec<String> = rows.iter().map(|(_, tx)| tx.hash.clone()).collect();
    let mut by_tx: HashMap<String, Vec<(TransferRow, Option<TokenRow>)>> = HashMap::new();
    for (t, token) in store::transfers_of(&state.db, &chain.id, &owner, &hashes).await? {
        by_tx.entry(t.hash.clone()).or_default().push((t, token));
    }
    let data = rows
        .into_iter()
        .map(|(spam, tx)| {
            let moves = by_tx.remove(&tx.hash).unwrap_or_default();
            let all: Vec<&TransferRow> = moves.iter().map(|(t, _)| t).collect();
            let operation_type = super::operation(&owner, &all);
            let transfers = moves
                .iter()
                .filter(|(t, _)| t.kind != Kind::Approval)
                .map(|(t, token)| transfer(&state, &project, chain, &owner, t, token.as_ref(), spam.is_some()))
                .collect();
            HistoryTransaction {
                id: format!("{}:{}", chain.id, tx.hash),
                metadata: Metadata {
                    mined_at: rfc3339(tx.mined_at),
                    chain: chain.id.clone(),
                    status: if tx.succeeded { "confirmed" } else { "failed" },
                    operation_type,
                    sent_from: checksummed(&tx.sender),
                    sent_to: checksummed(&tx.recipient),
                    hash: tx.hash,
                    nonce: tx.nonce,
                    spam: spam.map(|reason| Spam { reason }),
                },
                transfers,
            }
        })
        .collect();
    let page = HistoryResponse { data, next };
    if cache {
        state.history_pages.put(key, page.clone());
    }
    Ok(Json(page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_795_716_000), "2026-11-26T18:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn cursors_round_trip_and_refuse_anything_else() {
        let tx = TxRow {
            hash: String::new(),
            block: 123,
            tx_index: 4,
            mined_at: 0,
            sender: String::new(),
            recipient: String::new(),
            value: String::new(),
            nonce: Some(0),
            succeeded: true,
        };
        assert_eq!(decode_cursor(&encode_cursor(&tx)), Some((123, 4)));
        for bad in ["", "abc", "MTIz", "LTEuMg", "MS4rMg"] {
            assert_eq!(decode_cursor(bad), None, "{bad}");
        }
    }
}
