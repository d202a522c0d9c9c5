//! The relay's mailbox in the database: what was published, until its TTL ends, and which
//! client acknowledged which message (it is never sent to that client again). A restart loses
//! nothing; several server processes share it.

use sqlx::Row;

use crate::db::Db;

/// A published message as stored and delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub topic: String,
    pub id: String,
    pub message: String,
    pub tag: i64,
    pub attestation: Option<String>,
    pub publisher: String,
    /// The publisher's address (for its limit).
    pub publisher_address: String,
    pub published_at: i64,
    pub expires_at: i64,
    pub seq: i64,
}

/// A client acknowledged (or sent a receipt for) a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ack {
    pub topic: String,
    pub id: String,
    pub client: String,
    /// The message's publisher: known from now on, when it is another client.
    pub publisher: String,
    pub expires_at: i64,
}

fn from_row(r: &sqlx::any::AnyRow) -> Result<Stored, sqlx::Error> {
    Ok(Stored {
        topic: r.try_get("topic")?,
        id: r.try_get("id")?,
        message: r.try_get("message")?,
        tag: r.try_get("tag")?,
        attestation: r.try_get("attestation")?,
        publisher: r.try_get("publisher")?,
        publisher_address: r.try_get("publisher_address")?,
        published_at: r.try_get("published_at")?,
        expires_at: r.try_get("expires_at")?,
        seq: r.try_get("seq")?,
    })
}

const COLUMNS: &str = "topic, id, message, tag, attestation, publisher, publisher_address, published_at, expires_at, seq";

/// Stores messages and records acknowledgements, in order, in one transaction; for each
/// message stored, false when the same message was already stored on its topic (a client
/// sends a publish again when it saw no answer).
pub async fn write_all(db: &Db, writes: &[super::Write]) -> Result<Vec<bool>, sqlx::Error> {
    let insert =
        format!("INSERT INTO relay_messages ({COLUMNS}, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (topic, id) DO NOTHING");
    let mut tx = db.begin().await?;
    let mut fresh = Vec::new();
    for write in writes {
        match write {
            super::Write::Store(m, _) => {
                let done = sqlx::query(&insert)
                    .bind(&m.topic)
                    .bind(&m.id)
                    .bind(&m.message)
                    .bind(m.tag)
                    .bind(&m.attestation)
                    .bind(&m.publisher)
                    .bind(&m.publisher_address)
                    .bind(m.published_at)
                    .bind(m.expires_at)
                    .bind(m.seq)
                    .bind(m.message.len() as i64)
                    .execute(&mut *tx)
                    .await?;
                fresh.push(done.rows_affected() == 1);
            }
            super::Write::Ack(ack) => {
                sqlx::query("INSERT INTO relay_acks (topic, id, client, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (topic, id, client) DO NOTHING")
                    .bind(&ack.topic)
                    .bind(&ack.id)
                    .bind(&ack.client)
                    .bind(ack.expires_at)
                    .execute(&mut *tx)
                    .await?;
                if ack.client != ack.publisher {
                    sqlx::query("INSERT INTO relay_clients (client, known_at) VALUES ($1, $2) ON CONFLICT (client) DO NOTHING")
                        .bind(&ack.publisher)
                        .bind(crate::db::now_ms())
                        .execute(&mut *tx)
                        .await?;
                }
            }
            super::Write::Flush(_) => {}
        }
    }
    tx.commit().await?;
    Ok(fresh)
}

/// One stored message, if it is still there.
pub async fn get(db: &Db, topic: &str, id: &str) -> Result<Option<Stored>, sqlx::Error> {
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM relay_messages WHERE topic = $1 AND id = $2")).bind(topic).bind(id).fetch_optional(db).await?;
    row.as_ref().map(from_row).transpose()
}

/// The live messages of a topic that `client` neither published nor acknowledged, in publish
/// order, at most `limit` from after `after_seq`.
pub async fn waiting(db: &Db, topic: &str, client: &str, now: i64, after_seq: i64, limit: i64) -> Result<Vec<Stored>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM relay_messages m WHERE topic = $1 AND publisher <> $2 AND expires_at > $3 AND seq > $4 \
         AND NOT EXISTS (SELECT 1 FROM relay_acks a WHERE a.topic = m.topic AND a.id = m.id AND a.client = $2) ORDER BY seq, id LIMIT $5"
    ))
    .bind(topic)
    .bind(client)
    .bind(now)
    .bind(after_seq)
    .bind(limit)
    .fetch_all(db)
    .await?;
    rows.iter().map(from_row).collect()
}

/// Whether another client ever acknowledged a message of `client`.
pub async fn is_known(db: &Db, client: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT known_at FROM relay_clients WHERE client = $1").bind(client).fetch_optional(db).await?.is_some())
}

/// Bytes of live messages in the mailbox.
pub async fn stored_bytes(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    let total: i64 =
        sqlx::query_scalar("SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) FROM relay_messages WHERE expires_at > $1").bind(now).fetch_one(db).await?;
    Ok(total.max(0) as u64)
}

/// Every live message's publisher, address, size and expiry (counted when a process starts).
pub async fn held(db: &Db, now: i64) -> Result<Vec<(String, String, i64, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT publisher, publisher_address, bytes, expires_at FROM relay_messages WHERE expires_at > $1").bind(now).fetch_all(db).await
}

/// Deletes the messages whose TTL ended before `now`, and their acknowledgements; how many
/// messages went.
pub async fn prune(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    sqlx::query("DELETE FROM relay_acks WHERE expires_at <= $1").bind(now).execute(db).await?;
    Ok(sqlx::query("DELETE FROM relay_messages WHERE expires_at <= $1").bind(now).execute(db).await?.rows_affected())
}
