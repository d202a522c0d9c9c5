//! The relay's mailbox in the database: what was published, until its TTL ends or a recipient
//! acknowledges it. A restart loses nothing; several server processes share it.

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
    pub published_at: i64,
    pub expires_at: i64,
    pub seq: i64,
}

fn from_row(r: &sqlx::any::AnyRow) -> Result<Stored, sqlx::Error> {
    Ok(Stored {
        topic: r.try_get("topic")?,
        id: r.try_get("id")?,
        message: r.try_get("message")?,
        tag: r.try_get("tag")?,
        attestation: r.try_get("attestation")?,
        publisher: r.try_get("publisher")?,
        published_at: r.try_get("published_at")?,
        expires_at: r.try_get("expires_at")?,
        seq: r.try_get("seq")?,
    })
}

const COLUMNS: &str = "topic, id, message, tag, attestation, publisher, published_at, expires_at, seq";

/// Stores messages and deletes acknowledged ones, in order, in one transaction; for each
/// message stored, false when the same message was already stored on its topic (a client
/// sends a publish again when it saw no answer).
pub async fn write_all(db: &Db, writes: &[super::Write]) -> Result<Vec<bool>, sqlx::Error> {
    let insert = format!("INSERT INTO relay_messages ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (topic, id) DO NOTHING");
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
                    .bind(m.published_at)
                    .bind(m.expires_at)
                    .bind(m.seq)
                    .execute(&mut *tx)
                    .await?;
                fresh.push(done.rows_affected() == 1);
            }
            super::Write::Ack(topic, id) => {
                sqlx::query("DELETE FROM relay_messages WHERE topic = $1 AND id = $2").bind(topic).bind(id).execute(&mut *tx).await?;
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

/// The live messages of a topic that `client` did not publish, in publish order, at most
/// `limit` from after `after_seq`.
pub async fn waiting(db: &Db, topic: &str, client: &str, now: i64, after_seq: i64, limit: i64) -> Result<Vec<Stored>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM relay_messages WHERE topic = $1 AND publisher <> $2 AND expires_at > $3 AND seq > $4 ORDER BY seq, id LIMIT $5"
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

/// A recipient acknowledged the message: it is never sent again.
pub async fn acknowledge(db: &Db, topic: &str, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM relay_messages WHERE topic = $1 AND id = $2").bind(topic).bind(id).execute(db).await?;
    Ok(())
}

/// Deletes the messages whose TTL ended before `now`; how many went.
pub async fn prune(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM relay_messages WHERE expires_at <= $1").bind(now).execute(db).await?.rows_affected())
}
