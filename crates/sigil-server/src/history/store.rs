//! History storage: every SQL statement of the area, beside its typed rows. A batch of blocks
//! (its rows, its block hashes and the cursor's advance) is one transaction, which also renews
//! the writer's lease and checks the cursor is where the batch began: a batch is written once,
//! by the lease's holder, or not at all. Unique keys make a re-read block idempotent.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use crate::db::Db;

/// A top-level transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxRow {
    pub hash: String,
    pub block: i64,
    pub tx_index: i64,
    /// Unix seconds (the block's timestamp).
    pub mined_at: i64,
    pub sender: String,
    /// The called account, or the created contract.
    pub recipient: String,
    /// Wei, decimal.
    pub value: String,
    /// None until known: the trace way of reading a chain does not give it.
    pub nonce: Option<i64>,
    pub succeeded: bool,
}

/// Something moved (or approved) in a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferRow {
    pub hash: String,
    /// Order in the transaction (see the migration).
    pub seq: i64,
    pub block: i64,
    pub kind: Kind,
    /// The token contract; "" for the chain's coin.
    pub token: String,
    pub sender: String,
    pub recipient: String,
    /// "" for fungible transfers.
    pub token_id: String,
    /// Smallest unit (NFTs: a count), decimal.
    pub amount: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Native,
    Internal,
    Erc20,
    Erc721,
    Erc1155,
    Approval,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Native => "native",
            Kind::Internal => "internal",
            Kind::Erc20 => "erc20",
            Kind::Erc721 => "erc721",
            Kind::Erc1155 => "erc1155",
            Kind::Approval => "approval",
        }
    }

    fn parse(s: &str) -> Kind {
        match s {
            "native" => Kind::Native,
            "internal" => Kind::Internal,
            "erc20" => Kind::Erc20,
            "erc721" => Kind::Erc721,
            "erc1155" => Kind::Erc1155,
            _ => Kind::Approval,
        }
    }

    /// The chain's own coin (no token contract).
    pub fn is_coin(self) -> bool {
        matches!(self, Kind::Native | Kind::Internal)
    }

    pub fn is_nft(self) -> bool {
        matches!(self, Kind::Erc721 | Kind::Erc1155)
    }
}

/// A transaction as one address sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appearance {
    pub address: String,
    pub block: i64,
    pub tx_index: i64,
    pub hash: String,
    /// Why it is hidden by default: "zero-value" or "lookalike".
    pub spam: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    pub address: String,
    pub name: String,
    pub symbol: String,
    pub decimals: i64,
}

/// What one read of blocks `from..=to` adds.
#[derive(Debug, Default)]
pub struct Batch {
    pub from: i64,
    pub to: i64,
    pub txs: Vec<TxRow>,
    pub transfers: Vec<TransferRow>,
    pub appearances: Vec<Appearance>,
    /// (number, hash) of the batch's blocks; only the last `keep` are kept.
    pub blocks: Vec<(i64, String)>,
}

/// Who writes and until when their lease runs, for the statements that check it.
pub struct Writer<'a> {
    pub chain: &'a str,
    pub holder: &'a str,
    /// Unix milliseconds the lease is renewed to.
    pub lease_until: i64,
}

/// Takes or renews the chain's lease: one statement, so two processes never both hold it.
pub async fn acquire_lease(db: &Db, w: &Writer<'_>, now: i64) -> Result<bool, sqlx::Error> {
    let res = sqlx::query(
        "INSERT INTO history_leases (chain, holder, expires_at) VALUES ($1, $2, $3) \
         ON CONFLICT (chain) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at \
         WHERE history_leases.expires_at < $4 OR history_leases.holder = $5",
    )
    .bind(w.chain)
    .bind(w.holder)
    .bind(w.lease_until)
    .bind(now)
    .bind(w.holder)
    .execute(db)
    .await?;
    Ok(res.rows_affected() == 1)
}

/// Gives the lease up (a stopping server), so another process takes over at once.
pub async fn release_lease(db: &Db, chain: &str, holder: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM history_leases WHERE chain = $1 AND holder = $2").bind(chain).bind(holder).execute(db).await?;
    Ok(())
}

/// The lease's holder, if any holds it at `now`.
pub async fn lease_holder(db: &Db, chain: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query("SELECT holder FROM history_leases WHERE chain = $1 AND expires_at >= $2")
        .bind(chain)
        .bind(now)
        .fetch_optional(db)
        .await?
        .map(|r| r.try_get("holder"))
        .transpose()
}

/// The next block to read, once indexing has started.
pub async fn cursor(db: &Db, chain: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query("SELECT next_block FROM history_cursors WHERE chain = $1").bind(chain).fetch_optional(db).await?.map(|r| r.try_get("next_block")).transpose()
}

/// Starts indexing at `block`, unless it has started already.
pub async fn start_cursor(db: &Db, chain: &str, block: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO history_cursors (chain, next_block) VALUES ($1, $2) ON CONFLICT (chain) DO NOTHING").bind(chain).bind(block).execute(db).await?;
    Ok(())
}

/// The kept block hashes, newest first.
pub async fn recent_blocks(db: &Db, chain: &str) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let rows = sqlx::query("SELECT number, hash FROM history_blocks WHERE chain = $1 ORDER BY number DESC").bind(chain).fetch_all(db).await?;
    rows.iter().map(|r| Ok((r.try_get("number")?, r.try_get("hash")?))).collect()
}

/// Renews the lease and moves the cursor from `from` to `next` inside `tx`; false (and nothing
/// may be committed) when the lease was lost or another writer moved the cursor.
async fn advance(tx: &mut Transaction<'_, Any>, w: &Writer<'_>, from: i64, next: i64) -> Result<bool, sqlx::Error> {
    let lease = sqlx::query("UPDATE history_leases SET expires_at = $1 WHERE chain = $2 AND holder = $3")
        .bind(w.lease_until)
        .bind(w.chain)
        .bind(w.holder)
        .execute(&mut **tx)
        .await?;
    if lease.rows_affected() != 1 {
        return Ok(false);
    }
    let moved = sqlx::query("UPDATE history_cursors SET next_block = $1 WHERE chain = $2 AND next_block = $3")
        .bind(next)
        .bind(w.chain)
        .bind(from)
        .execute(&mut **tx)
        .await?;
    Ok(moved.rows_affected() == 1)
}

/// Rows per multi-row INSERT: under SQLite's oldest limit of 999 parameters.
const MAX_PARAMS: usize = 900;

/// `INSERT INTO {head} VALUES (...), ... ON CONFLICT DO NOTHING` for `rows` rows of `cols`.
fn insert_sql(head: &str, cols: usize, rows: usize) -> String {
    let mut sql = format!("INSERT INTO {head} VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push(',');
        }
        sql.push('(');
        for c in 0..cols {
            if c > 0 {
                sql.push(',');
            }
            sql.push_str(&format!("${}", r * cols + c + 1));
        }
        sql.push(')');
    }
    sql.push_str(" ON CONFLICT DO NOTHING");
    sql
}

/// Index writes this process has committed (batches and rewinds), on any chain: the history
/// route's page cache keys on it, so a page this process has changed is never served from it.
static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub fn writes() -> u64 {
    WRITES.load(std::sync::atomic::Ordering::Acquire)
}

fn wrote() {
    WRITES.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
}

/// Inserts transactions, transfers and appearances inside `tx`; rows already stored are kept.
async fn insert_rows(
    tx: &mut Transaction<'_, Any>,
    chain: &str,
    txs: &[TxRow],
    transfers: &[TransferRow],
    appearances: &[Appearance],
) -> Result<(), sqlx::Error> {
    for rows in txs.chunks(MAX_PARAMS / 10) {
        let sql = insert_sql("history_txs (chain, hash, block, tx_index, mined_at, sender, recipient, value, nonce, status)", 10, rows.len());
        let mut q = sqlx::query(&sql);
        for t in rows {
            q = q.bind(chain).bind(&t.hash).bind(t.block).bind(t.tx_index).bind(t.mined_at).bind(&t.sender).bind(&t.recipient);
            q = q.bind(&t.value).bind(t.nonce).bind(i64::from(t.succeeded));
        }
        q.execute(&mut **tx).await?;
    }
    for rows in transfers.chunks(MAX_PARAMS / 10) {
        let sql = insert_sql("history_transfers (chain, hash, seq, block, kind, token, sender, recipient, token_id, amount)", 10, rows.len());
        let mut q = sqlx::query(&sql);
        for t in rows {
            q = q.bind(chain).bind(&t.hash).bind(t.seq).bind(t.block).bind(t.kind.as_str()).bind(&t.token).bind(&t.sender);
            q = q.bind(&t.recipient).bind(&t.token_id).bind(&t.amount);
        }
        q.execute(&mut **tx).await?;
    }
    for rows in appearances.chunks(MAX_PARAMS / 6) {
        let sql = insert_sql("history_appearances (chain, address, block, tx_index, hash, spam)", 6, rows.len());
        let mut q = sqlx::query(&sql);
        for a in rows {
            q = q.bind(chain).bind(&a.address).bind(a.block).bind(a.tx_index).bind(&a.hash).bind(a.spam);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Writes a batch and moves the cursor past it, in one transaction; false when this writer
/// may no longer write (nothing is written then).
pub async fn write_batch(db: &Db, w: &Writer<'_>, batch: &Batch, keep_blocks: i64) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    if !advance(&mut tx, w, batch.from, batch.to + 1).await? {
        tx.rollback().await?;
        return Ok(false);
    }
    let chain = w.chain;
    insert_rows(&mut tx, chain, &batch.txs, &batch.transfers, &batch.appearances).await?;
    let kept: Vec<&(i64, String)> = batch.blocks.iter().filter(|(n, _)| *n > batch.to - keep_blocks).collect();
    for rows in kept.chunks(MAX_PARAMS / 3) {
        let sql = insert_sql("history_blocks (chain, number, hash)", 3, rows.len());
        let mut q = sqlx::query(&sql);
        for (n, h) in rows {
            q = q.bind(chain).bind(*n).bind(h);
        }
        q.execute(&mut *tx).await?;
    }
    sqlx::query("DELETE FROM history_blocks WHERE chain = $1 AND number <= $2").bind(chain).bind(batch.to - keep_blocks).execute(&mut *tx).await?;
    tx.commit().await?;
    wrote();
    Ok(true)
}

/// Stores the nonces of transactions read without them (`evm::Source::nonces`).
pub async fn save_nonces(db: &Db, chain: &str, nonces: &[(String, i64)]) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    for (hash, nonce) in nonces {
        sqlx::query("UPDATE history_txs SET nonce = $1 WHERE chain = $2 AND hash = $3 AND nonce IS NULL")
            .bind(nonce)
            .bind(chain)
            .bind(hash)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await
}

/// Forgets every block above `fork` (a reorganisation replaced them) and moves the cursor back
/// to the block after it, in one transaction; false when this writer may no longer write.
pub async fn rewind(db: &Db, w: &Writer<'_>, from: i64, fork: i64) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    if !advance(&mut tx, w, from, fork + 1).await? {
        tx.rollback().await?;
        return Ok(false);
    }
    for table in ["history_txs", "history_transfers", "history_appearances"] {
        sqlx::query(&format!("DELETE FROM {table} WHERE chain = $1 AND block > $2")).bind(w.chain).bind(fork).execute(&mut *tx).await?;
    }
    sqlx::query("DELETE FROM history_blocks WHERE chain = $1 AND number > $2").bind(w.chain).bind(fork).execute(&mut *tx).await?;
    tx.commit().await?;
    wrote();
    Ok(true)
}

/// Claims the fill of `address`'s older history from the chain's upstream until `until`: one
/// statement, so of concurrent requests one fills. False when it is filled, being filled by
/// another request, or waiting after a failure.
pub async fn claim_upstream_fill(db: &Db, chain: &str, address: &str, now: i64, until: i64) -> Result<bool, sqlx::Error> {
    let res = sqlx::query(
        "INSERT INTO history_upstream_fills (chain, address, claimed_until, filled) VALUES ($1, $2, $3, 0) \
         ON CONFLICT (chain, address) DO UPDATE SET claimed_until = excluded.claimed_until \
         WHERE history_upstream_fills.filled = 0 AND history_upstream_fills.claimed_until < $4",
    )
    .bind(chain)
    .bind(address)
    .bind(until)
    .bind(now)
    .execute(db)
    .await?;
    Ok(res.rows_affected() == 1)
}

/// Whether `address`'s older history was filled.
pub async fn upstream_filled(db: &Db, chain: &str, address: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT filled FROM history_upstream_fills WHERE chain = $1 AND address = $2").bind(chain).bind(address).fetch_optional(db).await?;
    Ok(row.map(|r| r.try_get::<i64, _>("filled")).transpose()?.unwrap_or(0) == 1)
}

/// A failed fill: tried again once `retry_at` has passed.
pub async fn release_upstream_fill(db: &Db, chain: &str, address: &str, retry_at: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE history_upstream_fills SET claimed_until = $1 WHERE chain = $2 AND address = $3 AND filled = 0")
        .bind(retry_at)
        .bind(chain)
        .bind(address)
        .execute(db)
        .await?;
    Ok(())
}

/// The (block, position) of those of `hashes` already stored on `chain`.
pub async fn stored_positions(db: &Db, chain: &str, hashes: &[String]) -> Result<std::collections::HashMap<String, (i64, i64)>, sqlx::Error> {
    let mut out = std::collections::HashMap::new();
    for chunk in hashes.chunks(500) {
        let sql = format!("SELECT hash, block, tx_index FROM history_txs WHERE chain = $1 AND hash IN ({})", placeholders(2, chunk.len()));
        let mut q = sqlx::query(&sql).bind(chain);
        for h in chunk {
            q = q.bind(h);
        }
        for r in q.fetch_all(db).await? {
            out.insert(r.try_get("hash")?, (r.try_get("block")?, r.try_get("tx_index")?));
        }
    }
    Ok(out)
}

/// Stores what an upstream gave of `address`'s older history and marks it filled, in one
/// transaction (rows already stored are kept).
pub async fn write_upstream_fill(
    db: &Db,
    chain: &str,
    address: &str,
    txs: &[TxRow],
    transfers: &[TransferRow],
    appearances: &[Appearance],
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    insert_rows(&mut tx, chain, txs, transfers, appearances).await?;
    sqlx::query("UPDATE history_upstream_fills SET filled = 1 WHERE chain = $1 AND address = $2").bind(chain).bind(address).execute(&mut *tx).await?;
    tx.commit().await?;
    wrote();
    Ok(())
}

fn token_from(r: &AnyRow) -> Result<TokenRow, sqlx::Error> {
    Ok(TokenRow { address: r.try_get("address")?, name: r.try_get("name")?, symbol: r.try_get("symbol")?, decimals: r.try_get("decimals")? })
}

/// `$first, $first+1, ...` for `n` values.
fn placeholders(first: usize, n: usize) -> String {
    (first..first + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// The stored metadata of those of `addresses` that have it.
pub async fn tokens(db: &Db, chain: &str, addresses: &[String]) -> Result<Vec<TokenRow>, sqlx::Error> {
    if addresses.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!("SELECT address, name, symbol, decimals FROM history_tokens WHERE chain = $1 AND address IN ({})", placeholders(2, addresses.len()));
    let mut q = sqlx::query(&sql).bind(chain);
    for a in addresses {
        q = q.bind(a);
    }
    q.fetch_all(db).await?.iter().map(token_from).collect()
}

pub async fn save_tokens(db: &Db, chain: &str, tokens: &[TokenRow]) -> Result<(), sqlx::Error> {
    for rows in tokens.chunks(MAX_PARAMS / 5) {
        let sql = insert_sql("history_tokens (chain, address, name, symbol, decimals)", 5, rows.len());
        let mut q = sqlx::query(&sql);
        for t in rows {
            q = q.bind(chain).bind(&t.address).bind(&t.name).bind(&t.symbol).bind(t.decimals);
        }
        q.execute(db).await?;
    }
    Ok(())
}

/// One page of an address's transactions, newest first, strictly before `before`
/// (block, tx index) when given; spam left out unless `include_spam`.
pub async fn page(
    db: &Db,
    chain: &str,
    address: &str,
    before: Option<(i64, i64)>,
    include_spam: bool,
    limit: i64,
) -> Result<Vec<(Option<String>, TxRow)>, sqlx::Error> {
    let (block, index) = before.unwrap_or((i64::MAX, 0));
    let spam = if include_spam { "" } else { " AND a.spam IS NULL" };
    let sql = format!(
        "SELECT a.spam, t.hash, t.block, t.tx_index, t.mined_at, t.sender, t.recipient, t.value, t.nonce, t.status \
         FROM history_appearances a JOIN history_txs t ON t.chain = a.chain AND t.hash = a.hash \
         WHERE a.chain = $1 AND a.address = $2 AND (a.block < $3 OR (a.block = $4 AND a.tx_index < $5)){spam} \
         ORDER BY a.block DESC, a.tx_index DESC LIMIT $6"
    );
    let rows = sqlx::query(&sql).bind(chain).bind(address).bind(block).bind(block).bind(index).bind(limit).fetch_all(db).await?;
    rows.iter()
        .map(|r| {
            let tx = TxRow {
                hash: r.try_get("hash")?,
                block: r.try_get("block")?,
                tx_index: r.try_get("tx_index")?,
                mined_at: r.try_get("mined_at")?,
                sender: r.try_get("sender")?,
                recipient: r.try_get("recipient")?,
                value: r.try_get("value")?,
                nonce: r.try_get("nonce")?,
                succeeded: r.try_get::<i64, _>("status")? == 1,
            };
            Ok((r.try_get("spam")?, tx))
        })
        .collect()
}

/// The transfers and approvals of `hashes` touching `address`, with their tokens' metadata,
/// in order within each transaction.
pub async fn transfers_of(db: &Db, chain: &str, address: &str, hashes: &[String]) -> Result<Vec<(TransferRow, Option<TokenRow>)>, sqlx::Error> {
    if hashes.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT tr.hash, tr.seq, tr.block, tr.kind, tr.token, tr.sender, tr.recipient, tr.token_id, tr.amount, \
         tk.address, tk.name, tk.symbol, tk.decimals \
         FROM history_transfers tr LEFT JOIN history_tokens tk ON tk.chain = tr.chain AND tk.address = tr.token \
         WHERE tr.chain = $1 AND (tr.sender = $2 OR tr.recipient = $3) AND tr.hash IN ({}) ORDER BY tr.hash, tr.seq",
        placeholders(4, hashes.len())
    );
    let mut q = sqlx::query(&sql).bind(chain).bind(address).bind(address);
    for h in hashes {
        q = q.bind(h);
    }
    q.fetch_all(db)
        .await?
        .iter()
        .map(|r| {
            let transfer = TransferRow {
                hash: r.try_get("hash")?,
                seq: r.try_get("seq")?,
                block: r.try_get("block")?,
                kind: Kind::parse(&r.try_get::<String, _>("kind")?),
                token: r.try_get("token")?,
                sender: r.try_get("sender")?,
                recipient: r.try_get("recipient")?,
                token_id: r.try_get("token_id")?,
                amount: r.try_get("amount")?,
            };
            let token = match r.try_get::<Option<String>, _>("address")? {
                Some(_) => Some(token_from(r)?),
                None => None,
            };
            Ok((transfer, token))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_row_inserts() {
        assert_eq!(insert_sql("t (a, b)", 2, 2), "INSERT INTO t (a, b) VALUES ($1,$2),($3,$4) ON CONFLICT DO NOTHING");
        assert_eq!(placeholders(3, 2), "$3, $4");
    }
}
