//! Sign-in storage: single-use nonces and sessions (their bearer tokens only as hashes). Each
//! limit is one statement: a nonce is used by the one UPDATE that flips it.

use sqlx::Row;

use crate::db::Db;

/// A stored sign-in session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInSession {
    pub id: String,
    pub project_id: String,
    /// CAIP-10, the address in its canonical form (EVM checksummed).
    pub account: String,
    /// CAIP-2.
    pub chain_id: String,
    /// The signed message, as it was signed.
    pub message: String,
    pub signature: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
}

impl SignInSession {
    fn from_row(r: &sqlx::any::AnyRow) -> Result<SignInSession, sqlx::Error> {
        Ok(SignInSession {
            id: r.try_get("id")?,
            project_id: r.try_get("project_id")?,
            account: r.try_get("account")?,
            chain_id: r.try_get("chain_id")?,
            message: r.try_get("message")?,
            signature: r.try_get("signature")?,
            created_at: r.try_get("created_at")?,
            expires_at: r.try_get("expires_at")?,
            revoked_at: r.try_get("revoked_at")?,
        })
    }

    /// Live at `now`: not revoked, not expired.
    pub fn is_live(&self, now: i64) -> bool {
        self.revoked_at.is_none() && self.expires_at > now
    }

    /// Stores a new session under the hash of its bearer token.
    pub async fn insert(&self, db: &Db, token_hash: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO auth_sessions (id, project_id, token_hash, account, chain_id, message, signature, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&self.id)
        .bind(&self.project_id)
        .bind(token_hash)
        .bind(&self.account)
        .bind(&self.chain_id)
        .bind(&self.message)
        .bind(&self.signature)
        .bind(self.created_at)
        .bind(self.expires_at)
        .execute(db)
        .await?;
        Ok(())
    }

    /// The session a token's hash names in `project`, live or not.
    pub async fn by_token(db: &Db, project_id: &str, token_hash: &str) -> Result<Option<SignInSession>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM auth_sessions WHERE token_hash = $1 AND project_id = $2"))
            .bind(token_hash)
            .bind(project_id)
            .fetch_optional(db)
            .await?;
        row.as_ref().map(SignInSession::from_row).transpose()
    }

    /// Live sessions of an account on a chain, oldest first.
    pub async fn live_of(db: &Db, project_id: &str, account: &str, chain_id: &str, now: i64) -> Result<Vec<SignInSession>, sqlx::Error> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM auth_sessions WHERE project_id = $1 AND account = $2 AND chain_id = $3 AND revoked_at IS NULL AND expires_at > $4 \
             ORDER BY created_at, id"
        ))
        .bind(project_id)
        .bind(account)
        .bind(chain_id)
        .bind(now)
        .fetch_all(db)
        .await?;
        rows.iter().map(SignInSession::from_row).collect()
    }

    /// Revokes session `id` of `account`; false when there is no such live session.
    pub async fn revoke(db: &Db, project_id: &str, id: &str, account: &str, now: i64) -> Result<bool, sqlx::Error> {
        let res = sqlx::query("UPDATE auth_sessions SET revoked_at = $1 WHERE id = $2 AND project_id = $3 AND account = $4 AND revoked_at IS NULL")
            .bind(now)
            .bind(id)
            .bind(project_id)
            .bind(account)
            .execute(db)
            .await?;
        Ok(res.rows_affected() == 1)
    }
}

const COLUMNS: &str = "id, project_id, account, chain_id, message, signature, created_at, expires_at, revoked_at";

/// Stores a single-use nonce for `project_id`.
pub async fn insert_nonce(db: &Db, nonce: &str, project_id: &str, now: i64, expires_at: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO auth_nonces (nonce, project_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(nonce)
        .bind(project_id)
        .bind(now)
        .bind(expires_at)
        .execute(db)
        .await?;
    Ok(())
}

/// What using a nonce came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonceUse {
    /// This request used it.
    Used,
    Unknown,
    AlreadyUsed,
    Expired,
}

/// Uses `nonce` of `project_id` at `now`: one UPDATE decides, so two requests at once cannot
/// both use it; when it did not, a read says why.
pub async fn use_nonce(db: &Db, nonce: &str, project_id: &str, now: i64) -> Result<NonceUse, sqlx::Error> {
    let used = sqlx::query("UPDATE auth_nonces SET used_at = $1 WHERE nonce = $2 AND project_id = $3 AND used_at IS NULL AND expires_at > $1")
        .bind(now)
        .bind(nonce)
        .bind(project_id)
        .execute(db)
        .await?;
    if used.rows_affected() == 1 {
        return Ok(NonceUse::Used);
    }
    let row: Option<(i64, Option<i64>)> = sqlx::query_as("SELECT expires_at, used_at FROM auth_nonces WHERE nonce = $1 AND project_id = $2")
        .bind(nonce)
        .bind(project_id)
        .fetch_optional(db)
        .await?;
    Ok(match row {
        None => NonceUse::Unknown,
        Some((_, Some(_))) => NonceUse::AlreadyUsed,
        Some(_) => NonceUse::Expired,
    })
}

/// Deletes the nonces and sessions that ended before `cutoff`; how many rows went.
pub async fn prune(db: &Db, cutoff: i64) -> Result<u64, sqlx::Error> {
    let nonces = sqlx::query("DELETE FROM auth_nonces WHERE expires_at < $1").bind(cutoff).execute(db).await?;
    let sessions = sqlx::query("DELETE FROM auth_sessions WHERE expires_at < $1 OR revoked_at < $2").bind(cutoff).bind(cutoff).execute(db).await?;
    Ok(nonces.rows_affected() + sessions.rows_affected())
}
