//! What the indexer reads from an EVM chain, through the proxy's upstreams, in one of two ways:
//!
//! - where the node has `trace_filter` (reth, Erigon, Nethermind, anvil): the transfer and
//!   approval logs of a range (eth_getLogs) and its call traces (trace_filter), which hold every
//!   top-level transaction (sender, receiver, value, failure) and the internal transfers of the
//!   coin, a few calls a range; block headers only where no log gives a block's time, at the
//!   range's ends and near the head (for reorganisations). Nonces are not in traces: the
//!   history route asks for the few a page shows (`nonces`).
//! - elsewhere: every block with its transactions, the receipts (eth_getBlockReceipts, else one
//!   receipt per transaction), the logs and, where the node has it, trace_block.
//!
//! Calls go in JSON-RPC batches; either way the answers become the same rows (`to_rows`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use alloy_primitives::U256;
use futures::{StreamExt, TryStreamExt};
use serde::Deserialize;

use super::store::{Kind, TokenRow, TransferRow, TxRow};
use crate::rpc::jsonrpc::{self, Call, Reply};
use crate::rpc::{Failure, Rpc};

/// Transfer(address,address,uint256): ERC-20 (3 topics) and ERC-721 (4 topics, the id last).
pub const TRANSFER: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/// Approval(address,address,uint256).
pub const APPROVAL: &str = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925";
/// ERC-1155 TransferSingle(address,address,address,uint256,uint256).
pub const TRANSFER_SINGLE: &str = "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62";
/// ERC-1155 TransferBatch(address,address,address,uint256[],uint256[]).
pub const TRANSFER_BATCH: &str = "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb";

pub const ZERO: &str = "0x0000000000000000000000000000000000000000";

/// Calls in one upstream batch, and batches in flight at once.
const BATCH: usize = 100;
const IN_FLIGHT: usize = 4;
/// Blocks per trace_filter call: nodes cap the range (anvil at 300).
const TRACE_RANGE: i64 = 100;

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(transparent)]
    Down(#[from] Failure),
    /// The node answered with an error, or with something that is not what was asked.
    #[error("{0}")]
    Refused(String),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    pub number: String,
    pub hash: String,
    pub parent_hash: String,
    pub timestamp: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Block {
    #[serde(flatten)]
    pub header: Header,
    #[serde(default)]
    pub transactions: Vec<Tx>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tx {
    pub hash: String,
    pub from: String,
    pub to: Option<String>,
    pub value: String,
    pub nonce: String,
    pub transaction_index: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    pub transaction_hash: String,
    pub status: Option<String>,
    pub contract_address: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Log {
    pub address: String,
    pub topics: Vec<String>,
    pub data: String,
    pub block_hash: String,
    #[serde(default)]
    pub block_number: Option<String>,
    /// Given by newer nodes (geth 1.14+, reth, anvil): spares a header read.
    #[serde(default)]
    pub block_timestamp: Option<String>,
    pub transaction_hash: String,
    pub log_index: String,
    #[serde(default)]
    pub removed: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub action: TraceAction,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub result: Option<TraceResult>,
    #[serde(default)]
    pub trace_address: Vec<u64>,
    pub transaction_hash: Option<String>,
    #[serde(default)]
    pub transaction_position: Option<u64>,
    #[serde(default)]
    pub block_number: Option<u64>,
    #[serde(default)]
    pub block_hash: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceAction {
    pub from: Option<String>,
    pub to: Option<String>,
    pub value: Option<String>,
    pub call_type: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TraceResult {
    /// The created contract, for a creation.
    pub address: Option<String>,
}

/// A top-level transaction as read, either way.
#[derive(Debug, Clone)]
pub struct Top {
    pub hash: String,
    pub block: i64,
    pub index: i64,
    pub from: String,
    /// The called account or the created contract ('' when a creation failed).
    pub to: String,
    /// Wei, hex.
    pub value: String,
    pub nonce: Option<i64>,
    pub succeeded: bool,
}

/// Blocks `from..=to` as the node gave them.
#[derive(Debug, Default)]
pub struct Read {
    /// The headers read: every block's, or (trace way) some: the range's ends, the blocks near
    /// the head, and those with a transaction whose time no log gives.
    pub headers: Vec<Header>,
    pub txs: Vec<Top>,
    pub logs: Vec<Log>,
    /// Call traces: internal transfers of the coin are read from them.
    pub traces: Vec<Trace>,
}

impl Read {
    /// The parent hash of the range's first block.
    pub fn first_parent(&self) -> Option<String> {
        self.headers.first().map(|h| lower(&h.parent_hash))
    }
}

/// A hex quantity as a number.
pub fn quantity(hex: &str) -> Option<u64> {
    u64::from_str_radix(hex.strip_prefix("0x")?, 16).ok()
}

/// A hex quantity or 32-byte word as a decimal string ("0" for empty data).
pub fn decimal(hex: &str) -> Option<String> {
    let digits = hex.strip_prefix("0x").unwrap_or(hex);
    if digits.is_empty() {
        return Some("0".into());
    }
    U256::from_str_radix(digits, 16).ok().map(|v| v.to_string())
}

/// Whether `digits` are hex digits only (so slicing them by byte is safe).
fn is_hex(digits: &str) -> bool {
    digits.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The address in a 32-byte topic, lower-case.
fn topic_address(topic: &str) -> Option<String> {
    let digits = topic.strip_prefix("0x")?;
    (digits.len() == 64 && is_hex(digits)).then(|| format!("0x{}", digits[24..].to_ascii_lowercase()))
}

fn lower(address: &str) -> String {
    address.to_ascii_lowercase()
}

/// The 32-byte words of ABI data; none when the data is not hex.
fn words(data: &str) -> Vec<&str> {
    let digits = data.strip_prefix("0x").unwrap_or(data);
    if !is_hex(digits) {
        return Vec::new();
    }
    (0..digits.len() / 64).map(|i| &digits[i * 64..i * 64 + 64]).collect()
}

/// A uint256[] in ABI data at the byte offset given by word `at`.
fn word_array(words: &[&str], at: usize) -> Option<Vec<String>> {
    let offset = usize::try_from(quantity(&format!("0x{}", words.get(at)?)).filter(|o| o % 32 == 0)?).ok()? / 32;
    let len = usize::try_from(quantity(&format!("0x{}", words.get(offset)?))?).ok()?;
    (0..len).map(|i| words.get(offset + 1 + i).and_then(|w| decimal(w))).collect()
}

/// The transfers (or approval) one log records; empty when it is not one of those events.
pub fn log_transfers(log: &Log, block: i64) -> Vec<TransferRow> {
    let Some(log_index) = quantity(&log.log_index).and_then(|i| i64::try_from(i).ok()) else { return Vec::new() };
    let t = &log.topics;
    let row = |kind, seq, sender: String, recipient: String, token_id: String, amount: String| TransferRow {
        hash: lower(&log.transaction_hash),
        seq,
        block,
        kind,
        token: lower(&log.address),
        sender,
        recipient,
        token_id,
        amount,
    };
    // Room for a batch's 1024 transfers after each log's first; a log index too large for it
    // is no log a node gives: skipped.
    let Some(seq) = log_index.checked_mul(1024).filter(|s| s.checked_add(1023).is_some()) else {
        tracing::debug!(log_index, hash = %log.transaction_hash, "a log index too large to order: skipped");
        return Vec::new();
    };
    let topic = |i: usize| t.get(i).and_then(|x| topic_address(x));
    let word_data = words(&log.data);
    match (t.first().map(|s| s.to_ascii_lowercase()).as_deref(), t.len()) {
        (Some(TRANSFER), 3) => {
            let (Some(from), Some(to), Some(amount)) = (topic(1), topic(2), decimal(&log.data)) else { return Vec::new() };
            vec![row(Kind::Erc20, seq, from, to, String::new(), amount)]
        }
        (Some(TRANSFER), 4) => {
            let (Some(from), Some(to), Some(id)) = (topic(1), topic(2), decimal(&t[3])) else { return Vec::new() };
            vec![row(Kind::Erc721, seq, from, to, id, "1".into())]
        }
        (Some(APPROVAL), 3 | 4) => {
            let (Some(owner), Some(spender)) = (topic(1), topic(2)) else { return Vec::new() };
            let amount = if t.len() == 4 { "1".into() } else { decimal(&log.data).unwrap_or_default() };
            vec![row(Kind::Approval, seq, owner, spender, String::new(), amount)]
        }
        (Some(TRANSFER_SINGLE), 4) if word_data.len() == 2 => {
            let (Some(from), Some(to), Some(id), Some(amount)) = (topic(2), topic(3), decimal(word_data[0]), decimal(word_data[1])) else { return Vec::new() };
            vec![row(Kind::Erc1155, seq, from, to, id, amount)]
        }
        (Some(TRANSFER_BATCH), 4) => {
            let (Some(from), Some(to), Some(ids), Some(amounts)) = (topic(2), topic(3), word_array(&word_data, 0), word_array(&word_data, 1)) else {
                return Vec::new();
            };
            ids.into_iter()
                .zip(amounts)
                .take(1024)
                .enumerate()
                .map(|(i, (id, amount))| row(Kind::Erc1155, seq + i as i64, from.clone(), to.clone(), id, amount))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// What a read comes to, as the area stores it.
#[derive(Debug, Default)]
pub struct Rows {
    pub txs: Vec<TxRow>,
    pub transfers: Vec<TransferRow>,
    /// (number, hash) of each block whose header was read.
    pub blocks: Vec<(i64, String)>,
}

fn number(hex: &str) -> Option<i64> {
    quantity(hex).and_then(|n| i64::try_from(n).ok())
}

/// The rows of what was read: each transaction (with its status and, if it moved any, its own
/// value), the transfers of its logs, and internal transfers of the coin from its traces.
pub fn to_rows(read: &Read) -> Result<Rows, FetchError> {
    let bad = |what: &str| FetchError::Refused(format!("the node answered a {what} that cannot be read"));
    let changed = || FetchError::Refused("the chain changed while it was read".into());
    let mut blocks = Vec::new();
    let mut times: HashMap<i64, i64> = HashMap::new();
    let mut hashes: HashMap<i64, String> = HashMap::new();
    for h in &read.headers {
        let n = number(&h.number).ok_or_else(|| bad("block number"))?;
        times.insert(n, number(&h.timestamp).ok_or_else(|| bad("timestamp"))?);
        hashes.insert(n, lower(&h.hash));
        blocks.push((n, lower(&h.hash)));
    }
    let mut transfers = Vec::new();
    for log in read.logs.iter().filter(|l| !l.removed) {
        let n = log.block_number.as_deref().and_then(number).ok_or_else(|| bad("log without its block"))?;
        // A log of a block other than the one read: the chain moved between the calls.
        if hashes.get(&n).is_some_and(|h| *h != lower(&log.block_hash)) {
            return Err(changed());
        }
        if let Some(t) = log.block_timestamp.as_deref().and_then(number) {
            times.entry(n).or_insert(t);
        }
        transfers.extend(log_transfers(log, n));
    }
    let mut txs = Vec::new();
    let mut failed: HashSet<&str> = HashSet::new();
    for tx in &read.txs {
        let mined_at = *times.get(&tx.block).ok_or_else(|| bad("transaction of a block whose time is unknown"))?;
        let value = decimal(&tx.value).ok_or_else(|| bad("transaction value"))?;
        if !tx.succeeded {
            failed.insert(&tx.hash);
        } else if value != "0" {
            transfers.push(TransferRow {
                hash: tx.hash.clone(),
                seq: -1,
                block: tx.block,
                kind: Kind::Native,
                token: String::new(),
                sender: tx.from.clone(),
                recipient: tx.to.clone(),
                token_id: String::new(),
                amount: value.clone(),
            });
        }
        txs.push(TxRow {
            hash: tx.hash.clone(),
            block: tx.block,
            tx_index: tx.index,
            mined_at,
            sender: tx.from.clone(),
            recipient: tx.to.clone(),
            value,
            nonce: tx.nonce,
            succeeded: tx.succeeded,
        });
    }
    let mut internal: HashMap<String, i64> = HashMap::new();
    let by_hash: HashMap<&str, i64> = txs.iter().map(|t| (t.hash.as_str(), t.block)).collect();
    for trace in &read.traces {
        let a = &trace.action;
        let Some(hash) = trace.transaction_hash.as_deref().map(lower) else { continue };
        if trace.trace_address.is_empty() || trace.error.is_some() || failed.contains(hash.as_str()) || trace.kind != "call" {
            continue;
        }
        if a.call_type.as_deref().is_some_and(|c| c != "call") {
            continue;
        }
        let (Some(from), Some(to), Some(value)) = (a.from.as_deref(), a.to.as_deref(), a.value.as_deref().and_then(decimal)) else { continue };
        let Some(block) = by_hash.get(hash.as_str()).copied() else { continue };
        if value == "0" {
            continue;
        }
        let n = internal.entry(hash.clone()).or_insert(-1);
        *n -= 1;
        transfers.push(TransferRow {
            hash,
            seq: *n,
            block,
            kind: Kind::Internal,
            token: String::new(),
            sender: lower(from),
            recipient: lower(to),
            token_id: String::new(),
            amount: value,
        });
    }
    Ok(Rows { txs, transfers, blocks })
}

/// The top-level transactions of trace_filter's traces (those with no trace address).
fn top_of_traces(traces: &[Trace]) -> Result<Vec<Top>, FetchError> {
    let bad = |what: &str| FetchError::Refused(format!("trace_filter answered a {what} that cannot be read"));
    traces
        .iter()
        .filter(|t| t.trace_address.is_empty() && matches!(t.kind.as_str(), "call" | "create"))
        .filter_map(|t| t.transaction_hash.as_deref().map(|hash| (t, hash)))
        .map(|(t, hash)| {
            let block = t.block_number.and_then(|n| i64::try_from(n).ok()).ok_or_else(|| bad("trace without its block"))?;
            let index = t.transaction_position.and_then(|n| i64::try_from(n).ok()).ok_or_else(|| bad("trace without its position"))?;
            // A failed creation created nothing, whatever address the trace names.
            let created = t.result.as_ref().and_then(|r| r.address.as_deref()).filter(|_| t.error.is_none());
            Ok(Top {
                hash: lower(hash),
                block,
                index,
                from: t.action.from.as_deref().map(lower).ok_or_else(|| bad("trace without its sender"))?,
                to: t.action.to.as_deref().or(created).map(lower).unwrap_or_default(),
                value: t.action.value.clone().unwrap_or_else(|| "0x0".into()),
                nonce: None,
                succeeded: t.error.is_none(),
            })
        })
        .collect()
}

/// The top-level transactions of whole blocks and their receipts.
fn top_of_blocks(blocks: &[Block], receipts: &HashMap<String, Receipt>) -> Result<Vec<Top>, FetchError> {
    let bad = |what: &str| FetchError::Refused(format!("the node answered a {what} that cannot be read"));
    let mut out = Vec::new();
    for block in blocks {
        let n = number(&block.header.number).ok_or_else(|| bad("block number"))?;
        for tx in &block.transactions {
            let hash = lower(&tx.hash);
            let receipt = receipts.get(&hash).ok_or_else(|| bad("block without a receipt for each transaction"))?;
            let succeeded = receipt.status.as_deref().and_then(quantity) != Some(0);
            // A failed creation created nothing, whatever address the receipt names.
            let created = receipt.contract_address.as_deref().filter(|_| succeeded);
            out.push(Top {
                block: n,
                index: number(&tx.transaction_index).ok_or_else(|| bad("transaction index"))?,
                from: lower(&tx.from),
                to: tx.to.as_deref().or(created).map(lower).unwrap_or_default(),
                value: tx.value.clone(),
                nonce: Some(number(&tx.nonce).ok_or_else(|| bad("nonce"))?),
                succeeded,
                hash,
            });
        }
    }
    Ok(out)
}

/// A chain's node, as the indexer reads it. Remembers which optional methods the node has.
pub struct Source {
    pub rpc: Arc<Rpc>,
    pub chain: String,
    /// trace_filter answers (None: not asked yet): ranges are read the trace way.
    trace_filter: Option<bool>,
    /// eth_getBlockReceipts answers.
    block_receipts: Option<bool>,
    /// trace_block answers.
    traces: Option<bool>,
}

fn call(method: &str, params: String) -> Call {
    Call { id: "null".into(), method: method.into(), params: Some(params), notification: false, exact: false }
}

/// A node's way of saying it does not have a method.
fn is_missing_method(raw: &str) -> bool {
    let lower = raw.to_ascii_lowercase();
    lower.contains("-32601")
        || lower.contains("not found")
        || lower.contains("not supported")
        || lower.contains("does not exist")
        || lower.contains("unsupported")
}

fn hex_block(n: i64) -> String {
    format!("0x{n:x}")
}

impl Source {
    pub fn new(rpc: Arc<Rpc>, chain: &str) -> Source {
        Source { rpc, chain: chain.to_owned(), trace_filter: None, block_receipts: None, traces: None }
    }

    async fn one(&self, method: &str, params: String) -> Result<String, FetchError> {
        match self.rpc.call(&self.chain, method, Some(&params)).await? {
            Reply::Result(raw) => Ok(raw),
            Reply::Error(e) => Err(FetchError::Refused(format!("{method}: {e}"))),
        }
    }

    /// Each call's reply, in order, sent in batches.
    async fn many(&self, calls: Vec<Call>) -> Result<Vec<Reply>, FetchError> {
        let chunks: Vec<Vec<Call>> = calls.chunks(BATCH).map(<[Call]>::to_vec).collect();
        let replies: Vec<Vec<Reply>> = futures::stream::iter(chunks)
            .map(|chunk| async move {
                let refs: Vec<&Call> = chunk.iter().collect();
                let bytes = self.rpc.send(&self.chain, jsonrpc::batch_body(&refs).into()).await?;
                Ok::<_, FetchError>(jsonrpc::batch_replies(&bytes, chunk.len()))
            })
            .buffered(IN_FLIGHT)
            .try_collect()
            .await?;
        Ok(replies.into_iter().flatten().collect())
    }

    fn parse<T: serde::de::DeserializeOwned>(reply: &Reply, what: &str) -> Result<T, FetchError> {
        match reply {
            Reply::Result(raw) => serde_json::from_str(raw).map_err(|e| FetchError::Refused(format!("{what}: {e}"))),
            Reply::Error(e) => Err(FetchError::Refused(format!("{what}: {e}"))),
        }
    }

    pub async fn head(&self) -> Result<i64, FetchError> {
        let raw = self.one("eth_blockNumber", "[]".into()).await?;
        serde_json::from_str::<String>(&raw).ok().and_then(|h| number(&h)).ok_or_else(|| FetchError::Refused("eth_blockNumber: not a quantity".into()))
    }

    /// The headers of blocks `numbers` on the node now (None: it has no such block).
    pub async fn headers(&self, numbers: &[i64]) -> Result<Vec<Option<Header>>, FetchError> {
        let calls = numbers.iter().map(|n| call("eth_getBlockByNumber", format!(r#"["{}",false]"#, hex_block(*n)))).collect();
        let replies = self.many(calls).await?;
        replies.iter().map(|r| Self::parse::<Option<Header>>(r, "eth_getBlockByNumber")).collect()
    }

    /// The hashes of blocks `numbers` on the node now (None: it has no such block).
    pub async fn hashes(&self, numbers: &[i64]) -> Result<Vec<Option<String>>, FetchError> {
        Ok(self.headers(numbers).await?.into_iter().map(|h| h.map(|h| lower(&h.hash))).collect())
    }

    /// The headers of `numbers`, each of which the node must have.
    async fn known_headers(&self, numbers: &[i64]) -> Result<Vec<Header>, FetchError> {
        self.headers(numbers).await?.into_iter().map(|h| h.ok_or_else(|| FetchError::Refused("a block below the head is missing".into()))).collect()
    }

    async fn logs(&self, from: i64, to: i64) -> Result<Vec<Log>, FetchError> {
        let filter = serde_json::json!([{
            "fromBlock": hex_block(from),
            "toBlock": hex_block(to),
            "topics": [[TRANSFER, APPROVAL, TRANSFER_SINGLE, TRANSFER_BATCH]],
        }]);
        let logs = self.one("eth_getLogs", filter.to_string()).await?;
        serde_json::from_str(&logs).map_err(|e| FetchError::Refused(format!("eth_getLogs: {e}")))
    }

    /// Reads `from..=to` the trace way; `recent` is how many of its last blocks keep their
    /// header (the reorganisation check needs them).
    async fn read_traced(&self, from: i64, to: i64, recent: i64) -> Result<Read, FetchError> {
        // The last block's hash before and after the reads: unchanged, the chain up to it did
        // not change in between, so every log and trace is of the same chain.
        let last = self.known_headers(&[to]).await?.remove(0);
        let ranges: Vec<(i64, i64)> = (from..=to).step_by(TRACE_RANGE as usize).map(|a| (a, (a + TRACE_RANGE - 1).min(to))).collect();
        let traces = futures::stream::iter(ranges)
            .map(|(a, b)| async move {
                let params = serde_json::json!([{ "fromBlock": hex_block(a), "toBlock": hex_block(b) }]).to_string();
                match self.rpc.call(&self.chain, "trace_filter", Some(&params)).await? {
                    Reply::Result(raw) => serde_json::from_str::<Vec<Trace>>(&raw).map_err(|e| FetchError::Refused(format!("trace_filter: {e}"))),
                    Reply::Error(e) if is_missing_method(&e) => Err(FetchError::Refused("trace_filter: missing".into())),
                    Reply::Error(e) => Err(FetchError::Refused(format!("trace_filter: {e}"))),
                }
            })
            .buffered(IN_FLIGHT)
            .try_concat();
        let (logs, traces) = futures::try_join!(self.logs(from, to), traces)?;
        let txs = top_of_traces(&traces)?;
        let timed: HashSet<i64> = logs.iter().filter(|l| l.block_timestamp.is_some()).filter_map(|l| l.block_number.as_deref().and_then(number)).collect();
        let mut wanted: BTreeSet<i64> = txs.iter().map(|t| t.block).filter(|n| !timed.contains(n)).collect();
        wanted.extend([from, to]);
        wanted.extend((to - recent + 1).max(from)..=to);
        let numbers: Vec<i64> = wanted.into_iter().collect();
        let headers = self.known_headers(&numbers).await?;
        let by_number: BTreeMap<i64, &Header> = numbers.iter().copied().zip(&headers).collect();
        if by_number.get(&to).map(|h| lower(&h.hash)) != Some(lower(&last.hash)) {
            return Err(FetchError::Refused("the chain changed while it was read".into()));
        }
        for pair in by_number.iter().collect::<Vec<_>>().windows(2) {
            let ((a, ha), (b, hb)) = (pair[0], pair[1]);
            if *b == a + 1 && lower(&hb.parent_hash) != lower(&ha.hash) {
                return Err(FetchError::Refused("the chain changed while it was read".into()));
            }
        }
        for t in &traces {
            let known = t.block_number.and_then(|n| i64::try_from(n).ok()).and_then(|n| by_number.get(&n));
            if let (Some(h), Some(theirs)) = (known, &t.block_hash) {
                if lower(&h.hash) != lower(theirs) {
                    return Err(FetchError::Refused("the chain changed while it was read".into()));
                }
            }
        }
        Ok(Read { headers, txs, logs, traces })
    }

    /// Reads `from..=to` block by block: every block with its transactions and receipts.
    async fn read_blocks(&mut self, from: i64, to: i64) -> Result<Read, FetchError> {
        let block_calls = (from..=to).map(|n| call("eth_getBlockByNumber", format!(r#"["{}",true]"#, hex_block(n)))).collect();
        let (logs, blocks) = futures::try_join!(self.logs(from, to), self.many(block_calls))?;
        let blocks: Vec<Block> = blocks
            .iter()
            .map(|r| Self::parse::<Option<Block>>(r, "eth_getBlockByNumber")?.ok_or_else(|| FetchError::Refused("a block below the head is missing".into())))
            .collect::<Result<_, _>>()?;
        for pair in blocks.windows(2) {
            if lower(&pair[1].header.parent_hash) != lower(&pair[0].header.hash) {
                return Err(FetchError::Refused("the chain changed while it was read".into()));
            }
        }
        let with_txs: Vec<&Block> = blocks.iter().filter(|b| !b.transactions.is_empty()).collect();
        let (receipts, traces) = futures::try_join!(self.receipts(&with_txs), self.traces(&with_txs))?;
        let txs = top_of_blocks(&blocks, &receipts)?;
        let numbers: HashMap<String, String> = blocks.iter().map(|b| (lower(&b.header.hash), b.header.number.clone())).collect();
        // Older nodes leave a log's block number out: its block hash names it.
        let logs = logs
            .into_iter()
            .map(|mut l| {
                if l.block_number.is_none() {
                    l.block_number = numbers.get(&lower(&l.block_hash)).cloned();
                }
                l.block_number.is_some().then_some(l).ok_or_else(|| FetchError::Refused("the chain changed while it was read".into()))
            })
            .collect::<Result<_, _>>()?;
        if !with_txs.is_empty() {
            self.block_receipts.get_or_insert(true);
            self.traces.get_or_insert(true);
        }
        Ok(Read { headers: blocks.into_iter().map(|b| b.header).collect(), txs, logs, traces })
    }

    async fn receipts(&self, blocks: &[&Block]) -> Result<HashMap<String, Receipt>, FetchError> {
        let mut out = HashMap::new();
        if blocks.is_empty() {
            return Ok(out);
        }
        if self.block_receipts != Some(false) {
            let calls = blocks.iter().map(|b| call("eth_getBlockReceipts", format!(r#"["{}"]"#, b.header.hash))).collect();
            let replies = self.many(calls).await?;
            if let Some(Reply::Error(e)) = replies.first().filter(|_| self.block_receipts.is_none()) {
                if is_missing_method(e) {
                    return Err(FetchError::Refused("eth_getBlockReceipts: missing".into()));
                }
            }
            for reply in &replies {
                for r in Self::parse::<Vec<Receipt>>(reply, "eth_getBlockReceipts")? {
                    out.insert(lower(&r.transaction_hash), r);
                }
            }
            return Ok(out);
        }
        let calls = blocks.iter().flat_map(|b| &b.transactions).map(|t| call("eth_getTransactionReceipt", format!(r#"["{}"]"#, t.hash))).collect();
        for reply in self.many(calls).await? {
            let r: Receipt = Self::parse(&reply, "eth_getTransactionReceipt")?;
            out.insert(lower(&r.transaction_hash), r);
        }
        Ok(out)
    }

    async fn traces(&self, blocks: &[&Block]) -> Result<Vec<Trace>, FetchError> {
        if blocks.is_empty() || self.traces == Some(false) {
            return Ok(Vec::new());
        }
        let calls = blocks.iter().map(|b| call("trace_block", format!(r#"["{}"]"#, b.header.number))).collect();
        let replies = self.many(calls).await?;
        let mut out = Vec::new();
        for reply in &replies {
            match reply {
                Reply::Error(e) if self.traces.is_none() && is_missing_method(e) => return Err(FetchError::Refused("trace_block: missing".into())),
                _ => out.extend(Self::parse::<Vec<Trace>>(reply, "trace_block")?),
            }
        }
        Ok(out)
    }

    /// Reads blocks `from..=to` (the trace way where the node has trace_filter), first finding
    /// out (once) which optional methods the node has. `recent`: see `read_traced`.
    pub async fn read_range(&mut self, from: i64, to: i64, recent: i64) -> Result<Read, FetchError> {
        loop {
            let traced = self.trace_filter != Some(false);
            let read = if traced { self.read_traced(from, to, recent).await } else { self.read_blocks(from, to).await };
            match read {
                Err(FetchError::Refused(why)) if why == "trace_filter: missing" => {
                    tracing::info!(chain = %self.chain, "the chain's node has no trace_filter: its blocks are read one by one");
                    self.trace_filter = Some(false)
                }
                Err(FetchError::Refused(why)) if why == "eth_getBlockReceipts: missing" => self.block_receipts = Some(false),
                Err(FetchError::Refused(why)) if why == "trace_block: missing" => {
                    tracing::info!(chain = %self.chain, "the chain's node has no trace_block: internal transfers are not indexed");
                    self.traces = Some(false)
                }
                Ok(read) => {
                    if traced {
                        self.trace_filter = Some(true);
                    }
                    return Ok(read);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The nonces of transactions `hashes` (None for one the node does not know).
    pub async fn nonces(&self, hashes: &[String]) -> Result<Vec<Option<i64>>, FetchError> {
        #[derive(Deserialize)]
        struct Nonce {
            nonce: String,
        }
        let calls = hashes.iter().map(|h| call("eth_getTransactionByHash", format!(r#"["{h}"]"#))).collect();
        let replies = self.many(calls).await?;
        Ok(replies.iter().map(|r| Self::parse::<Option<Nonce>>(r, "eth_getTransactionByHash").ok().flatten().and_then(|n| number(&n.nonce))).collect())
    }

    /// name(), symbol() and decimals() of each token, read on chain; a token that answers
    /// none gets empty names and 0 decimals (read once all the same).
    pub async fn token_metadata(&self, tokens: &[String]) -> Result<Vec<TokenRow>, FetchError> {
        const SELECTORS: [&str; 3] = ["0x06fdde03", "0x95d89b41", "0x313ce567"];
        let calls = tokens.iter().flat_map(|t| SELECTORS.iter().map(move |s| call("eth_call", format!(r#"[{{"to":"{t}","data":"{s}"}},"latest"]"#)))).collect();
        let replies = self.many(calls).await?;
        let hex = |r: &Reply| crate::rpc::calls::hex_result(r).unwrap_or_default();
        Ok(tokens
            .iter()
            .zip(replies.chunks(3))
            .map(|(t, r)| TokenRow {
                address: t.clone(),
                name: abi_text(&hex(&r[0])),
                symbol: abi_text(&hex(&r[1])),
                decimals: quantity(&hex(&r[2])).filter(|d| *d <= 77).map_or(0, |d| d as i64),
            })
            .collect())
    }
}

/// An ABI `string` return, or a `bytes32` one (older tokens); "" when neither.
pub fn abi_text(hex: &str) -> String {
    let Ok(bytes) = alloy_primitives::hex::decode(hex.strip_prefix("0x").unwrap_or(hex)) else { return String::new() };
    let text = if bytes.len() == 32 {
        String::from_utf8_lossy(&bytes).trim_end_matches('\0').to_owned()
    } else {
        alloy_dyn_abi::DynSolType::String.abi_decode(&bytes).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    };
    text.chars().filter(|c| !c.is_control()).take(64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::keccak256;

    #[test]
    fn event_topics() {
        let topic = |s: &str| format!("{}", keccak256(s.as_bytes()));
        assert_eq!(topic("Transfer(address,address,uint256)"), TRANSFER);
        assert_eq!(topic("Approval(address,address,uint256)"), APPROVAL);
        assert_eq!(topic("TransferSingle(address,address,address,uint256,uint256)"), TRANSFER_SINGLE);
        assert_eq!(topic("TransferBatch(address,address,address,uint256[],uint256[])"), TRANSFER_BATCH);
    }

    fn word(n: u64) -> String {
        format!("{n:064x}")
    }

    fn addr_topic(a: &str) -> String {
        format!("0x{:0>64}", a.trim_start_matches("0x"))
    }

    fn log(topics: Vec<String>, data: String) -> Log {
        Log {
            address: "0xAB".into(),
            topics,
            data,
            block_hash: "0x1".into(),
            block_number: None,
            block_timestamp: None,
            transaction_hash: "0xFF".into(),
            log_index: "0x2".into(),
            removed: false,
        }
    }

    #[test]
    fn reads_token_events() {
        let a = "0x00000000000000000000000000000000000000aa";
        let b = "0x00000000000000000000000000000000000000bb";
        let erc20 = log_transfers(&log(vec![TRANSFER.into(), addr_topic(a), addr_topic(b)], format!("0x{}", word(1500))), 7);
        assert_eq!(
            (erc20[0].kind, erc20[0].amount.as_str(), erc20[0].sender.as_str(), erc20[0].recipient.as_str(), erc20[0].seq),
            (Kind::Erc20, "1500", a, b, 2048)
        );
        assert_eq!((erc20[0].token.as_str(), erc20[0].hash.as_str(), erc20[0].block), ("0xab", "0xff", 7));
        let erc721 = log_transfers(&log(vec![TRANSFER.into(), addr_topic(ZERO), addr_topic(b), format!("0x{}", word(3))], "0x".into()), 7);
        assert_eq!((erc721[0].kind, erc721[0].token_id.as_str(), erc721[0].amount.as_str(), erc721[0].sender.as_str()), (Kind::Erc721, "3", "1", ZERO));
        let single = log_transfers(&log(vec![TRANSFER_SINGLE.into(), addr_topic(a), addr_topic(a), addr_topic(b)], format!("0x{}{}", word(9), word(4))), 7);
        assert_eq!((single[0].kind, single[0].token_id.as_str(), single[0].amount.as_str()), (Kind::Erc1155, "9", "4"));
        // ids [1, 2], values [10, 20]
        let data = format!("0x{}{}{}{}{}{}{}{}", word(64), word(160), word(2), word(1), word(2), word(2), word(10), word(20));
        let batch = log_transfers(&log(vec![TRANSFER_BATCH.into(), addr_topic(a), addr_topic(a), addr_topic(b)], data), 7);
        let got: Vec<(&str, &str, i64)> = batch.iter().map(|t| (t.token_id.as_str(), t.amount.as_str(), t.seq)).collect();
        assert_eq!(got, [("1", "10", 2048), ("2", "20", 2049)]);
        let approval = log_transfers(&log(vec![APPROVAL.into(), addr_topic(a), addr_topic(b)], format!("0x{}", word(5))), 7);
        assert_eq!((approval[0].kind, approval[0].amount.as_str()), (Kind::Approval, "5"));
        assert!(log_transfers(&log(vec![TRANSFER.into(), addr_topic(a)], "0x".into()), 7).is_empty());
        assert!(log_transfers(&log(vec!["0x1234".into()], "0x".into()), 7).is_empty());
    }

    #[test]
    fn odd_node_data_is_skipped_not_a_panic() {
        let a = "0x00000000000000000000000000000000000000aa";
        // Multi-byte characters where hex belongs: no slicing inside a character.
        let odd = format!("0x{}é{}", "0".repeat(23), "0".repeat(39));
        assert_eq!(odd.len(), 66);
        assert!(log_transfers(&log(vec![TRANSFER.into(), odd.clone(), addr_topic(a)], format!("0x{}", word(1))), 7).is_empty());
        let data = format!("0x{}é{}", "0".repeat(63), "0".repeat(62));
        assert!(log_transfers(&log(vec![TRANSFER_SINGLE.into(), addr_topic(a), addr_topic(a), addr_topic(a)], data), 7).is_empty());
        // A log index whose order would overflow.
        let mut huge = log(vec![TRANSFER.into(), addr_topic(a), addr_topic(a)], format!("0x{}", word(1)));
        huge.log_index = format!("{:#x}", i64::MAX);
        assert!(log_transfers(&huge, 7).is_empty());
    }

    #[test]
    fn rows_of_a_block() {
        let a = "0x00000000000000000000000000000000000000aa";
        let b = "0x00000000000000000000000000000000000000bb";
        let c = "0x00000000000000000000000000000000000000cc";
        let tx = |hash: &str, index: &str, to: Option<&str>, value: &str| Tx {
            hash: hash.into(),
            from: a.to_uppercase().replace("0X", "0x"),
            to: to.map(str::to_owned),
            value: value.into(),
            nonce: "0x7".into(),
            transaction_index: index.into(),
        };
        let block = Block {
            header: Header { number: "0x10".into(), hash: "0xB1".into(), parent_hash: "0xb0".into(), timestamp: "0x64".into() },
            transactions: vec![tx("0xT1", "0x0", Some(b), "0xde0b6b3a7640000"), tx("0xt2", "0x1", Some(b), "0x5"), tx("0xt3", "0x2", None, "0x0")],
        };
        let receipt = |hash: &str, status: &str, created: Option<&str>| Receipt {
            transaction_hash: hash.into(),
            status: Some(status.into()),
            contract_address: created.map(str::to_owned),
        };
        let trace = |hash: &str, path: Vec<u64>, call_type: &str, value: &str, error: Option<&str>| Trace {
            action: TraceAction { from: Some(b.into()), to: Some(c.into()), value: Some(value.into()), call_type: Some(call_type.into()) },
            error: error.map(str::to_owned),
            result: None,
            trace_address: path,
            transaction_hash: Some(hash.into()),
            transaction_position: None,
            block_number: Some(16),
            block_hash: None,
            kind: "call".into(),
        };
        let receipts = [receipt("0xt1", "0x1", None), receipt("0xt2", "0x0", None), receipt("0xt3", "0x1", Some(c))]
            .into_iter()
            .map(|r| (r.transaction_hash.clone(), r))
            .collect();
        let read = Read {
            txs: top_of_blocks(std::slice::from_ref(&block), &receipts).unwrap(),
            headers: vec![block.header],
            logs: vec![],
            traces: vec![
                trace("0xt1", vec![], "call", "0xde0b6b3a7640000", None),
                trace("0xt1", vec![0], "call", "0x3", None),
                trace("0xt1", vec![1], "delegatecall", "0x3", None),
                trace("0xt1", vec![2], "call", "0x4", Some("Reverted")),
                trace("0xt2", vec![0], "call", "0x9", None),
            ],
        };
        let rows = to_rows(&read).unwrap();
        assert_eq!(rows.blocks, [(16, "0xb1".to_owned())]);
        let txs: Vec<(&str, i64, i64, bool, &str, &str)> =
            rows.txs.iter().map(|t| (t.hash.as_str(), t.block, t.mined_at, t.succeeded, t.recipient.as_str(), t.value.as_str())).collect();
        assert_eq!(txs, [("0xt1", 16, 100, true, b, "1000000000000000000"), ("0xt2", 16, 100, false, b, "5"), ("0xt3", 16, 100, true, c, "0")]);
        assert_eq!((rows.txs[0].sender.as_str(), rows.txs[0].nonce, rows.txs[1].tx_index), (a, Some(7), 1));
        // The first transaction's own value and one internal transfer; nothing of the failed one.
        let moved: Vec<(&str, i64, Kind, &str)> = rows.transfers.iter().map(|t| (t.hash.as_str(), t.seq, t.kind, t.amount.as_str())).collect();
        assert_eq!(moved, [("0xt1", -1, Kind::Native, "1000000000000000000"), ("0xt1", -2, Kind::Internal, "3")]);
    }

    #[test]
    fn rows_of_traces_and_logs() {
        let a = "0x00000000000000000000000000000000000000aa";
        let b = "0x00000000000000000000000000000000000000bb";
        let c = "0x00000000000000000000000000000000000000cc";
        let top = |hash: &str, kind: &str, position: u64, block: u64, to: Option<&str>, error: Option<&str>| Trace {
            action: TraceAction { from: Some(a.to_uppercase().replace("0X", "0x")), to: to.map(str::to_owned), value: Some("0x5".into()), call_type: None },
            error: error.map(str::to_owned),
            result: (kind == "create").then(|| TraceResult { address: Some(c.into()) }),
            trace_address: vec![],
            transaction_hash: Some(hash.into()),
            transaction_position: Some(position),
            block_number: Some(block),
            block_hash: None,
            kind: kind.into(),
        };
        let reward = Trace { transaction_hash: None, kind: "reward".into(), ..top("", "reward", 0, 17, None, None) };
        let traces = vec![
            top("0xT1", "call", 0, 16, Some(b), None),
            top("0xt2", "call", 1, 16, Some(b), Some("Reverted")),
            top("0xt3", "create", 0, 17, None, None),
            reward,
        ];
        let txs = top_of_traces(&traces).unwrap();
        let got: Vec<String> = txs.iter().map(|t| format!("{} {} {} {} {} {:?} {}", t.hash, t.block, t.index, t.from, t.to, t.nonce, t.succeeded)).collect();
        assert_eq!(got, [format!("0xt1 16 0 {a} {b} None true"), format!("0xt2 16 1 {a} {b} None false"), format!("0xt3 17 0 {a} {c} None true")]);
        // Block 16's time from a log, block 17's from its header; a log of another chain's block 17 is refused.
        let mut timed = log(vec![TRANSFER.into(), addr_topic(a), addr_topic(b)], format!("0x{}", word(1)));
        (timed.block_number, timed.block_timestamp, timed.transaction_hash) = (Some("0x10".into()), Some("0x64".into()), "0xt1".into());
        let header = Header { number: "0x11".into(), hash: "0xB17".into(), parent_hash: "0xb16".into(), timestamp: "0x65".into() };
        let read = Read { headers: vec![header], txs: txs.clone(), logs: vec![timed.clone()], traces: traces.clone() };
        let rows = to_rows(&read).unwrap();
        let times: Vec<(&str, i64)> = rows.txs.iter().map(|t| (t.hash.as_str(), t.mined_at)).collect();
        assert_eq!(times, [("0xt1", 100), ("0xt2", 100), ("0xt3", 101)]);
        let moved: Vec<(&str, Kind, &str)> = rows.transfers.iter().map(|t| (t.hash.as_str(), t.kind, t.amount.as_str())).collect();
        assert_eq!(moved, [("0xt1", Kind::Erc20, "1"), ("0xt1", Kind::Native, "5"), ("0xt3", Kind::Native, "5")]);
        assert_eq!(rows.blocks, [(17, "0xb17".to_owned())]);
        let mut forked = timed;
        (forked.block_number, forked.block_hash) = (Some("0x11".into()), "0xother".into());
        assert!(to_rows(&Read { logs: vec![forked], ..read }).is_err());
        // Without a time for block 16 (no log, no header), the read is refused, not guessed.
        assert!(to_rows(&Read { headers: vec![], txs, logs: vec![], traces }).is_err());
    }

    #[test]
    fn reads_abi_text() {
        let encoded = alloy_dyn_abi::DynSolValue::String("Sigil".into()).abi_encode();
        assert_eq!(abi_text(&format!("0x{}", alloy_primitives::hex::encode(encoded))), "Sigil");
        assert_eq!(abi_text(&format!("0x{}", "4d4b52".to_owned() + &"0".repeat(58))), "MKR");
        assert_eq!(abi_text("0x"), "");
    }
}
