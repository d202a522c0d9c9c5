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

/// What the transaction storing a message tells the other processes of it, if anything.
pub type Notify<'a> = Option<&'a (dyn Fn(&Stored) -> String + Sync)>;

/// How often the SQLite inbox is filed into the mailbox's tables at most, and how many messages
/// it holds before it is filed sooner (see migration 0020).
pub const FILE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);
const FILE_AT: usize = 5000;

/// What the writer of a SQLite mailbox keeps between batches: which messages its inbox holds
/// (it is the inbox's only writer), and since when the inbox has anything to file.
#[derive(Default)]
pub struct Inbox {
    held: std::collections::HashSet<(String, String)>,
    since: Option<std::time::Instant>,
}

impl Inbox {
    /// At start: whatever a previous process left in the inbox is to be filed.
    pub fn left_over() -> Inbox {
        Inbox { held: Default::default(), since: Some(std::time::Instant::now()) }
    }

    /// When the inbox is to be filed by time, if it holds anything.
    pub fn deadline(&self) -> Option<std::time::Instant> {
        self.since.map(|since| since + FILE_EVERY)
    }

    /// Whether the inbox is to be filed now: it holds something, and a reader waits, it is
    /// full, or its time came.
    pub fn due(&self, reader_waits: bool) -> bool {
        self.since.is_some_and(|since| reader_waits || self.held.len() >= FILE_AT || since.elapsed() >= FILE_EVERY)
    }

    /// After a failed filing: the next one waits a whole period.
    pub fn retry_later(&mut self) {
        self.since = Some(std::time::Instant::now());
    }
}

/// Stores messages and records acknowledgements atomically (a batch of the writer's queue),
/// with one statement per table rather than one per row, and in one call to the database. On
/// SQLite (`inbox`) they are appended to the inbox (see migration 0020), one string of
/// statements from BEGIN to COMMIT (each call is a trip to the connection's thread and back);
/// `move_inbox` files them later. On PostgreSQL they go to the tables in one statement whose
/// inserts are common table expressions (one round trip, its own transaction). For each message
/// stored, false when the same message was already stored on its topic (a client sends a
/// publish again when it saw no answer). `notify`: on PostgreSQL, the announcement of each newly
/// stored message that no early note went out for, sent in the same transaction (the others
/// hear of it once it is committed). Only those: that takes a transaction of several
/// statements, and its commit holds PostgreSQL's notification lock until flushed, which the
/// early notes would wait for.
pub async fn write_all(
    conn: &mut sqlx::AnyConnection,
    writes: &[super::Write],
    inbox: Option<&mut Inbox>,
    notify: Notify<'_>,
) -> Result<Vec<bool>, sqlx::Error> {
    let stores: Vec<(&Stored, bool)> =
        writes.iter().filter_map(|w| if let super::Write::Store(m, early, _) = w { Some((m.as_ref(), *early)) } else { None }).collect();
    let messages: Vec<&Stored> = stores.iter().map(|(m, _)| *m).collect();
    let acks: Vec<(&Ack, bool)> = writes.iter().filter_map(|w| if let super::Write::Ack(a, first) = w { Some((a, *first)) } else { None }).collect();
    // Publishers acknowledged by another client, not known yet.
    let mut known: Vec<&str> = acks.iter().filter(|(a, first)| *first && a.client != a.publisher).map(|(a, _)| a.publisher.as_str()).collect();
    known.sort_unstable();
    known.dedup();
    // On SQLite: a message the inbox holds already is not new, and once in a batch is enough.
    let inserted: Vec<&Stored> = match &inbox {
        Some(inbox) => {
            let mut once = std::collections::HashSet::new();
            messages.iter().copied().filter(|m| !inbox.held.contains(&(m.topic.clone(), m.id.clone())) && once.insert((&m.topic, &m.id))).collect()
        }
        None => messages.clone(),
    };
    let mut statements = Vec::with_capacity(3);
    let mut next = 1;
    if !inserted.is_empty() {
        let values = placeholders(next, inserted.len(), 11);
        statements.push(if inbox.is_some() {
            // Not new either when already filed.
            format!(
                "INSERT INTO relay_inbox_messages ({COLUMNS}, bytes) SELECT * FROM (VALUES {values}) AS v \
                 WHERE NOT EXISTS (SELECT 1 FROM relay_messages m WHERE m.topic = v.column1 AND m.id = v.column2) RETURNING topic, id"
            )
        } else {
            format!("INSERT INTO relay_messages ({COLUMNS}, bytes) VALUES {values} ON CONFLICT (topic, id) DO NOTHING RETURNING topic, id")
        });
        next += inserted.len() * 11;
    }
    if !acks.is_empty() {
        let values = placeholders(next, acks.len(), 4);
        statements.push(if inbox.is_some() {
            format!("INSERT INTO relay_inbox_acks (topic, id, client, expires_at) VALUES {values}")
        } else {
            format!("INSERT INTO relay_acks (topic, id, client, expires_at) VALUES {values} ON CONFLICT (topic, id, client) DO NOTHING")
        });
        next += acks.len() * 4;
    }
    if !known.is_empty() {
        statements.push(format!("INSERT INTO relay_clients (client, known_at) VALUES {} ON CONFLICT (client) DO NOTHING", placeholders(next, known.len(), 2)));
    }
    let Some((main, others)) = statements.split_first() else { return Ok(vec![false; messages.len()]) };
    let several = !others.is_empty();
    let sql = if inbox.is_some() {
        // Statements bind their $n from the one list of arguments.
        if several {
            format!("BEGIN; {}; COMMIT", statements.join("; "))
        } else {
            main.clone()
        }
    } else if several {
        // Data-modifying WITH parts run once each, whether or not the statement reads them.
        let parts: Vec<String> = others.iter().enumerate().map(|(i, s)| format!("w{i} AS ({s})")).collect();
        format!("WITH {} {main}", parts.join(", "))
    } else {
        main.clone()
    };
    let mut query = sqlx::query(&sql);
    for m in &inserted {
        query = query
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
            .bind(m.message.len() as i64);
    }
    for (ack, _) in &acks {
        query = query.bind(&ack.topic).bind(&ack.id).bind(&ack.client).bind(ack.expires_at);
    }
    let now = crate::db::now_ms();
    for client in &known {
        query = query.bind(*client).bind(now);
    }
    if let Some(inbox) = inbox {
        let returned = query.fetch_all(&mut *conn).await?;
        let fresh = fresh_of(&messages, &returned)?;
        for (m, _) in messages.iter().zip(&fresh).filter(|(_, new)| **new) {
            inbox.held.insert((m.topic.clone(), m.id.clone()));
        }
        if !inserted.is_empty() || !acks.is_empty() {
            inbox.since.get_or_insert_with(std::time::Instant::now);
        }
        return Ok(fresh);
    }
    let notify = notify.filter(|_| stores.iter().any(|(_, early)| !early));
    if let Some(notify) = notify {
        use sqlx::Connection;
        let mut tx = conn.begin().await?;
        let inserted = query.fetch_all(&mut *tx).await?;
        let fresh = fresh_of(&messages, &inserted)?;
        let notes: Vec<String> = stores.iter().zip(&fresh).filter(|((_, early), new)| **new && !early).map(|((m, _), _)| notify(m)).collect();
        if !notes.is_empty() {
            let calls: Vec<String> = (0..notes.len()).map(|i| format!("pg_notify($1, ${})", i + 2)).collect();
            let sql = format!("SELECT {}", calls.join(", "));
            let mut query = sqlx::query(&sql).bind(super::CHANNEL);
            for note in &notes {
                query = query.bind(note);
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        return Ok(fresh);
    }
    let inserted = query.fetch_all(&mut *conn).await?;
    fresh_of(&messages, &inserted)
}

/// Files what the SQLite inbox holds into relay_messages and relay_acks, in one transaction.
pub async fn move_inbox(conn: &mut sqlx::AnyConnection, inbox: &mut Inbox) -> Result<(), sqlx::Error> {
    // `WHERE true`: SQLite reads ON CONFLICT after a bare FROM as a join's constraint.
    sqlx::query(&format!(
        "BEGIN; \
         INSERT INTO relay_messages ({COLUMNS}, bytes) SELECT {COLUMNS}, bytes FROM relay_inbox_messages WHERE true ON CONFLICT (topic, id) DO NOTHING; \
         INSERT INTO relay_acks (topic, id, client, expires_at) SELECT topic, id, client, expires_at FROM relay_inbox_acks WHERE true \
         ON CONFLICT (topic, id, client) DO NOTHING; \
         DELETE FROM relay_inbox_messages; DELETE FROM relay_inbox_acks; COMMIT"
    ))
    .execute(&mut *conn)
    .await?;
    *inbox = Inbox::default();
    Ok(())
}

/// For each message, whether the insert returned it (it is new); the same message twice in one
/// batch is stored once: the first is the new one.
fn fresh_of(messages: &[&Stored], inserted: &[sqlx::any::AnyRow]) -> Result<Vec<bool>, sqlx::Error> {
    let mut new: std::collections::HashSet<(String, String)> =
        inserted.iter().map(|r| Ok((r.try_get::<String, _>(0)?, r.try_get::<String, _>(1)?))).collect::<Result<_, sqlx::Error>>()?;
    Ok(messages.iter().map(|m| new.remove(&(m.topic.clone(), m.id.clone()))).collect())
}

/// `($1, $2), ($3, $4)` for 2 rows of 2 columns from $1.
fn placeholders(first: usize, rows: usize, columns: usize) -> String {
    let mut out = String::with_capacity(rows * columns * 6);
    for r in 0..rows {
        out.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..columns {
            if c > 0 {
                out.push_str(", ");
            }
            out.push('$');
            out.push_str(&(first + r * columns + c).to_string());
        }
        out.push(')');
    }
    out
}

/// One stored message, if it is still there.
pub async fn get(db: &Db, topic: &str, id: &str) -> Result<Option<Stored>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM relay_messages WHERE topic = $1 AND id = $2 UNION ALL SELECT {COLUMNS} FROM relay_inbox_messages WHERE topic = $1 AND id = $2 LIMIT 1"
    ))
    .bind(topic)
    .bind(id)
    .fetch_optional(db)
    .await?;
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

/// Which of `ids` (messages of `topic`) `client` acknowledged.
pub async fn acknowledged(db: &Db, topic: &str, client: &str, ids: &[&str]) -> Result<std::collections::HashSet<String>, sqlx::Error> {
    let mut acked = std::collections::HashSet::new();
    // In chunks: SQLite takes at most 32766 parameters a statement.
    for chunk in ids.chunks(500) {
        let list: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
        let sql = format!("SELECT id FROM relay_acks WHERE topic = $1 AND client = $2 AND id IN ({})", list.join(", "));
        let mut query = sqlx::query_scalar::<_, String>(&sql).bind(topic).bind(client);
        for id in chunk {
            query = query.bind(*id);
        }
        acked.extend(query.fetch_all(db).await?);
    }
    Ok(acked)
}

/// Whether another client ever acknowledged a message of `client`.
pub async fn is_known(db: &Db, client: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT known_at FROM relay_clients WHERE client = $1").bind(client).fetch_optional(db).await?.is_some())
}

/// Bytes of live messages in the mailbox (its inbox included).
pub async fn stored_bytes(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    let total: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) FROM \
         (SELECT bytes FROM relay_messages WHERE expires_at > $1 UNION ALL SELECT bytes FROM relay_inbox_messages WHERE expires_at > $1) AS live",
    )
    .bind(now)
    .fetch_one(db)
    .await?;
    Ok(total.max(0) as u64)
}

/// Every live message's publisher, address, size and expiry (counted when a process starts).
pub async fn held(db: &Db, now: i64) -> Result<Vec<(String, String, i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT publisher, publisher_address, bytes, expires_at FROM relay_messages WHERE expires_at > $1 \
         UNION ALL SELECT publisher, publisher_address, bytes, expires_at FROM relay_inbox_messages WHERE expires_at > $1",
    )
    .bind(now)
    .fetch_all(db)
    .await
}

/// Deletes the messages whose TTL ended before `now`, and their acknowledgements; how many
/// messages went.
pub async fn prune(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    sqlx::query("DELETE FROM relay_acks WHERE expires_at <= $1").bind(now).execute(db).await?;
    Ok(sqlx::query("DELETE FROM relay_messages WHERE expires_at <= $1").bind(now).execute(db).await?.rows_affected())
}
