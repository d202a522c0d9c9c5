//! Transaction history: Sigil's own indexer of every configured EVM chain, and the Activity API
//! (GET /v1/account/{address}/history) that pages through what it stored.
//!
//! One indexer task per chain reads blocks in batches from the chain's upstreams (evm.rs):
//! transactions, their receipts, token transfer and approval logs, internal transfers of the
//! coin where the node traces. Each batch is written with the cursor's advance in one database
//! transaction (store.rs), so a stopped server resumes with nothing lost or doubled. The hashes
//! of the last `reorg_depth` blocks are kept: when the next block's parent is not the stored one,
//! the rows above the fork are deleted and read again. Several processes on one database share
//! the work through a lease per chain: one indexes it, another takes over once the lease
//! expires (at once when the holder stops: it gives the lease up), all serve. A panicking
//! indexer is restarted after a back-off.
//!
//! Solana chains need no indexer: their node lists an address's signatures itself, and the
//! route reads each page from it (solana.rs).

pub mod evm;
pub mod routes;
pub mod solana;
pub mod store;
pub mod upstream;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use tokio::task::JoinHandle;

use crate::chains::ChainConfig;
use crate::config::HistorySettings;
use crate::db::{self, Db};
use crate::families::Family;
use crate::rpc::Rpc;
use evm::{FetchError, Source, ZERO};
use store::{Appearance, Batch, Kind, TokenRow, TransferRow, TxRow, Writer};

/// The history route, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::history))
}

/// Whether `chain`'s history is indexed: an EVM chain whose config does not turn it off.
pub fn is_indexed(chain: &ChainConfig) -> bool {
    Family::of_chain(&chain.id) == Some(Family::Evm) && chain.history.enabled != Some(false)
}

/// Starts one indexer per indexed chain (none when history is turned off), each restarted
/// after a panic (`supervise`). `holder` names this process in the chains' leases. When
/// `shutdown` turns true (or its sender is gone) each stops and gives its chain's lease up, so
/// another process sharing the database takes the chain over at once: await the handles.
pub fn spawn(db: &Db, rpc: &Arc<Rpc>, settings: &HistorySettings, holder: &str, shutdown: tokio::sync::watch::Receiver<bool>) -> Vec<JoinHandle<()>> {
    if !settings.enabled {
        return Vec::new();
    }
    rpc.chains()
        .by_id
        .values()
        .filter(|c| is_indexed(c))
        .map(|chain| {
            let (db, rpc, chain, settings, holder, mut shutdown) =
                (db.clone(), rpc.clone(), chain.clone(), settings.clone(), holder.to_owned(), shutdown.clone());
            tokio::spawn(async move {
                let start = || {
                    Indexer {
                        db: db.clone(),
                        source: Source::new(rpc.clone(), &chain.id),
                        chain: chain.clone(),
                        settings: settings.clone(),
                        holder: holder.clone(),
                        batch: settings.batch_blocks.into(),
                    }
                    .run()
                };
                tokio::select! {
                    () = supervise(&chain.id, settings.poll_interval, start) => {}
                    _ = shutdown.wait_for(|stop| *stop) => {}
                }
                match tokio::time::timeout(RELEASE_TIMEOUT, store::release_lease(&db, &chain.id, &holder)).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => tracing::debug!(chain = %chain.id, error = %e, "the history lease was not given up: it expires"),
                    Err(_) => tracing::debug!(chain = %chain.id, "the history lease was not given up in time: it expires"),
                }
            })
        })
        .collect()
}

/// How long a stopping indexer tries to give its lease up.
const RELEASE_TIMEOUT: Duration = Duration::from_secs(5);

/// Runs the task `start` makes until it ends. A panic (a bug, or node data no check foresaw)
/// is logged once, as an error, and the task starts again after a back-off (doubled at each
/// panic, up to `MAX_BACKOFF`): one chain's indexer never stops for good.
async fn supervise<F, Fut>(chain: &str, backoff: Duration, mut start: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    let mut panics = 0u32;
    loop {
        let Err(panic) = AssertUnwindSafe(start()).catch_unwind().await else { return };
        panics = panics.saturating_add(1);
        let why = panic.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| panic.downcast_ref::<String>().cloned()).unwrap_or_default();
        tracing::error!(chain, panic = %why, panics, "the history indexer panicked: restarting it after a back-off");
        tokio::time::sleep((backoff * 2u32.saturating_pow(panics.min(10))).min(MAX_BACKOFF)).await;
    }
}

/// What one cycle of an indexer came to.
#[derive(Debug, PartialEq, Eq)]
enum Cycle {
    /// More blocks are waiting: go on at once.
    More,
    /// At the head: wait for new blocks.
    Idle,
    /// Another process holds the chain's lease.
    NotHolder,
}

#[derive(Debug, thiserror::Error)]
enum IndexError {
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

struct Indexer {
    db: Db,
    source: Source,
    chain: ChainConfig,
    settings: HistorySettings,
    holder: String,
    /// Blocks per read: halved after a failure (a node's limit on logs per call), grown back.
    batch: i64,
}

/// Failures back off up to this.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

impl Indexer {
    async fn run(mut self) {
        let mut failures = 0u32;
        loop {
            let wait = match self.cycle().await {
                Ok(Cycle::More) => {
                    failures = 0;
                    continue;
                }
                Ok(Cycle::Idle) | Ok(Cycle::NotHolder) => {
                    failures = 0;
                    self.settings.poll_interval
                }
                Err(e) => {
                    failures += 1;
                    self.batch = (self.batch / 2).max(1);
                    // One warning when a chain starts failing, then quiet until it recovers.
                    if failures == 1 {
                        tracing::warn!(chain = %self.chain.id, error = %e, "history indexing paused: the chain or the database does not answer; retrying with back-off");
                    } else {
                        tracing::debug!(chain = %self.chain.id, error = %e, failures, "history indexing still failing");
                    }
                    (self.settings.poll_interval * 2u32.saturating_pow(failures.min(10))).min(MAX_BACKOFF)
                }
            };
            tokio::time::sleep(wait).await;
        }
    }

    fn writer(&self) -> Writer<'_> {
        Writer { chain: &self.chain.id, holder: &self.holder, lease_until: db::now_ms() + self.settings.lease.as_millis() as i64 }
    }

    async fn cycle(&mut self) -> Result<Cycle, IndexError> {
        let now = db::now_ms();
        if !store::acquire_lease(&self.db, &self.writer(), now).await? {
            return Ok(Cycle::NotHolder);
        }
        let head = self.source.head().await?;
        let next = match store::cursor(&self.db, &self.chain.id).await? {
            Some(next) => next,
            None => {
                let start = self.chain.history.from_block.map_or(head, |b| b as i64);
                store::start_cursor(&self.db, &self.chain.id, start).await?;
                store::cursor(&self.db, &self.chain.id).await?.unwrap_or(start)
            }
        };
        let recent = store::recent_blocks(&self.db, &self.chain.id).await?;
        let stored_parent = recent.first().filter(|(n, _)| *n == next - 1).map(|(_, h)| h.clone());
        if next > head {
            // At the head: has the chain replaced the last block read?
            if let Some(ours) = &stored_parent {
                let theirs = self.source.hashes(&[next - 1]).await?.pop().flatten();
                if theirs.as_ref() != Some(ours) {
                    return self.reorg(next, &recent).await;
                }
            }
            return Ok(Cycle::Idle);
        }
        let to = head.min(next.saturating_add(self.batch - 1));
        let read = self.source.read_range(next, to, self.settings.reorg_depth.into()).await?;
        if let (Some(ours), Some(first)) = (&stored_parent, read.first_parent()) {
            if &first != ours {
                return self.reorg(next, &recent).await;
            }
        }
        let evm::Rows { txs, transfers, blocks } = evm::to_rows(&read)?;
        let tokens = self.tokens(&transfers).await?;
        let lookalike = |token: &str| tokens.get(token).is_some_and(|t| is_lookalike(&self.chain, t));
        let appearances = appearances(&txs, &transfers, lookalike);
        let batch = Batch { from: next, to, txs, transfers, appearances, blocks };
        if !store::write_batch(&self.db, &self.writer(), &batch, self.settings.reorg_depth.into()).await? {
            return Ok(Cycle::NotHolder);
        }
        self.batch = (self.batch * 2).min(self.settings.batch_blocks.into());
        Ok(if to < head { Cycle::More } else { Cycle::Idle })
    }

    /// The chain replaced blocks that were read: finds the newest kept block the node still
    /// has, and forgets everything above it.
    async fn reorg(&mut self, next: i64, recent: &[(i64, String)]) -> Result<Cycle, IndexError> {
        let numbers: Vec<i64> = recent.iter().map(|(n, _)| *n).collect();
        let theirs = self.source.hashes(&numbers).await?;
        let deepest = recent.last().map_or(next - 1, |(n, _)| n - 1);
        let fork = recent.iter().zip(&theirs).find(|((_, ours), theirs)| theirs.as_ref() == Some(ours)).map_or(deepest, |((n, _), _)| *n);
        tracing::warn!(chain = %self.chain.id, fork, "the chain reorganised: blocks after the fork are read again");
        Ok(if store::rewind(&self.db, &self.writer(), next, fork).await? { Cycle::More } else { Cycle::NotHolder })
    }

    /// Metadata of every token the transfers name: stored, else from the chain's token list,
    /// else read on chain (and stored, so each token is read once).
    async fn tokens(&self, transfers: &[TransferRow]) -> Result<HashMap<String, TokenRow>, IndexError> {
        let wanted: Vec<String> =
            transfers.iter().filter(|t| !t.kind.is_coin() && t.kind != Kind::Approval).map(|t| t.token.clone()).collect::<BTreeSet<_>>().into_iter().collect();
        let mut known: HashMap<String, TokenRow> = HashMap::new();
        for chunk in wanted.chunks(500) {
            known.extend(store::tokens(&self.db, &self.chain.id, chunk).await?.into_iter().map(|t| (t.address.clone(), t)));
        }
        let (listed, unknown): (Vec<&String>, Vec<&String>) = wanted.iter().filter(|a| !known.contains_key(*a)).partition(|a| self.chain.token(a).is_some());
        let mut new: Vec<TokenRow> = listed
            .into_iter()
            .filter_map(|a| {
                self.chain.token(a).map(|t| TokenRow { address: a.clone(), name: t.name.clone(), symbol: t.symbol.clone(), decimals: t.decimals.into() })
            })
            .collect();
        let unknown: Vec<String> = unknown.into_iter().cloned().collect();
        new.extend(self.source.token_metadata(&unknown).await?);
        store::save_tokens(&self.db, &self.chain.id, &new).await?;
        known.extend(new.into_iter().map(|t| (t.address.clone(), t)));
        Ok(known)
    }
}

/// A token that takes the symbol of a listed token (or of the chain's coin) without being it.
pub fn is_lookalike(chain: &ChainConfig, token: &TokenRow) -> bool {
    let symbol = token.symbol.trim();
    if symbol.is_empty() || chain.token(&token.address).is_some() {
        return false;
    }
    chain.native.symbol.eq_ignore_ascii_case(symbol) || chain.tokens.iter().any(|t| t.symbol.eq_ignore_ascii_case(symbol))
}

/// Each transaction once for every address it touches, judged for spam as that address sees
/// it: every transfer it got is a zero-value fungible transfer or of a lookalike token, in a
/// transaction someone else sent (address poisoning).
pub fn appearances(txs: &[TxRow], transfers: &[TransferRow], lookalike: impl Fn(&str) -> bool) -> Vec<Appearance> {
    let mut by_tx: HashMap<&str, Vec<&TransferRow>> = HashMap::new();
    for t in transfers {
        by_tx.entry(t.hash.as_str()).or_default().push(t);
    }
    let mut out = Vec::new();
    for tx in txs {
        let moves = by_tx.get(tx.hash.as_str()).map(Vec::as_slice).unwrap_or_default();
        let mut addresses: BTreeSet<&str> = BTreeSet::new();
        addresses.insert(&tx.sender);
        if !tx.recipient.is_empty() {
            addresses.insert(&tx.recipient);
        }
        for t in moves {
            addresses.insert(&t.sender);
            if t.kind != Kind::Approval {
                addresses.insert(&t.recipient);
            }
        }
        addresses.remove(ZERO);
        for address in addresses {
            let touching: Vec<&&TransferRow> = moves.iter().filter(|t| t.kind != Kind::Approval && (t.sender == address || t.recipient == address)).collect();
            let spam = (address != tx.sender && !touching.is_empty())
                .then(|| {
                    let is_lookalike = |t: &TransferRow| !t.kind.is_coin() && lookalike(&t.token);
                    let zero = |t: &TransferRow| t.kind == Kind::Erc20 && t.amount == "0";
                    if !touching.iter().all(|t| is_lookalike(t) || zero(t)) {
                        None
                    } else if touching.iter().any(|t| is_lookalike(t)) {
                        Some("lookalike")
                    } else {
                        Some("zero-value")
                    }
                })
                .flatten();
            out.push(Appearance { address: address.to_owned(), block: tx.block, tx_index: tx.tx_index, hash: tx.hash.clone(), spam });
        }
    }
    out
}

/// What a transaction was for `address`, from what it moved: approve (only an approval),
/// mint or burn (from or to the zero address), trade (one asset out, another in), send,
/// receive, else execute.
pub fn operation(address: &str, transfers: &[&TransferRow]) -> &'static str {
    let moves: Vec<&&TransferRow> = transfers.iter().filter(|t| t.kind != Kind::Approval).collect();
    if moves.is_empty() {
        return if transfers.iter().any(|t| t.kind == Kind::Approval && t.sender == address) { "approve" } else { "execute" };
    }
    if moves.iter().any(|t| t.sender == ZERO && t.recipient == address) {
        return "mint";
    }
    if moves.iter().any(|t| t.recipient == ZERO && t.sender == address) {
        return "burn";
    }
    let asset = |t: &TransferRow| if t.kind.is_coin() { (String::new(), String::new()) } else { (t.token.clone(), t.token_id.clone()) };
    let outs: HashSet<_> = moves.iter().filter(|t| t.sender == address).map(|t| asset(t)).collect();
    let ins: HashSet<_> = moves.iter().filter(|t| t.recipient == address).map(|t| asset(t)).collect();
    match (outs.is_empty(), ins.is_empty()) {
        (false, false) if outs != ins => "trade",
        (false, _) => "send",
        (true, false) => "receive",
        (true, true) => "execute",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "0x00000000000000000000000000000000000000aa";
    const YOU: &str = "0x00000000000000000000000000000000000000bb";

    fn tx(sender: &str) -> TxRow {
        TxRow {
            hash: "0x1".into(),
            block: 5,
            tx_index: 0,
            mined_at: 0,
            sender: sender.into(),
            recipient: "0xcc".into(),
            value: "0".into(),
            nonce: Some(0),
            succeeded: true,
        }
    }

    fn transfer(kind: Kind, token: &str, from: &str, to: &str, amount: &str) -> TransferRow {
        TransferRow {
            hash: "0x1".into(),
            seq: 0,
            block: 5,
            kind,
            token: token.into(),
            sender: from.into(),
            recipient: to.into(),
            token_id: String::new(),
            amount: amount.into(),
        }
    }

    #[test]
    fn operations() {
        let op = |ts: Vec<TransferRow>| operation(ME, &ts.iter().collect::<Vec<_>>());
        assert_eq!(op(vec![transfer(Kind::Native, "", ME, YOU, "1")]), "send");
        assert_eq!(op(vec![transfer(Kind::Erc20, "0xt", YOU, ME, "1")]), "receive");
        assert_eq!(op(vec![transfer(Kind::Erc20, "0xt", ME, ME, "1")]), "send");
        assert_eq!(op(vec![transfer(Kind::Erc721, "0xn", ZERO, ME, "1")]), "mint");
        assert_eq!(op(vec![transfer(Kind::Erc20, "0xt", ME, ZERO, "1")]), "burn");
        assert_eq!(op(vec![transfer(Kind::Erc20, "0xt", ME, YOU, "1"), transfer(Kind::Erc20, "0xu", YOU, ME, "2")]), "trade");
        assert_eq!(op(vec![transfer(Kind::Approval, "0xt", ME, YOU, "1")]), "approve");
        assert_eq!(op(vec![]), "execute");
    }

    #[tokio::test]
    async fn a_panicking_indexer_is_restarted() {
        let runs = std::sync::atomic::AtomicU32::new(0);
        let start = || {
            let run = runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async move {
                // Two panics (as on node data no check foresaw), then a run that ends.
                assert!(run >= 2, "run {run} panics");
            }
        };
        tokio::time::timeout(Duration::from_secs(10), supervise("eip155:1", Duration::from_millis(1), start)).await.expect("restarted, then ended");
        assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 3);
    }

    #[test]
    fn spam_is_judged_per_address() {
        let poison = vec![transfer(Kind::Erc20, "0xt", YOU, ME, "0")];
        let a = appearances(&[tx(YOU)], &poison, |_| false);
        let me = a.iter().find(|a| a.address == ME).unwrap();
        assert_eq!(me.spam, Some("zero-value"));
        assert_eq!(a.iter().find(|a| a.address == YOU).unwrap().spam, None, "the sender's own transaction is never spam to it");
        let fake = vec![transfer(Kind::Erc20, "0xfake", YOU, ME, "5")];
        assert_eq!(appearances(&[tx(YOU)], &fake, |t| t == "0xfake").iter().find(|a| a.address == ME).unwrap().spam, Some("lookalike"));
        let real = vec![transfer(Kind::Erc20, "0xt", YOU, ME, "5")];
        assert_eq!(appearances(&[tx(YOU)], &real, |_| false).iter().find(|a| a.address == ME).unwrap().spam, None);
        // The zero address is never an account with a history.
        let minted = vec![transfer(Kind::Erc721, "0xn", ZERO, ME, "1")];
        assert!(appearances(&[tx(YOU)], &minted, |_| false).iter().all(|a| a.address != ZERO));
    }
}
