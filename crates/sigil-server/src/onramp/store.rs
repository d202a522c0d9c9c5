//! Onramp sessions: every SQL statement of the area, beside its row. A sandbox payment starts
//! with the one UPDATE that moves a pending, unexpired session to `paying`, so a session is paid
//! at most once however many requests arrive together.

use sqlx::Row;

use crate::db::Db;

/// A session's status as stored; `Paying` shows as pending in the API.
pub const PENDING: &str = "pending";
pub const PAYING: &str = "paying";
pub const COMPLETED: &str = "completed";
pub const FAILED: &str = "failed";

/// A stored onramp session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub id: String,
    pub project_id: String,
    pub provider: String,
    /// The destination address, as the chain's family writes it (EVM checksummed).
    pub address: String,
    /// CAIP-2.
    pub network: String,
    /// The asset's symbol (ETH, USDC).
    pub asset: String,
    pub fiat_amount: String,
    pub fiat_currency: String,
    /// The asset's amount to receive, when known (the sandbox quotes it at the start).
    pub purchase_amount: Option<String>,
    pub status: String,
    pub tx_hash: Option<String>,
    pub failure: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str =
    "id, project_id, provider, address, network, asset, fiat_amount, fiat_currency, purchase_amount, status, tx_hash, failure, created_at, updated_at";

impl Session {
    fn from_row(r: &sqlx::any::AnyRow) -> Result<Session, sqlx::Error> {
        Ok(Session {
            id: r.try_get("id")?,
            project_id: r.try_get("project_id")?,
            provider: r.try_get("provider")?,
            address: r.try_get("address")?,
            network: r.try_get("network")?,
            asset: r.try_get("asset")?,
            fiat_amount: r.try_get("fiat_amount")?,
            fiat_currency: r.try_get("fiat_currency")?,
            purchase_amount: r.try_get("purchase_amount")?,
            status: r.try_get("status")?,
            tx_hash: r.try_get("tx_hash")?,
            failure: r.try_get("failure")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
        })
    }

    pub async fn insert(&self, db: &Db) -> Result<(), sqlx::Error> {
        sqlx::query(&format!("INSERT INTO onramp_sessions ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"))
            .bind(&self.id)
            .bind(&self.project_id)
            .bind(&self.provider)
            .bind(&self.address)
            .bind(&self.network)
            .bind(&self.asset)
            .bind(&self.fiat_amount)
            .bind(&self.fiat_currency)
            .bind(&self.purchase_amount)
            .bind(&self.status)
            .bind(&self.tx_hash)
            .bind(&self.failure)
            .bind(self.created_at)
            .bind(self.updated_at)
            .execute(db)
            .await?;
        Ok(())
    }

    /// The session with this id, in any project (the sandbox page has no project).
    pub async fn get(db: &Db, id: &str) -> Result<Option<Session>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM onramp_sessions WHERE id = $1")).bind(id).fetch_optional(db).await?;
        row.as_ref().map(Session::from_row).transpose()
    }

    /// Moves a pending session created after `not_before` to `paying`: true for the one caller
    /// that did it.
    pub async fn start_paying(db: &Db, id: &str, not_before: i64, now: i64) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("UPDATE onramp_sessions SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4 AND created_at > $5")
            .bind(PAYING)
            .bind(now)
            .bind(id)
            .bind(PENDING)
            .bind(not_before)
            .execute(db)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends a pending session as failed (declined): true when it was pending.
    pub async fn decline(db: &Db, id: &str, now: i64) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("UPDATE onramp_sessions SET status = $1, failure = $2, updated_at = $3 WHERE id = $4 AND status = $5")
            .bind(FAILED)
            .bind("declined")
            .bind(now)
            .bind(id)
            .bind(PENDING)
            .execute(db)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records a final outcome: completed with its transaction, or failed with why. Only a
    /// session not final yet changes.
    pub async fn finish(
        db: &Db,
        id: &str,
        status: &str,
        tx_hash: Option<&str>,
        purchase_amount: Option<&str>,
        failure: Option<&str>,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE onramp_sessions SET status = $1, tx_hash = $2, purchase_amount = COALESCE($3, purchase_amount), failure = $4, updated_at = $5 \
             WHERE id = $6 AND status IN ($7, $8)",
        )
        .bind(status)
        .bind(tx_hash)
        .bind(purchase_amount)
        .bind(failure)
        .bind(now)
        .bind(id)
        .bind(PENDING)
        .bind(PAYING)
        .execute(db)
        .await?;
        Ok(())
    }
}
