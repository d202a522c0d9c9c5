//! Deposit sessions: every SQL statement of the pay area, beside its row. The per-project
//! limit is one upsert on the hour's counter that refuses past the limit; the sandbox
//! exchange's deposit starts with the one UPDATE that claims an open session, so it is sent at
//! most once however many confirmations arrive together. At most one session per recipient
//! and asset is open (IN_PROGRESS): a new one supersedes the older (`supersede`), and a unique
//! index on the open ones (migrations/0019_pay_one_open.sql) refuses a second made beside it.

use sqlx::Row;

use crate::db::Db;

pub const IN_PROGRESS: &str = "IN_PROGRESS";
pub const SUCCESS: &str = "SUCCESS";
pub const FAILED: &str = "FAILED";

/// The sandbox exchange's steps (`deposit`).
pub const SENDING: &str = "sending";
pub const SENT: &str = "sent";
pub const CANCELLED: &str = "cancelled";
pub const SEND_FAILED: &str = "failed";

/// A stored deposit session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaySession {
    pub id: String,
    pub project_id: String,
    pub exchange_id: String,
    /// CAIP-2.
    pub network: String,
    /// CAIP-19, as checked (an ERC-20 address in lower case).
    pub asset: String,
    /// Decimal, in the asset's units.
    pub amount: String,
    /// The same in the smallest unit, decimal.
    pub amount_units: String,
    /// The recipient's address (EVM checksummed).
    pub recipient: String,
    /// The recipient's balance of the asset at the start, smallest unit, decimal.
    pub start_balance: String,
    pub status: String,
    pub deposit: Option<String>,
    pub tx_hash: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str =
    "id, project_id, exchange_id, network, asset, amount, amount_units, recipient, start_balance, status, deposit, tx_hash, created_at, expires_at, updated_at";

impl PaySession {
    fn from_row(r: &sqlx::any::AnyRow) -> Result<PaySession, sqlx::Error> {
        Ok(PaySession {
            id: r.try_get("id")?,
            project_id: r.try_get("project_id")?,
            exchange_id: r.try_get("exchange_id")?,
            network: r.try_get("network")?,
            asset: r.try_get("asset")?,
            amount: r.try_get("amount")?,
            amount_units: r.try_get("amount_units")?,
            recipient: r.try_get("recipient")?,
            start_balance: r.try_get("start_balance")?,
            status: r.try_get("status")?,
            deposit: r.try_get("deposit")?,
            tx_hash: r.try_get("tx_hash")?,
            created_at: r.try_get("created_at")?,
            expires_at: r.try_get("expires_at")?,
            updated_at: r.try_get("updated_at")?,
        })
    }

    pub async fn insert(&self, db: &Db) -> Result<(), sqlx::Error> {
        sqlx::query(&format!("INSERT INTO pay_sessions ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"))
            .bind(&self.id)
            .bind(&self.project_id)
            .bind(&self.exchange_id)
            .bind(&self.network)
            .bind(&self.asset)
            .bind(&self.amount)
            .bind(&self.amount_units)
            .bind(&self.recipient)
            .bind(&self.start_balance)
            .bind(&self.status)
            .bind(&self.deposit)
            .bind(&self.tx_hash)
            .bind(self.created_at)
            .bind(self.expires_at)
            .bind(self.updated_at)
            .execute(db)
            .await?;
        Ok(())
    }

    /// The session with this id, in any project (the sandbox page has no project).
    pub async fn get(db: &Db, id: &str) -> Result<Option<PaySession>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM pay_sessions WHERE id = $1")).bind(id).fetch_optional(db).await?;
        row.as_ref().map(PaySession::from_row).transpose()
    }

    /// Records a final status; only a session still in progress changes. True when it did.
    pub async fn finish(db: &Db, id: &str, status: &str, now: i64) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("UPDATE pay_sessions SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4")
            .bind(status)
            .bind(now)
            .bind(id)
            .bind(IN_PROGRESS)
            .execute(db)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Closes (FAILED, as a cancel does) every open session for this recipient and asset, before
    /// a new one is made: one deposit then satisfies at most one session. The number closed.
    pub async fn supersede(db: &Db, recipient: &str, asset: &str, now: i64) -> Result<u64, sqlx::Error> {
        let done = sqlx::query("UPDATE pay_sessions SET status = $1, updated_at = $2 WHERE recipient = $3 AND asset = $4 AND status = $5")
            .bind(FAILED)
            .bind(now)
            .bind(recipient)
            .bind(asset)
            .bind(IN_PROGRESS)
            .execute(db)
            .await?;
        Ok(done.rows_affected())
    }

    /// Claims an open, unexpired session in progress for the sandbox's deposit (`deposit` to
    /// sending, or to cancelled): true for the one caller that did it.
    pub async fn claim_deposit(db: &Db, id: &str, step: &str, now: i64) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("UPDATE pay_sessions SET deposit = $1, updated_at = $2 WHERE id = $3 AND deposit IS NULL AND status = $4 AND expires_at > $2")
            .bind(step)
            .bind(now)
            .bind(id)
            .bind(IN_PROGRESS)
            .execute(db)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The sandbox's deposit was sent (with its transaction) or failed.
    pub async fn deposit_done(db: &Db, id: &str, step: &str, tx_hash: Option<&str>, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE pay_sessions SET deposit = $1, tx_hash = COALESCE($2, tx_hash), updated_at = $3 WHERE id = $4")
            .bind(step)
            .bind(tx_hash)
            .bind(now)
            .bind(id)
            .execute(db)
            .await?;
        Ok(())
    }
}

/// True when the error is a unique index's refusal (here: another open session for the same
/// recipient and asset was inserted first).
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// Takes one of the project's sessions for the hour: one upsert that raises the hour's count
/// unless it is at `limit` already. True when taken.
pub async fn take_quota(db: &Db, project_id: &str, hour: i64, limit: u32) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO pay_quota (project_id, hour, used) VALUES ($1, $2, 1) \
         ON CONFLICT (project_id, hour) DO UPDATE SET used = pay_quota.used + 1 WHERE pay_quota.used < $3",
    )
    .bind(project_id)
    .bind(hour)
    .bind(i64::from(limit))
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}
