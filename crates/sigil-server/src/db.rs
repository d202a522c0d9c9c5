//! Storage: one pool over SQLite or PostgreSQL (chosen by the URL), the same migrations and
//! the same queries for both. Queries use `$n` placeholders, which both engines accept.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Connection, Executor};

use crate::config::{database_kind, DatabaseKind};

pub type Db = AnyPool;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Opens the database (creating a SQLite file and its folder when missing) and migrates it.
pub async fn connect(url: &str) -> anyhow::Result<Db> {
    sqlx::any::install_default_drivers();
    let kind = database_kind(url).map_err(anyhow::Error::msg)?;
    let url = match kind {
        DatabaseKind::Sqlite => prepare_sqlite_url(url)?,
        DatabaseKind::Postgres => url.to_owned(),
    };
    let options = AnyConnectOptions::from_str(&url)?;
    let sqlite = kind == DatabaseKind::Sqlite;
    let pool = AnyPoolOptions::new()
        .max_connections(if sqlite { 8 } else { 16 })
        .acquire_timeout(Duration::from_secs(5))
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if sqlite {
                    // WAL lets readers run beside the writer; busy_timeout makes writers wait, not fail.
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                    conn.execute("PRAGMA busy_timeout = 5000").await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open database {}: {e}", redact(&url)))?;
    MIGRATOR.run(&pool).await.map_err(|e| anyhow::anyhow!("database migration failed: {e}"))?;
    Ok(pool)
}

/// `sqlite://path` -> the same with `mode=rwc`, after creating the folder.
fn prepare_sqlite_url(url: &str) -> anyhow::Result<String> {
    let rest = url.strip_prefix("sqlite:").unwrap_or(url).trim_start_matches("//");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if let Some(parent) = Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
    }
    let query = if query.contains("mode=") {
        query.to_owned()
    } else if query.is_empty() {
        "mode=rwc".into()
    } else {
        format!("{query}&mode=rwc")
    };
    Ok(format!("sqlite://{path}?{query}"))
}

/// The URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_owned(),
    }
}

/// True when the database answers.
pub async fn ping(db: &Db) -> bool {
    match db.acquire().await {
        Ok(mut conn) => conn.ping().await.is_ok(),
        Err(_) => false,
    }
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_get_create_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.db");
        let url = prepare_sqlite_url(&format!("sqlite://{}", path.display())).unwrap();
        assert_eq!(url, format!("sqlite://{}?mode=rwc", path.display()));
        assert!(dir.path().join("a").is_dir());
    }

    #[test]
    fn redacts_passwords() {
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://u:***@h/db");
    }
}
