//! What the indexer reads from an EVM chain, through the proxy's upstreams: the logs of token
//! transfers and approvals over a range (one eth_getLogs), the blocks with their transactions,
//! the receipts (eth_getBlockReceipts, else one receipt per transaction) and, where the node has
//! it, trace_block for internal transfers of the coin. Calls go in JSON-RPC batches; the
//! answers become the area's rows (`to_rows`).

use std::collections::{HashMap, HashSet};
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
pub struct Block {
    pub number: String,
    pub hash: String,
    pub parent_hash: String,
    pub timestamp: String,
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
    pub trace_address: Vec<u64>,
    pub transaction_hash: Option<String>,
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

/// Blocks `from..=to` as the node gave them.
#[derive(Debug, Default)]
pub struct Read {
    pub blocks: Vec<Block>,
    pub receipts: HashMap<String, Receipt>,
    pub logs: Vec<Log>,
    pub traces: Vec<Trace>,
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
    /// (number, hash) of each block read.
    pub blocks: Vec<(i64, String)>,
}

/// The rows of what was read: each transaction (with its status and, if it moved any, its own
/// value), the transfers of its logs, and internal transfers of the coin from its traces.
pub fn to_rows(read: &Read) -> Result<Rows, FetchError> {
    let bad = |what: &str| FetchError::Refused(format!("the node answered a {what} that cannot be read"));
    let mut txs = Vec::new();
    let mut transfers = Vec::new();
    let mut blocks = Vec::new();
    let mut numbers: HashMap<String, i64> = HashMap::new();
    let mut failed: HashSet<String> = HashSet::new();
    for block in &read.blocks {
        let number = quantity(&block.number).and_then(|n| i64::try_from(n).ok()).ok_or_else(|| bad("block number"))?;
        let mined_at = quantity(&block.timestamp).and_then(|n| i64::try_from(n).ok()).ok_or_else(|| bad("timestamp"))?;
        blocks.push((number, lower(&block.hash)));
        numbers.insert(lower(&block.hash), number);
        for tx in &block.transactions {
            let hash = lower(&tx.hash);
            let receipt = read.receipts.get(&hash).ok_or_else(|| bad("block without a receipt for each transaction"))?;
            let succeeded = receipt.status.as_deref().and_then(quantity) != Some(0);
            let recipient = tx.to.as_deref().or(receipt.contract_address.as_deref()).map(lower).unwrap_or_default();
            let value = decimal(&tx.value).ok_or_else(|| bad("transaction value"))?;
            if !succeeded {
                failed.insert(hash.clone());
            } else if value != "0" {
                transfers.push(TransferRow {
                    hash: hash.clone(),
                    seq: -1,
                    block: number,
                    kind: Kind::Native,
                    token: String::new(),
                    sender: lower(&tx.from),
                    recipient: recipient.clone(),
                    token_id: String::new(),
                    amount: value.clone(),
                });
            }
            txs.push(TxRow {
                hash,
                block: number,
                tx_index: quantity(&tx.transaction_index).and_then(|n| i64::try_from(n).ok()).ok_or_else(|| bad("transaction index"))?,
                mined_at,
                sender: lower(&tx.from),
                recipient,
                value,
                nonce: quantity(&tx.nonce).and_then(|n| i64::try_from(n).ok()).ok_or_else(|| bad("nonce"))?,
                succeeded,
            });
        }
    }
    for log in read.logs.iter().filter(|l| !l.removed) {
        // A log of a block other than the one read: the chain moved between the calls.
        let block = *numbers.get(&lower(&log.block_hash)).ok_or_else(|| FetchError::Refused("the chain changed while it was read".into()))?;
        transfers.extend(log_transfers(log, block));
    }
    let mut internal: HashMap<String, i64> = HashMap::new();
    let by_hash: HashMap<&str, i64> = txs.iter().map(|t| (t.hash.as_str(), t.block)).collect();
    for trace in &read.traces {
        let a = &trace.action;
        let Some(hash) = trace.transaction_hash.as_deref().map(lower) else { continue };
        if trace.trace_address.is_empty() || trace.error.is_some() || failed.contains(&hash) || trace.kind != "call" {
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

/// A chain's node, as the indexer reads it. Remembers which optional methods the node has.
pub struct Source {
    pub rpc: Arc<Rpc>,
    pub chain: String,
    /// eth_getBlockReceipts answers (None: not asked yet).
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

impl Source {
    pub fn new(rpc: Arc<Rpc>, chain: &str) -> Source {
        Source { rpc, chain: chain.to_owned(), block_receipts: None, traces: None }
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
        serde_json::from_str::<String>(&raw)
            .ok()
            .and_then(|h| quantity(&h))
            .and_then(|n| i64::try_from(n).ok())
            .ok_or_else(|| FetchError::Refused("eth_blockNumber: not a quantity".into()))
    }

    /// The hashes of blocks `numbers` on the node now (None: it has no such block).
    pub async fn hashes(&self, numbers: &[i64]) -> Result<Vec<Option<String>>, FetchError> {
        #[derive(Deserialize)]
        struct Header {
            hash: String,
        }
        let calls = numbers.iter().map(|n| call("eth_getBlockByNumber", format!(r#"["0x{n:x}",false]"#))).collect();
        let replies = self.many(calls).await?;
        replies.iter().map(|r| Self::parse::<Option<Header>>(r, "eth_getBlockByNumber").map(|h| h.map(|h| lower(&h.hash)))).collect()
    }

    /// Blocks `from..=to`: their transactions, receipts, transfer logs and (where the node
    /// traces) internal calls.
    pub async fn read(&mut self, from: i64, to: i64) -> Result<Read, FetchError> {
        let filter = serde_json::json!([{
            "fromBlock": format!("0x{from:x}"),
            "toBlock": format!("0x{to:x}"),
            "topics": [[TRANSFER, APPROVAL, TRANSFER_SINGLE, TRANSFER_BATCH]],
        }]);
        let block_calls = (from..=to).map(|n| call("eth_getBlockByNumber", format!(r#"["0x{n:x}",true]"#))).collect();
        let (logs, blocks) = futures::try_join!(self.one("eth_getLogs", filter.to_string()), self.many(block_calls))?;
        let logs: Vec<Log> = serde_json::from_str(&logs).map_err(|e| FetchError::Refused(format!("eth_getLogs: {e}")))?;
        let blocks: Vec<Block> = blocks
            .iter()
            .map(|r| Self::parse::<Option<Block>>(r, "eth_getBlockByNumber")?.ok_or_else(|| FetchError::Refused("a block below the head is missing".into())))
            .collect::<Result<_, _>>()?;
        for pair in blocks.windows(2) {
            if lower(&pair[1].parent_hash) != lower(&pair[0].hash) {
                return Err(FetchError::Refused("the chain changed while it was read".into()));
            }
        }
        let with_txs: Vec<&Block> = blocks.iter().filter(|b| !b.transactions.is_empty()).collect();
        let (receipts, traces) = futures::try_join!(self.receipts(&with_txs), self.traces(&with_txs))?;
        Ok(Read { blocks, receipts, logs, traces })
    }

    async fn receipts(&self, blocks: &[&Block]) -> Result<HashMap<String, Receipt>, FetchError> {
        let mut out = HashMap::new();
        if blocks.is_empty() {
            return Ok(out);
        }
        if self.block_receipts != Some(false) {
            let calls = blocks.iter().map(|b| call("eth_getBlockReceipts", format!(r#"["{}"]"#, b.hash))).collect();
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
        let calls = blocks.iter().map(|b| call("trace_block", format!(r#"["{}"]"#, b.number))).collect();
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

    /// Reads blocks `from..=to`, first finding out (once) which optional methods the node has.
    pub async fn read_range(&mut self, from: i64, to: i64) -> Result<Read, FetchError> {
        loop {
            match self.read(from, to).await {
                Err(FetchError::Refused(why)) if why == "eth_getBlockReceipts: missing" => self.block_receipts = Some(false),
                Err(FetchError::Refused(why)) if why == "trace_block: missing" => {
                    tracing::info!(chain = %self.chain, "the chain's node has no trace_block: internal transfers are not indexed");
                    self.traces = Some(false)
                }
                Ok(read) => {
                    if !read.blocks.iter().all(|b| b.transactions.is_empty()) {
                        self.block_receipts.get_or_insert(true);
                        self.traces.get_or_insert(true);
                    }
                    return Ok(read);
                }
                Err(e) => return Err(e),
            }
        }
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
        Log { address: "0xAB".into(), topics, data, block_hash: "0x1".into(), transaction_hash: "0xFF".into(), log_index: "0x2".into(), removed: false }
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
            number: "0x10".into(),
            hash: "0xB1".into(),
            parent_hash: "0xb0".into(),
            timestamp: "0x64".into(),
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
            trace_address: path,
            transaction_hash: Some(hash.into()),
            kind: "call".into(),
        };
        let read = Read {
            blocks: vec![block],
            receipts: [receipt("0xt1", "0x1", None), receipt("0xt2", "0x0", None), receipt("0xt3", "0x1", Some(c))]
                .into_iter()
                .map(|r| (r.transaction_hash.clone(), r))
                .collect(),
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
        assert_eq!((rows.txs[0].sender.as_str(), rows.txs[0].nonce, rows.txs[1].tx_index), (a, 7, 1));
        // The first transaction's own value and one internal transfer; nothing of the failed one.
        let moved: Vec<(&str, i64, Kind, &str)> = rows.transfers.iter().map(|t| (t.hash.as_str(), t.seq, t.kind, t.amount.as_str())).collect();
        assert_eq!(moved, [("0xt1", -1, Kind::Native, "1000000000000000000"), ("0xt1", -2, Kind::Internal, "3")]);
    }

    #[test]
    fn reads_abi_text() {
        let encoded = alloy_dyn_abi::DynSolValue::String("Sigil".into()).abi_encode();
        assert_eq!(abi_text(&format!("0x{}", alloy_primitives::hex::encode(encoded))), "Sigil");
        assert_eq!(abi_text(&format!("0x{}", "4d4b52".to_owned() + &"0".repeat(58))), "MKR");
        assert_eq!(abi_text("0x"), "");
    }
}
