//! An address's history older than the index, from the chain's history upstream: an explorer
//! with Blockscout's REST API v2 or Etherscan's API v2 (their documented wire formats only).
//! When an address's pages first reach the bottom of the index, its transactions, token
//! transfers and internal transfers below the chain's `from_block` are read once (bounded by
//! `--history-upstream-timeout` and `--history-upstream-max-records`), turned into the index's
//! own rows and stored with them (rows already stored are kept), so paging goes on into them.
//!
//! A fill is claimed in one statement (`store::claim_upstream_fill`): of concurrent requests
//! one reads the upstream, the others serve what is stored. A failed fill is logged once,
//! without the URL (it may hold the API key), and tried again after `RETRY_AFTER`.
//!
//! What an explorer does not give is made up plainly: a transaction seen only through its
//! transfers (a token received in someone else's transaction) is stored with the first other
//! party of its transfers as its sender, the token (or the paying contract) as its recipient,
//! no nonce unless the explorer gave it, and a position in its block derived from its hash
//! (after the block's known positions).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::time::Instant;

use super::store::{self, Appearance, Kind, TokenRow, TransferRow, TxRow};
use crate::chains::{ChainConfig, HistoryUpstream, UpstreamKind};
use crate::config::HistorySettings;
use crate::db::{self, Db};

/// The largest answer read from an upstream.
const MAX_BYTES: usize = 16 << 20;

/// A failed fill is tried again after this.
pub const RETRY_AFTER: Duration = Duration::from_secs(60);

/// Blockscout's address lists, with the query each is asked with.
const BLOCKSCOUT_LISTS: [(&str, &str); 3] = [("transactions", ""), ("token-transfers", "type=ERC-20%2CERC-721%2CERC-1155"), ("internal-transactions", "")];

/// Etherscan's account actions.
const ETHERSCAN_LISTS: [&str; 5] = ["txlist", "txlistinternal", "tokentx", "tokennfttx", "token1155tx"];

/// Positions made up for transactions an explorer gives no position of start here.
const MADE_UP_POSITION: i64 = 1 << 40;

/// The fetcher of history upstreams: one HTTP client and the bounds of a fill.
pub struct Upstreams {
    client: reqwest::Client,
    /// Fills running at once, on any chain: requests naming ever new addresses cannot start
    /// unbounded work (one past the bound serves the indexed rows and tries again later).
    running: Arc<tokio::sync::Semaphore>,
    timeout: Duration,
    max_records: usize,
    page_size: u32,
}

/// Fills at once at most (see `Upstreams::running`).
const MAX_RUNNING: usize = 4;

/// Why a fill failed. Never holds a URL or the API key.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum UpstreamError {
    #[error("the upstream could not be reached: {0}")]
    Unreachable(String),
    #[error("the upstream answered {0}")]
    Status(u16),
    #[error("the upstream's answer is larger than {MAX_BYTES} bytes")]
    TooLarge,
    #[error("the upstream did not answer in time")]
    Timeout,
    #[error("the upstream refused: {0}")]
    Refused(String),
    #[error("the upstream's answer cannot be read: {0}")]
    Unreadable(String),
    #[error("the API key's environment variable {0} is not set")]
    NoKey(String),
}

/// A top-level transaction as an explorer lists it.
#[derive(Debug, Clone, PartialEq)]
struct FoundTx {
    tx: TxRow,
    known_position: bool,
}

/// A movement as an explorer lists it: `order` is its log index (tokens) or its index among
/// the transaction's internal calls.
#[derive(Debug, Clone, PartialEq)]
struct FoundMove {
    hash: String,
    block: i64,
    mined_at: i64,
    position: Option<i64>,
    nonce: Option<i64>,
    order: i64,
    kind: Kind,
    token: String,
    sender: String,
    recipient: String,
    token_id: String,
    amount: String,
}

/// What one page of one list gave.
#[derive(Debug, Default)]
struct Page {
    txs: Vec<FoundTx>,
    moves: Vec<FoundMove>,
    tokens: Vec<TokenRow>,
    /// Blocks of every record on the page, kept or not.
    blocks: Vec<i64>,
}

/// Where a list goes on from.
#[derive(Debug, Clone)]
enum Cursor {
    First,
    /// Blockscout: the previous page's `next_page_params`.
    Params(Map<String, Value>),
    /// Etherscan: the highest block of the next page.
    EndBlock(i64),
}

struct List {
    name: &'static str,
    cursor: Cursor,
    done: bool,
    /// The lowest block a record of this list was seen at.
    lowest: Option<i64>,
}

impl Upstreams {
    pub fn new(settings: &HistorySettings) -> Upstreams {
        let client = reqwest::Client::builder()
            .timeout(settings.upstream_timeout)
            .connect_timeout(settings.upstream_timeout)
            // A redirect would carry the API key in its query elsewhere: none is followed.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Sigil/", env!("CARGO_PKG_VERSION"), " (history)"))
            .build()
            .expect("the history upstream client builds");
        Upstreams {
            client,
            running: Arc::new(tokio::sync::Semaphore::new(MAX_RUNNING)),
            timeout: settings.upstream_timeout,
            max_records: settings.upstream_max_records as usize,
            page_size: settings.upstream_page_size,
        }
    }
}

/// What `fill` came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// Nothing to do: the chain has no upstream, or the address's older history is stored.
    Done,
    /// Rows were stored now: the page reads again.
    Stored,
    /// Not stored yet: another request fills it, or it failed and waits to be tried again.
    NotYet,
}

/// Makes sure `address`'s history older than the index is stored, when `chain` has a history
/// upstream and this request may fill it. A failure is logged and leaves the indexed rows to
/// be served.
pub async fn fill(db: &Db, upstreams: &Arc<Upstreams>, chain: &ChainConfig, address: &str) -> Fill {
    let (Some(upstream), Some(from_block)) = (&chain.history.upstream, chain.history.from_block) else { return Fill::Done };
    let Ok(permit) = upstreams.running.clone().try_acquire_owned() else {
        return if store::upstream_filled(db, &chain.id, address).await.unwrap_or(false) { Fill::Done } else { Fill::NotYet };
    };
    let now = db::now_ms();
    let until = now + (upstreams.timeout + Duration::from_secs(10)).as_millis() as i64;
    match store::claim_upstream_fill(db, &chain.id, address, now, until).await {
        Ok(true) => {}
        Ok(false) => return if store::upstream_filled(db, &chain.id, address).await.unwrap_or(false) { Fill::Done } else { Fill::NotYet },
        Err(e) => {
            tracing::warn!(chain = %chain.id, error = %e, "the history upstream's fill could not be claimed");
            return Fill::NotYet;
        }
    }
    // Its own task: a request that ends early (its client left) does not stop a fill halfway.
    let (db, upstreams, chain, upstream, address) = (db.clone(), upstreams.clone(), chain.clone(), upstream.clone(), address.to_owned());
    let task = tokio::spawn(async move {
        let _running = permit;
        let read = upstreams.read(&upstream, &chain.id, &address, i64::try_from(from_block).unwrap_or(i64::MAX)).await;
        let written = match read {
            Ok(found) => write(&db, &chain, &address, found).await.map_err(|e| format!("database: {e}")),
            Err(e) => Err(e.to_string()),
        };
        if let Err(why) = &written {
            tracing::warn!(chain = %chain.id, kind = ?upstream.kind, error = %why, "the history upstream failed: indexed rows are served; tried again later");
            if let Err(e) = store::release_upstream_fill(&db, &chain.id, &address, db::now_ms() + RETRY_AFTER.as_millis() as i64).await {
                tracing::debug!(chain = %chain.id, error = %e, "the failed fill's claim was not released: it expires");
            }
        }
        written.is_ok()
    });
    if task.await.unwrap_or(false) {
        Fill::Stored
    } else {
        Fill::NotYet
    }
}

/// What a whole fill read, before it is turned into rows.
#[derive(Debug, Default)]
struct Found {
    txs: Vec<FoundTx>,
    moves: Vec<FoundMove>,
    tokens: Vec<TokenRow>,
}

impl Upstreams {
    /// Every list of `address` below block `below`, a page of each in turn, within the fill's
    /// time and record bounds (a round may pass the record bound by a page a list). When a bound cuts a list short, what the lists gave is kept only
    /// above the lowest block that list reached, so the stored history has no hole.
    async fn read(&self, upstream: &HistoryUpstream, chain: &str, address: &str, below: i64) -> Result<Found, UpstreamError> {
        let key = match &upstream.api_key_env {
            Some(var) => Some(std::env::var(var).ok().filter(|k| !k.is_empty()).ok_or_else(|| UpstreamError::NoKey(var.clone()))?),
            None => None,
        };
        let chain_number = chain.split_once(':').map(|(_, n)| n.to_owned()).unwrap_or_default();
        let names: Vec<&'static str> = match upstream.kind {
            UpstreamKind::Blockscout => BLOCKSCOUT_LISTS.iter().map(|(n, _)| *n).collect(),
            UpstreamKind::Etherscan => ETHERSCAN_LISTS.to_vec(),
        };
        let first = match upstream.kind {
            UpstreamKind::Blockscout => Cursor::First,
            UpstreamKind::Etherscan => Cursor::EndBlock(below - 1),
        };
        let mut lists: Vec<List> = names.into_iter().map(|name| List { name, cursor: first.clone(), done: below <= 0, lowest: None }).collect();
        let deadline = Instant::now() + self.timeout;
        let mut found = Found::default();
        let mut kept = 0usize;
        // A round asks each list not done for its next page; the bounds are checked between
        // rounds, so every list is asked at least once.
        'reading: while lists.iter().any(|l| !l.done) {
            if kept >= self.max_records || Instant::now() >= deadline {
                break;
            }
            for list in lists.iter_mut().filter(|l| !l.done) {
                let asked = async {
                    match upstream.kind {
                        UpstreamKind::Blockscout => self.blockscout_page(&upstream.url, key.as_deref(), address, list).await,
                        UpstreamKind::Etherscan => self.etherscan_page(&upstream.url, key.as_deref(), &chain_number, address, list).await,
                    }
                };
                let page = match tokio::time::timeout_at(deadline, asked).await {
                    Ok(page) => page.map_err(|e| scrub(e, key.as_deref()))?,
                    Err(_) if kept > 0 => break 'reading,
                    Err(_) => return Err(UpstreamError::Timeout),
                };
                if let Some(low) = page.blocks.iter().min() {
                    list.lowest = Some(list.lowest.map_or(*low, |l| l.min(*low)));
                }
                let before = found.txs.len() + found.moves.len();
                found.txs.extend(page.txs.into_iter().filter(|t| t.tx.block < below));
                found.moves.extend(page.moves.into_iter().filter(|m| m.block < below));
                found.tokens.extend(page.tokens);
                kept += found.txs.len() + found.moves.len() - before;
            }
        }
        // A list cut short: only what lies above the lowest block it reached is whole.
        let cut = lists.iter().filter(|l| !l.done).map(|l| l.lowest.unwrap_or(i64::MAX)).max();
        if let Some(cut) = cut {
            found.txs.retain(|t| t.tx.block > cut);
            found.moves.retain(|m| m.block > cut);
        }
        Ok(found)
    }

    /// GETs `url` and reads its JSON, within the size limit.
    async fn get_json(&self, url: &str) -> Result<Value, UpstreamError> {
        let mut res = self.client.get(url).header(reqwest::header::ACCEPT, "application/json").send().await.map_err(http_error)?;
        let status = res.status();
        if !status.is_success() {
            return Err(UpstreamError::Status(status.as_u16()));
        }
        if res.content_length().is_some_and(|n| n > MAX_BYTES as u64) {
            return Err(UpstreamError::TooLarge);
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = res.chunk().await.map_err(http_error)? {
            if bytes.len() + chunk.len() > MAX_BYTES {
                return Err(UpstreamError::TooLarge);
            }
            bytes.extend_from_slice(&chunk);
        }
        serde_json::from_slice(&bytes).map_err(|e| UpstreamError::Unreadable(e.to_string()))
    }

    async fn blockscout_page(&self, base: &str, key: Option<&str>, address: &str, list: &mut List) -> Result<Page, UpstreamError> {
        let extra = BLOCKSCOUT_LISTS.iter().find(|(n, _)| *n == list.name).map_or("", |(_, q)| *q);
        let mut query: Vec<(String, String)> = Vec::new();
        if let Cursor::Params(params) = &list.cursor {
            for (k, v) in params {
                match v {
                    Value::String(s) => query.push((k.clone(), s.clone())),
                    Value::Number(n) => query.push((k.clone(), n.to_string())),
                    Value::Bool(b) => query.push((k.clone(), b.to_string())),
                    _ => {}
                }
            }
        }
        if let Some(key) = key {
            query.push(("apikey".into(), key.to_owned()));
        }
        let encoded = serde_urlencoded::to_string(&query).unwrap_or_default();
        let joined = [extra, encoded.as_str()].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join("&");
        let url = format!("{}/api/v2/addresses/{address}/{}{}{joined}", base.trim_end_matches('/'), list.name, if joined.is_empty() { "" } else { "?" });
        let body = self.get_json(&url).await?;
        let items = body.get("items").and_then(Value::as_array).ok_or_else(|| UpstreamError::Unreadable("no items".into()))?;
        let page = match list.name {
            "transactions" => blockscout_txs(items),
            "token-transfers" => blockscout_transfers(items),
            _ => blockscout_internals(items),
        };
        match body.get("next_page_params").and_then(Value::as_object) {
            Some(next) if !next.is_empty() && !items.is_empty() => list.cursor = Cursor::Params(next.clone()),
            _ => list.done = true,
        }
        Ok(page)
    }

    async fn etherscan_page(&self, base: &str, key: Option<&str>, chain_number: &str, address: &str, list: &mut List) -> Result<Page, UpstreamError> {
        let Cursor::EndBlock(end) = list.cursor else { return Err(UpstreamError::Unreadable("no end block".into())) };
        let mut query: Vec<(&str, String)> = vec![
            ("chainid", chain_number.to_owned()),
            ("module", "account".into()),
            ("action", list.name.into()),
            ("address", address.to_owned()),
            ("startblock", "0".into()),
            ("endblock", end.to_string()),
            ("page", "1".into()),
            ("offset", self.page_size.to_string()),
            ("sort", "desc".into()),
        ];
        if let Some(key) = key {
            query.push(("apikey", key.to_owned()));
        }
        let url = format!("{}/v2/api?{}", base.trim_end_matches('/'), serde_urlencoded::to_string(&query).unwrap_or_default());
        let body = self.get_json(&url).await?;
        let records = match body.get("result") {
            Some(Value::Array(records)) => records.clone(),
            _ => {
                // "No transactions found" (and its kin) is an empty list; anything else refuses.
                let message = body.get("message").and_then(Value::as_str).unwrap_or("").to_owned();
                if message.to_ascii_lowercase().starts_with("no ") {
                    Vec::new()
                } else {
                    let detail = body.get("result").and_then(Value::as_str).unwrap_or("");
                    return Err(UpstreamError::Refused(format!("{} {message} {detail}", list.name).trim().chars().take(200).collect()));
                }
            }
        };
        let mut page = etherscan_records(list.name, &records);
        if records.len() < self.page_size as usize {
            list.done = true;
            return Ok(page);
        }
        // A full page: the next asks from its lowest block again, so what this page holds of
        // that block is dropped here (all of it comes next), unless the page is that block alone.
        let lowest = *page.blocks.iter().min().unwrap_or(&end);
        if lowest >= end || page.blocks.iter().all(|b| *b == lowest) {
            list.cursor = Cursor::EndBlock(lowest - 1);
        } else {
            page.txs.retain(|t| t.tx.block > lowest);
            page.moves.retain(|m| m.block > lowest);
            list.cursor = Cursor::EndBlock(lowest);
        }
        if lowest <= 0 {
            list.done = true;
        }
        Ok(page)
    }
}

/// A reqwest failure without its URL (which may hold the API key).
fn http_error(e: reqwest::Error) -> UpstreamError {
    if e.is_timeout() {
        UpstreamError::Timeout
    } else {
        UpstreamError::Unreachable(e.without_url().to_string())
    }
}

/// `e` with the API key blotted out, should an upstream have repeated it.
fn scrub(e: UpstreamError, key: Option<&str>) -> UpstreamError {
    let Some(key) = key.filter(|k| !k.is_empty()) else { return e };
    let clean = |s: String| s.replace(key, "***");
    match e {
        UpstreamError::Unreachable(s) => UpstreamError::Unreachable(clean(s)),
        UpstreamError::Refused(s) => UpstreamError::Refused(clean(s)),
        UpstreamError::Unreadable(s) => UpstreamError::Unreadable(clean(s)),
        other => other,
    }
}

/// A number, given as one or as decimal text.
fn number(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A decimal amount of the smallest unit; "0" when absent.
fn amount(v: Option<&Value>) -> Option<String> {
    let s = text(v).unwrap_or_else(|| "0".into());
    let s = s.trim();
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| {
        let digits = s.trim_start_matches('0');
        if digits.is_empty() {
            "0".to_owned()
        } else {
            digits.to_owned()
        }
    })
}

/// An address, lower-case; None when it is not one.
fn address(v: Option<&Value>) -> Option<String> {
    let s = text(v)?;
    sigil_core::caip::is_evm_address(&s).then(|| format!("0x{}", s.trim_start_matches("0x").to_ascii_lowercase()))
}

/// A Blockscout address object's hash (`{"hash": "0x..."}`).
fn party(v: Option<&Value>) -> Option<String> {
    address(v?.get("hash"))
}

fn hash(v: Option<&Value>) -> Option<String> {
    let s = text(v)?.to_ascii_lowercase();
    (s.len() == 66 && s.starts_with("0x") && s[2..].bytes().all(|b| b.is_ascii_hexdigit())).then_some(s)
}

/// Unix seconds of an RFC 3339 time such as 2024-01-02T03:04:05.000000Z.
pub fn unix_seconds(time: &str) -> Option<i64> {
    let (date, rest) = time.trim().split_once(['T', ' '])?;
    let mut d = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (year, month, day) = (d.next()??, d.next()??, d.next()??);
    let clock_end = rest.find(|c: char| !(c.is_ascii_digit() || c == ':')).unwrap_or(rest.len());
    let mut c = rest[..clock_end].splitn(3, ':').map(|p| p.parse::<i64>().ok());
    let (hour, minute, second) = (c.next()??, c.next()??, c.next()??);
    let zone = rest[clock_end..].trim_start_matches(|c: char| c == '.' || c.is_ascii_digit());
    let offset = match zone {
        "" | "Z" | "z" => 0,
        z => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let (h, m) = z[1..].split_once(':').unwrap_or((&z[1..], "0"));
            sign * (h.parse::<i64>().ok()? * 3600 + m.parse::<i64>().ok()? * 60)
        }
    };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

fn blockscout_block(item: &Value) -> Option<i64> {
    number(item.get("block_number")).or_else(|| number(item.get("block")))
}

fn blockscout_hash(item: &Value) -> Option<String> {
    hash(item.get("transaction_hash")).or_else(|| hash(item.get("tx_hash")))
}

fn blockscout_time(item: &Value) -> i64 {
    item.get("timestamp").and_then(Value::as_str).and_then(unix_seconds).unwrap_or(0)
}

fn blockscout_txs(items: &[Value]) -> Page {
    let mut page = Page::default();
    for item in items {
        let Some(block) = blockscout_block(item) else { continue };
        page.blocks.push(block);
        let (Some(hash), Some(sender), Some(value)) = (hash(item.get("hash")), party(item.get("from")), amount(item.get("value"))) else { continue };
        let recipient = party(item.get("to")).or_else(|| party(item.get("created_contract"))).unwrap_or_default();
        let position = number(item.get("position"));
        let status = item.get("status").and_then(Value::as_str);
        page.txs.push(FoundTx {
            tx: TxRow {
                hash,
                block,
                tx_index: position.unwrap_or(0),
                mined_at: blockscout_time(item),
                sender,
                recipient,
                value,
                nonce: number(item.get("nonce")),
                succeeded: status != Some("error"),
            },
            known_position: position.is_some(),
        });
    }
    page
}

fn blockscout_transfers(items: &[Value]) -> Page {
    let mut page = Page::default();
    for item in items {
        let Some(block) = blockscout_block(item) else { continue };
        page.blocks.push(block);
        let token = item.get("token").unwrap_or(&Value::Null);
        let kind = match token.get("type").and_then(Value::as_str) {
            Some("ERC-20") => Kind::Erc20,
            Some("ERC-721") => Kind::Erc721,
            Some("ERC-1155") => Kind::Erc1155,
            _ => continue,
        };
        let (Some(hash), Some(sender), Some(recipient), Some(contract)) = (
            blockscout_hash(item),
            party(item.get("from")),
            party(item.get("to")),
            address(token.get("address_hash")).or_else(|| address(token.get("address"))),
        ) else {
            continue;
        };
        let totals: Vec<&Value> = match item.get("total") {
            Some(Value::Array(all)) => all.iter().collect(),
            Some(one) => vec![one],
            None => continue,
        };
        let decimals = number(token.get("decimals")).filter(|d| (0..=77).contains(d)).unwrap_or(0);
        page.tokens.push(TokenRow {
            address: contract.clone(),
            name: text(token.get("name")).unwrap_or_default().chars().take(64).collect(),
            symbol: text(token.get("symbol")).unwrap_or_default().chars().take(64).collect(),
            decimals,
        });
        for total in totals {
            let token_id = if kind.is_nft() { text(total.get("token_id")).unwrap_or_default() } else { String::new() };
            let amount = if kind == Kind::Erc721 { Some("1".to_owned()) } else { amount(total.get("value")) };
            let Some(amount) = amount else { continue };
            page.moves.push(FoundMove {
                hash: hash.clone(),
                block,
                mined_at: blockscout_time(item),
                position: None,
                nonce: None,
                order: number(item.get("log_index")).unwrap_or(0),
                kind,
                token: contract.clone(),
                sender: sender.clone(),
                recipient: recipient.clone(),
                token_id,
                amount,
            });
        }
    }
    page
}

fn blockscout_internals(items: &[Value]) -> Page {
    let mut page = Page::default();
    for item in items {
        let Some(block) = blockscout_block(item) else { continue };
        page.blocks.push(block);
        let ok = item.get("success").and_then(Value::as_bool).unwrap_or(true) && item.get("error").is_none_or(Value::is_null);
        let call =
            item.get("type").and_then(Value::as_str).is_none_or(|t| t == "call") && item.get("call_type").and_then(Value::as_str).is_none_or(|t| t == "call");
        let index = number(item.get("index"));
        let (Some(hash), Some(sender), Some(recipient), Some(value)) =
            (blockscout_hash(item), party(item.get("from")), party(item.get("to")), amount(item.get("value")))
        else {
            continue;
        };
        // The transaction's own call (index 0) is its value, which the transactions list gives.
        if !ok || !call || value == "0" || index == Some(0) {
            continue;
        }
        page.moves.push(FoundMove {
            hash,
            block,
            mined_at: blockscout_time(item),
            position: None,
            nonce: None,
            order: index.unwrap_or(0),
            kind: Kind::Internal,
            token: String::new(),
            sender,
            recipient,
            token_id: String::new(),
            amount: value,
        });
    }
    page
}

fn etherscan_records(action: &str, records: &[Value]) -> Page {
    let mut page = Page::default();
    for r in records {
        let Some(block) = number(r.get("blockNumber")) else { continue };
        page.blocks.push(block);
        let mined_at = number(r.get("timeStamp")).unwrap_or(0);
        let (Some(hash), Some(sender)) = (hash(r.get("hash")), address(r.get("from"))) else { continue };
        let position = number(r.get("transactionIndex"));
        let failed = text(r.get("isError")).as_deref() == Some("1");
        match action {
            "txlist" => {
                let Some(value) = amount(r.get("value")) else { continue };
                let recipient = address(r.get("to")).or_else(|| address(r.get("contractAddress"))).unwrap_or_default();
                page.txs.push(FoundTx {
                    tx: TxRow {
                        hash,
                        block,
                        tx_index: position.unwrap_or(0),
                        mined_at,
                        sender,
                        recipient,
                        value,
                        nonce: number(r.get("nonce")),
                        succeeded: !failed && text(r.get("txreceipt_status")).as_deref() != Some("0"),
                    },
                    known_position: position.is_some(),
                });
            }
            "txlistinternal" => {
                let call = text(r.get("type")).is_none_or(|t| t == "call");
                let (Some(recipient), Some(value)) = (address(r.get("to")), amount(r.get("value"))) else { continue };
                if failed || !call || value == "0" {
                    continue;
                }
                let order = text(r.get("traceId")).and_then(|t| t.split('_').filter_map(|p| p.parse::<i64>().ok()).next_back()).unwrap_or(0);
                page.moves.push(FoundMove {
                    hash,
                    block,
                    mined_at,
                    position,
                    nonce: None,
                    order,
                    kind: Kind::Internal,
                    token: String::new(),
                    sender,
                    recipient,
                    token_id: String::new(),
                    amount: value,
                });
            }
            _ => {
                let kind = match action {
                    "tokentx" => Kind::Erc20,
                    "tokennfttx" => Kind::Erc721,
                    _ => Kind::Erc1155,
                };
                let (Some(recipient), Some(contract)) = (address(r.get("to")), address(r.get("contractAddress"))) else { continue };
                let amount = match kind {
                    Kind::Erc721 => Some("1".to_owned()),
                    Kind::Erc1155 => amount(r.get("tokenValue")),
                    _ => amount(r.get("value")),
                };
                let Some(amount) = amount else { continue };
                page.tokens.push(TokenRow {
                    address: contract.clone(),
                    name: text(r.get("tokenName")).unwrap_or_default().chars().take(64).collect(),
                    symbol: text(r.get("tokenSymbol")).unwrap_or_default().chars().take(64).collect(),
                    decimals: number(r.get("tokenDecimal")).filter(|d| (0..=77).contains(d)).unwrap_or(0),
                });
                page.moves.push(FoundMove {
                    hash,
                    block,
                    mined_at,
                    position,
                    nonce: number(r.get("nonce")),
                    order: number(r.get("logIndex")).unwrap_or(0),
                    kind,
                    token: contract,
                    sender,
                    recipient,
                    token_id: if kind.is_nft() { text(r.get("tokenID")).unwrap_or_default() } else { String::new() },
                    amount,
                });
            }
        }
    }
    page
}

/// A position for a transaction an explorer gives none of: after the block's real ones,
/// from its hash (so the same transaction always gets the same).
fn made_up_position(hash: &str) -> i64 {
    MADE_UP_POSITION + i64::from_str_radix(hash.get(2..12).unwrap_or("0"), 16).unwrap_or(0)
}

/// The rows of what a fill of `owner`'s history found: its transactions (made up from their
/// transfers where the explorer listed none), their transfers in the index's order, and the
/// tokens named. A transaction made up was not sent by `owner` (the explorer lists those it
/// sent): its sender is the first other party of its transfers, so the spam rules judge it as
/// someone else's (a zero-value `transferFrom` out of `owner` is address poisoning).
fn rows(owner: &str, found: Found) -> (Vec<TxRow>, Vec<TransferRow>, Vec<TokenRow>) {
    let mut txs: HashMap<String, TxRow> = HashMap::new();
    for t in found.txs {
        let mut tx = t.tx;
        if !t.known_position {
            tx.tx_index = made_up_position(&tx.hash);
        }
        txs.entry(tx.hash.clone()).or_insert(tx);
    }
    let mut moves = found.moves;
    let mut other: HashMap<String, String> = HashMap::new();
    for m in &moves {
        if let Some(party) = [&m.sender, &m.recipient].into_iter().find(|p| p.as_str() != owner) {
            other.entry(m.hash.clone()).or_insert_with(|| party.clone());
        }
    }
    moves.sort_by(|a, b| (&a.hash, a.kind == Kind::Internal, a.order).cmp(&(&b.hash, b.kind == Kind::Internal, b.order)));
    let mut transfers: Vec<TransferRow> = Vec::new();
    let mut seen: BTreeSet<(String, i64, &'static str, String, String, String, String)> = BTreeSet::new();
    let mut next_seq: HashMap<(String, i64), i64> = HashMap::new();
    for m in moves {
        let key = (m.hash.clone(), m.order, m.kind.as_str(), m.sender.clone(), m.recipient.clone(), m.token_id.clone(), m.amount.clone());
        if !seen.insert(key) {
            continue;
        }
        let seq = if m.kind == Kind::Internal {
            let n = next_seq.entry((m.hash.clone(), i64::MIN)).or_insert(-1);
            *n -= 1;
            *n
        } else {
            let Some(base) = m.order.checked_mul(1024).filter(|b| *b >= 0 && b.checked_add(1023).is_some()) else { continue };
            let n = next_seq.entry((m.hash.clone(), m.order)).or_insert(0);
            if *n >= 1024 {
                continue;
            }
            *n += 1;
            base + *n - 1
        };
        txs.entry(m.hash.clone()).or_insert_with(|| TxRow {
            hash: m.hash.clone(),
            block: m.block,
            tx_index: m.position.unwrap_or_else(|| made_up_position(&m.hash)),
            mined_at: m.mined_at,
            sender: other.get(&m.hash).cloned().unwrap_or_else(|| m.sender.clone()),
            recipient: if m.kind == Kind::Internal { m.sender.clone() } else { m.token.clone() },
            value: "0".into(),
            nonce: m.nonce,
            succeeded: true,
        });
        transfers.push(TransferRow {
            hash: m.hash,
            seq,
            block: m.block,
            kind: m.kind,
            token: m.token,
            sender: m.sender,
            recipient: m.recipient,
            token_id: m.token_id,
            amount: m.amount,
        });
    }
    for tx in txs.values().filter(|t| t.succeeded && t.value != "0") {
        transfers.push(TransferRow {
            hash: tx.hash.clone(),
            seq: -1,
            block: tx.block,
            kind: Kind::Native,
            token: String::new(),
            sender: tx.sender.clone(),
            recipient: tx.recipient.clone(),
            token_id: String::new(),
            amount: tx.value.clone(),
        });
    }
    let mut tokens: HashMap<String, TokenRow> = HashMap::new();
    for t in found.tokens {
        tokens.entry(t.address.clone()).or_insert(t);
    }
    let mut txs: Vec<TxRow> = txs.into_values().collect();
    txs.sort_by_key(|t| std::cmp::Reverse((t.block, t.tx_index)));
    (txs, transfers, tokens.into_values().collect())
}

/// Stores what a fill found and marks `owner`'s older history filled; appearances are written
/// for `owner` only (each address's older history is its own fill's).
async fn write(db: &Db, chain: &ChainConfig, owner: &str, found: Found) -> Result<(), sqlx::Error> {
    let (mut txs, mut transfers, tokens) = rows(owner, found);
    store::save_tokens(db, &chain.id, &tokens).await?;
    // A transaction stored already (another address's fill) keeps its position.
    let hashes: Vec<String> = txs.iter().map(|t| t.hash.clone()).collect();
    let stored = store::stored_positions(db, &chain.id, &hashes).await?;
    for tx in &mut txs {
        if let Some((block, index)) = stored.get(&tx.hash) {
            (tx.block, tx.tx_index) = (*block, *index);
        }
    }
    for t in &mut transfers {
        if let Some((block, _)) = stored.get(&t.hash) {
            t.block = *block;
        }
    }
    let by_address: HashMap<String, TokenRow> = tokens.into_iter().map(|t| (t.address.clone(), t)).collect();
    let lookalike = |token: &str| by_address.get(token).is_some_and(|t| super::is_lookalike(chain, t));
    let appearances: Vec<Appearance> = super::appearances(&txs, &transfers, lookalike).into_iter().filter(|a| a.address == owner).collect();
    store::write_upstream_fill(db, &chain.id, owner, &txs, &transfers, &appearances).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rfc3339_times() {
        assert_eq!(unix_seconds("2026-11-26T18:00:00Z"), Some(1_795_716_000));
        assert_eq!(unix_seconds("2026-11-26T18:00:00.000000Z"), Some(1_795_716_000));
        assert_eq!(unix_seconds("2026-11-26T19:00:00+01:00"), Some(1_795_716_000));
        assert_eq!(unix_seconds("2000-02-29T00:00:00Z"), Some(951_782_400));
        assert_eq!(unix_seconds("yesterday"), None);
        for secs in [0, 951_782_400, 1_795_716_000, 1_704_164_645] {
            assert_eq!(unix_seconds(&super::super::routes::rfc3339(secs)), Some(secs));
        }
    }

    #[test]
    fn errors_never_hold_the_url_or_the_key() {
        let e = scrub(UpstreamError::Refused("tokentx NOTOK Invalid key s3cr3t".into()), Some("s3cr3t"));
        assert_eq!(e.to_string(), "the upstream refused: tokentx NOTOK Invalid key ***");
    }

    #[tokio::test]
    async fn a_failed_request_names_no_url() {
        let settings = crate::config::Config::for_database("sqlite://x").settings.history;
        let up = Upstreams::new(&settings);
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let e = up.get_json(&format!("http://127.0.0.1:{port}/v2/api?apikey=s3cr3t")).await.unwrap_err();
        assert!(matches!(e, UpstreamError::Unreachable(_)), "{e:?}");
        assert!(!e.to_string().contains("s3cr3t") && !e.to_string().contains("127.0.0.1"), "{e}");
    }

    #[test]
    fn etherscan_records_become_rows() {
        let me = "0x00000000000000000000000000000000000000aa";
        let you = "0x00000000000000000000000000000000000000bb";
        let token = "0x00000000000000000000000000000000000000cc";
        let h = |n: u8| format!("0x{:064x}", n);
        let page = etherscan_records(
            "tokentx",
            &[serde_json::json!({"blockNumber": "7", "timeStamp": "100", "hash": h(1), "nonce": "3", "from": you, "to": me,
                "contractAddress": token, "value": "1500", "tokenName": "Token", "tokenSymbol": "TKN", "tokenDecimal": "3",
                "transactionIndex": "2", "logIndex": "5"})],
        );
        let (txs, transfers, tokens) = rows(me, Found { txs: page.txs, moves: page.moves, tokens: page.tokens });
        assert_eq!((txs[0].tx_index, txs[0].nonce, txs[0].sender.as_str(), txs[0].recipient.as_str()), (2, Some(3), you, token));
        assert_eq!((transfers[0].seq, transfers[0].kind, transfers[0].amount.as_str()), (5 * 1024, Kind::Erc20, "1500"));
        assert_eq!((tokens[0].symbol.as_str(), tokens[0].decimals), ("TKN", 3));
    }
}
