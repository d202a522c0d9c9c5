//! The embedded wallet's storage, one part per table: users and their sealed keys, approved
//! devices, emailed codes and links, sessions, social logins under way and the provider
//! accounts they made. Secrets are stored only as hashes (codes, links, tokens, states, claim
//! secrets) or sealed (keys). Each limit is one statement: a code is counted and used, a link
//! used, a login claimed, a session rotated, by the one UPDATE that does it.

use sqlx::Row;

use crate::db::Db;

/// Users and their keys.
pub mod users {
    use super::*;

    /// A user's key as stored: sealed under the key-encryption key `kek_id`.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct StoredKey {
        pub user_id: String,
        pub kind: String,
        pub address: String,
        pub sealed: String,
        pub kek_id: String,
    }

    pub async fn id_by_email(db: &Db, email: &str) -> Result<Option<String>, sqlx::Error> {
        sqlx::query_scalar("SELECT id FROM wallet_users WHERE email = $1").bind(email).fetch_optional(db).await
    }

    /// A new user with its keys, in one transaction.
    pub async fn create(db: &Db, id: &str, email: Option<&str>, now: i64, keys: &[StoredKey]) -> Result<(), sqlx::Error> {
        let mut tx = db.begin().await?;
        sqlx::query("INSERT INTO wallet_users (id, email, created_at) VALUES ($1, $2, $3)").bind(id).bind(email).bind(now).execute(&mut *tx).await?;
        for k in keys {
            sqlx::query("INSERT INTO wallet_keys (user_id, kind, address, sealed, kek_id) VALUES ($1, $2, $3, $4, $5)")
                .bind(&k.user_id)
                .bind(&k.kind)
                .bind(&k.address)
                .bind(&k.sealed)
                .bind(&k.kek_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }

    pub async fn email(db: &Db, user_id: &str) -> Result<Option<String>, sqlx::Error> {
        sqlx::query_scalar("SELECT email FROM wallet_users WHERE id = $1").bind(user_id).fetch_one(db).await
    }

    /// The user's (kind, address) pairs, secp256k1 first.
    pub async fn addresses(db: &Db, user_id: &str) -> Result<Vec<(String, String)>, sqlx::Error> {
        sqlx::query_as("SELECT kind, address FROM wallet_keys WHERE user_id = $1 ORDER BY kind DESC").bind(user_id).fetch_all(db).await
    }

    /// Sets the user's email unless another user has it; false when one does (also when
    /// another change took it at the same moment: the column is unique).
    pub async fn set_email_if_free(db: &Db, user_id: &str, email: &str) -> Result<bool, sqlx::Error> {
        let changed = sqlx::query("UPDATE wallet_users SET email = $1 WHERE id = $2 AND NOT EXISTS (SELECT 1 FROM wallet_users WHERE email = $1)")
            .bind(email)
            .bind(user_id)
            .execute(db)
            .await;
        match changed {
            Ok(done) => Ok(done.rows_affected() == 1),
            Err(sqlx::Error::Database(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub async fn key(db: &Db, user_id: &str, kind: &str) -> Result<StoredKey, sqlx::Error> {
        let row = sqlx::query("SELECT user_id, kind, address, sealed, kek_id FROM wallet_keys WHERE user_id = $1 AND kind = $2")
            .bind(user_id)
            .bind(kind)
            .fetch_one(db)
            .await?;
        stored_key(&row)
    }

    pub async fn all_keys(db: &Db) -> Result<Vec<StoredKey>, sqlx::Error> {
        let rows = sqlx::query("SELECT user_id, kind, address, sealed, kek_id FROM wallet_keys").fetch_all(db).await?;
        rows.iter().map(stored_key).collect()
    }

    fn stored_key(r: &sqlx::any::AnyRow) -> Result<StoredKey, sqlx::Error> {
        Ok(StoredKey {
            user_id: r.try_get("user_id")?,
            kind: r.try_get("kind")?,
            address: r.try_get("address")?,
            sealed: r.try_get("sealed")?,
            kek_id: r.try_get("kek_id")?,
        })
    }

    /// Replaces the sealed keys given, in one transaction.
    pub async fn reseal(db: &Db, keys: &[StoredKey]) -> Result<(), sqlx::Error> {
        let mut tx = db.begin().await?;
        for k in keys {
            sqlx::query("UPDATE wallet_keys SET sealed = $1, kek_id = $2 WHERE user_id = $3 AND kind = $4")
                .bind(&k.sealed)
                .bind(&k.kek_id)
                .bind(&k.user_id)
                .bind(&k.kind)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }
}

/// Emailed codes and device-approval links: one row per (email, purpose), the secret hashed.
pub mod codes {
    use super::*;

    /// A new code or link for `key` and `purpose`, unless one was sent since `not_since`: one
    /// statement decides, so requests at once cannot both pass. False when it was too soon.
    #[allow(clippy::too_many_arguments)]
    pub async fn issue(
        db: &Db,
        key: &str,
        purpose: &str,
        secret_hash: &str,
        payload: Option<&str>,
        device: &str,
        now: i64,
        expires_at: i64,
        not_since: i64,
    ) -> Result<bool, sqlx::Error> {
        let issued = sqlx::query(
            "INSERT INTO wallet_codes (email, purpose, code_hash, sent_at, expires_at, tries, payload, device_id) VALUES ($1, $2, $3, $4, $5, 0, $6, $7) \
             ON CONFLICT (email, purpose) DO UPDATE SET code_hash = excluded.code_hash, sent_at = excluded.sent_at, expires_at = excluded.expires_at, \
             tries = 0, payload = excluded.payload, device_id = excluded.device_id WHERE wallet_codes.sent_at <= $8",
        )
        .bind(key)
        .bind(purpose)
        .bind(secret_hash)
        .bind(now)
        .bind(expires_at)
        .bind(payload)
        .bind(device)
        .bind(not_since)
        .execute(db)
        .await?;
        Ok(issued.rows_affected() == 1)
    }

    pub async fn sent_at(db: &Db, key: &str, purpose: &str) -> Result<Option<i64>, sqlx::Error> {
        sqlx::query_scalar("SELECT sent_at FROM wallet_codes WHERE email = $1 AND purpose = $2").bind(key).bind(purpose).fetch_optional(db).await
    }

    /// A try of a code by `device`: counted, and the code used up when `given_hash` is its
    /// hash, in one statement; only while it is live and has tries left. Some((used, payload))
    /// when there was a code to try.
    pub async fn try_code(
        db: &Db,
        key: &str,
        purpose: &str,
        given_hash: &str,
        device: &str,
        now: i64,
        tries: i64,
    ) -> Result<Option<(bool, Option<String>)>, sqlx::Error> {
        // Kept after use, emptied: when it was sent still counts for the time between mails.
        let row = sqlx::query(
            "UPDATE wallet_codes SET tries = tries + 1, \
             code_hash = CASE WHEN code_hash = $3 THEN '' ELSE code_hash END, \
             expires_at = CASE WHEN code_hash = $3 THEN 0 ELSE expires_at END \
             WHERE email = $1 AND purpose = $2 AND device_id = $4 AND code_hash <> '' AND expires_at > $5 AND tries < $6 \
             RETURNING code_hash, payload",
        )
        .bind(key)
        .bind(purpose)
        .bind(given_hash)
        .bind(device)
        .bind(now)
        .bind(tries)
        .fetch_optional(db)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let left: String = row.try_get("code_hash")?;
        Ok(Some((left.is_empty() && !given_hash.is_empty(), row.try_get("payload")?)))
    }

    /// The code `device` was sent, as it stands: (hash, '' once used; expires_at; tries).
    pub async fn state_for(db: &Db, key: &str, purpose: &str, device: &str) -> Result<Option<(String, i64, i64)>, sqlx::Error> {
        sqlx::query_as("SELECT code_hash, expires_at, tries FROM wallet_codes WHERE email = $1 AND purpose = $2 AND device_id = $3")
            .bind(key)
            .bind(purpose)
            .bind(device)
            .fetch_optional(db)
            .await
    }

    /// The payload of the code for `key` and `purpose` while it can be tried (not used, expired
    /// or tried `tries` times).
    pub async fn live_payload(db: &Db, key: &str, purpose: &str, now: i64, tries: i64) -> Result<Option<String>, sqlx::Error> {
        let row: Option<(Option<String>,)> =
            sqlx::query_as("SELECT payload FROM wallet_codes WHERE email = $1 AND purpose = $2 AND code_hash <> '' AND expires_at > $3 AND tries < $4")
                .bind(key)
                .bind(purpose)
                .bind(now)
                .bind(tries)
                .fetch_optional(db)
                .await?;
        Ok(row.and_then(|(payload,)| payload))
    }

    /// A live link's email and payload.
    pub async fn live_link(db: &Db, purpose: &str, secret_hash: &str, now: i64) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
        sqlx::query_as("SELECT email, payload FROM wallet_codes WHERE purpose = $1 AND code_hash = $2 AND expires_at > $3")
            .bind(purpose)
            .bind(secret_hash)
            .bind(now)
            .fetch_optional(db)
            .await
    }

    /// Uses a live link (once): its email and device.
    pub async fn use_link(db: &Db, purpose: &str, secret_hash: &str, now: i64) -> Result<Option<(String, String)>, sqlx::Error> {
        sqlx::query_as(
            "UPDATE wallet_codes SET code_hash = '', expires_at = 0 WHERE purpose = $1 AND code_hash = $2 AND code_hash <> '' AND expires_at > $3 \
             RETURNING email, device_id",
        )
        .bind(purpose)
        .bind(secret_hash)
        .bind(now)
        .fetch_optional(db)
        .await
    }
}

/// Devices approved per email (by the hash of their device secret).
pub mod devices {
    use super::*;

    pub async fn approved_at(db: &Db, email: &str, device: &str) -> Result<Option<i64>, sqlx::Error> {
        let approved: Option<Option<i64>> = sqlx::query_scalar("SELECT approved_at FROM wallet_devices WHERE email = $1 AND device_id = $2")
            .bind(email)
            .bind(device)
            .fetch_optional(db)
            .await?;
        Ok(approved.flatten())
    }

    pub async fn approve(db: &Db, email: &str, device: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO wallet_devices (email, device_id, approve_hash, approved_at, created_at) VALUES ($1, $2, '', $3, $3) \
             ON CONFLICT (email, device_id) DO UPDATE SET approved_at = $3",
        )
        .bind(email)
        .bind(device)
        .bind(now)
        .execute(db)
        .await?;
        Ok(())
    }
}

/// Sessions, by the hash of their bearer token.
pub mod sessions {
    use super::*;

    /// A session row: its user, device, expiry and when its login was proved.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct StoredSession {
        pub user_id: String,
        pub device_id: String,
        pub expires_at: i64,
        pub proved_at: i64,
    }

    pub async fn open(db: &Db, token_hash: &str, s: &StoredSession, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query("INSERT INTO wallet_sessions (token_hash, user_id, device_id, created_at, expires_at, proved_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(token_hash)
            .bind(&s.user_id)
            .bind(&s.device_id)
            .bind(now)
            .bind(s.expires_at)
            .bind(s.proved_at)
            .execute(db)
            .await?;
        Ok(())
    }

    /// The live session of a token.
    pub async fn live(db: &Db, token_hash: &str, now: i64) -> Result<Option<StoredSession>, sqlx::Error> {
        let row: Option<(String, String, i64, i64)> = sqlx::query_as(
            "SELECT user_id, device_id, expires_at, proved_at FROM wallet_sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(db)
        .await?;
        Ok(row.map(|(user_id, device_id, expires_at, proved_at)| StoredSession { user_id, device_id, expires_at, proved_at }))
    }

    /// Ends a live session and says what it was (one statement: a token ends once).
    pub async fn end(db: &Db, token_hash: &str, now: i64) -> Result<Option<StoredSession>, sqlx::Error> {
        let row: Option<(String, String, i64, i64)> = sqlx::query_as(
            "UPDATE wallet_sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2 \
             RETURNING user_id, device_id, expires_at, proved_at",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(db)
        .await?;
        Ok(row.map(|(user_id, device_id, expires_at, proved_at)| StoredSession { user_id, device_id, expires_at, proved_at }))
    }
}

/// Social logins and Farcaster channels under way, by the hash of their state (channel token).
pub mod flows {
    use super::*;

    /// A login under way, as the claim reads it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Flow {
        pub provider: String,
        /// The hash of the device secret that started it.
        pub device_id: String,
        pub created_at: i64,
        pub user_id: Option<String>,
        pub username: Option<String>,
        pub failure: Option<String>,
        pub claim_hash: Option<String>,
        pub claimed_at: Option<i64>,
        /// Farcaster: why the latest message posted to the channel was refused.
        pub refusal: Option<String>,
        /// Farcaster: the channel's nonce.
        pub nonce: String,
    }

    /// What the provider's callback needs of a flow it marks returned.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Returning {
        pub provider: String,
        pub pkce_verifier: String,
        pub nonce: String,
        pub return_url: Option<String>,
        pub created_at: i64,
    }

    #[allow(clippy::too_many_arguments)]
    pub async fn start(
        db: &Db,
        state_hash: &str,
        provider: &str,
        pkce_verifier: &str,
        nonce: &str,
        device: &str,
        return_url: Option<&str>,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO wallet_social_flows (state_hash, provider, pkce_verifier, nonce, device_id, return_url, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(state_hash)
        .bind(provider)
        .bind(pkce_verifier)
        .bind(nonce)
        .bind(device)
        .bind(return_url)
        .bind(now)
        .execute(db)
        .await?;
        Ok(())
    }

    /// Marks a social login (not a Farcaster channel) returned, once: the callback is single use.
    pub async fn mark_returned(db: &Db, state_hash: &str, not_provider: &str, now: i64) -> Result<Option<Returning>, sqlx::Error> {
        let row = sqlx::query(
            "UPDATE wallet_social_flows SET returned_at = $3 WHERE state_hash = $1 AND returned_at IS NULL AND provider <> $2 \
             RETURNING provider, pkce_verifier, nonce, return_url, created_at",
        )
        .bind(state_hash)
        .bind(not_provider)
        .bind(now)
        .fetch_optional(db)
        .await?;
        row.map(|r| {
            Ok(Returning {
                provider: r.try_get("provider")?,
                pkce_verifier: r.try_get("pkce_verifier")?,
                nonce: r.try_get("nonce")?,
                return_url: r.try_get("return_url")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .transpose()
    }

    pub async fn get(db: &Db, state_hash: &str) -> Result<Option<Flow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT provider, device_id, created_at, user_id, username, failure, claim_hash, claimed_at, refusal, nonce FROM wallet_social_flows WHERE state_hash = $1",
        )
        .bind(state_hash)
        .fetch_optional(db)
        .await?;
        row.map(|r| {
            Ok(Flow {
                provider: r.try_get("provider")?,
                device_id: r.try_get("device_id")?,
                created_at: r.try_get("created_at")?,
                user_id: r.try_get("user_id")?,
                username: r.try_get("username")?,
                failure: r.try_get("failure")?,
                claim_hash: r.try_get("claim_hash")?,
                claimed_at: r.try_get("claimed_at")?,
                refusal: r.try_get("refusal")?,
                nonce: r.try_get("nonce")?,
            })
        })
        .transpose()
    }

    /// Records a flow's outcome, once (the first outcome stands); the PKCE verifier and nonce
    /// are emptied. True when this call recorded it.
    pub async fn finish(
        db: &Db,
        state_hash: &str,
        user_id: Option<&str>,
        username: Option<&str>,
        failure: Option<&str>,
        claim_hash: Option<&str>,
    ) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "UPDATE wallet_social_flows SET user_id = $1, username = $2, failure = $3, claim_hash = $4, pkce_verifier = '', nonce = '' \
             WHERE state_hash = $5 AND user_id IS NULL AND failure IS NULL",
        )
        .bind(user_id)
        .bind(username)
        .bind(failure)
        .bind(claim_hash)
        .bind(state_hash)
        .execute(db)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Claims a finished login for `device`, once: two claims at once cannot both succeed.
    pub async fn claim(db: &Db, state_hash: &str, device: &str, now: i64) -> Result<bool, sqlx::Error> {
        let claimed = sqlx::query("UPDATE wallet_social_flows SET claimed_at = $1 WHERE state_hash = $2 AND device_id = $3 AND claimed_at IS NULL")
            .bind(now)
            .bind(state_hash)
            .bind(device)
            .execute(db)
            .await?;
        Ok(claimed.rows_affected() == 1)
    }

    /// Keeps why the latest message posted to an open channel was refused.
    pub async fn set_refusal(db: &Db, state_hash: &str, refusal: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE wallet_social_flows SET refusal = $1 WHERE state_hash = $2 AND user_id IS NULL").bind(refusal).bind(state_hash).execute(db).await?;
        Ok(())
    }
}

/// Provider accounts (a provider's subject) and the user each is.
pub mod socials {
    use super::*;

    pub async fn user_of(db: &Db, provider: &str, subject: &str) -> Result<Option<String>, sqlx::Error> {
        sqlx::query_scalar("SELECT user_id FROM wallet_socials WHERE provider = $1 AND subject = $2").bind(provider).bind(subject).fetch_optional(db).await
    }

    pub async fn set_username(db: &Db, provider: &str, subject: &str, username: Option<&str>) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE wallet_socials SET username = $1 WHERE provider = $2 AND subject = $3")
            .bind(username)
            .bind(provider)
            .bind(subject)
            .execute(db)
            .await?;
        Ok(())
    }

    /// Links the account to `user_id` unless it is linked already; the user it is linked to
    /// (the first link stands when two callbacks for a new account come at once).
    pub async fn link(db: &Db, provider: &str, subject: &str, user_id: &str, username: Option<&str>) -> Result<String, sqlx::Error> {
        sqlx::query("INSERT INTO wallet_socials (provider, subject, user_id, username) VALUES ($1, $2, $3, $4) ON CONFLICT (provider, subject) DO NOTHING")
            .bind(provider)
            .bind(subject)
            .bind(user_id)
            .bind(username)
            .execute(db)
            .await?;
        sqlx::query_scalar("SELECT user_id FROM wallet_socials WHERE provider = $1 AND subject = $2").bind(provider).bind(subject).fetch_one(db).await
    }
}

/// Deletes sessions that ended before `ended_before`, codes and links that expired (and were
/// sent) before it, logins started before it, and device approvals from before
/// `approved_before`; how many rows.
pub async fn prune(db: &Db, ended_before: i64, approved_before: i64) -> Result<u64, sqlx::Error> {
    let mut rows = 0;
    rows += sqlx::query("DELETE FROM wallet_sessions WHERE expires_at <= $1 OR revoked_at <= $1").bind(ended_before).execute(db).await?.rows_affected();
    // A used code's row (emptied, expires_at 0) is kept while its time between mails runs.
    rows += sqlx::query("DELETE FROM wallet_codes WHERE expires_at <= $1 AND sent_at <= $1").bind(ended_before).execute(db).await?.rows_affected();
    rows += sqlx::query("DELETE FROM wallet_social_flows WHERE created_at <= $1").bind(ended_before).execute(db).await?.rows_affected();
    rows += sqlx::query("DELETE FROM wallet_devices WHERE approved_at <= $1").bind(approved_before).execute(db).await?.rows_affected();
    Ok(rows)
}
