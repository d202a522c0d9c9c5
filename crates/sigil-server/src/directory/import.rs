//! Importing the wallet directory from a JSON array (the format of shared/data/wallets.json).
//! Idempotent: records are upserted by id and only changed rows are written. Every record that
//! cannot be imported is reported with its index and reason; none is dropped silently.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use sigil_core::caip::ChainId;
use sigil_core::wallet_id;
use sqlx::Row;

use super::{Injected, Wallet};
use crate::db::{now_ms, Db};

/// A record as found in the source file; unknown fields are ignored.
#[derive(Debug, Deserialize)]
struct SourceWallet {
    id: Option<String>,
    name: Option<String>,
    homepage: Option<String>,
    image_id: Option<String>,
    rdns: Option<String>,
    mobile_link: Option<String>,
    desktop_link: Option<String>,
    webapp_link: Option<String>,
    app_store: Option<String>,
    play_store: Option<String>,
    chrome_store: Option<String>,
    #[serde(default)]
    injected: Option<Vec<Injected>>,
    #[serde(default)]
    chains: Option<Vec<String>>,
    order: Option<i64>,
    badge_type: Option<String>,
    logo_file: Option<String>,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub total: usize,
    pub inserted: usize,
    pub updated: usize,
    pub unchanged: usize,
    pub logos_written: usize,
    /// (record index, name if known, reason)
    pub rejected: Vec<(usize, String, String)>,
    /// Imported, but with something to know (e.g. a missing logo file).
    pub warnings: Vec<(usize, String, String)>,
}

impl std::fmt::Display for ImportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} records: {} inserted, {} updated, {} unchanged, {} rejected; {} logos written",
            self.total,
            self.inserted,
            self.updated,
            self.unchanged,
            self.rejected.len(),
            self.logos_written
        )?;
        for (i, name, why) in &self.rejected {
            writeln!(f, "rejected record #{i} ({name}): {why}")?;
        }
        for (i, name, why) in &self.warnings {
            writeln!(f, "warning for record #{i} ({name}): {why}")?;
        }
        Ok(())
    }
}

struct Prepared {
    wallet: Wallet,
    badge_type: String,
    logo: Option<(String, Vec<u8>)>,
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

fn prepare(value: serde_json::Value, base_dir: &Path) -> Result<(Prepared, Option<String>), (String, String)> {
    let label = value.get("name").and_then(|v| v.as_str()).unwrap_or("?").to_owned();
    let src: SourceWallet = serde_json::from_value(value).map_err(|e| (label.clone(), format!("malformed record: {e}")))?;
    let fail = |why: String| (label.clone(), why);

    let name = non_empty(src.name).ok_or_else(|| fail("name is missing".into()))?;
    if name.chars().count() > 100 {
        return Err(fail("name is longer than 100 characters".into()));
    }
    let homepage = non_empty(src.homepage);
    let id = match non_empty(src.id) {
        Some(id) => {
            let id = id.to_ascii_lowercase();
            if !wallet_id::is_explorer_id(&id) {
                return Err(fail(format!("id '{id}' is not 64 hex characters")));
            }
            id
        }
        None => homepage.as_deref().and_then(wallet_id::derive_from_homepage).ok_or_else(|| fail("no id, and no homepage host to derive one from".into()))?,
    };
    let mut chains = Vec::new();
    for chain in src.chains.unwrap_or_default() {
        let parsed: ChainId = chain.parse().map_err(|e| fail(format!("chains: {e}")))?;
        let chain = parsed.to_string();
        if !chains.contains(&chain) {
            chains.push(chain);
        }
    }
    let badge_type = match non_empty(src.badge_type).as_deref() {
        None | Some("none") => "none".to_owned(),
        Some("certified") => "certified".to_owned(),
        Some(other) => return Err(fail(format!("badge_type '{other}' is not 'certified' or 'none'"))),
    };

    let mut warning = None;
    let logo = match non_empty(src.logo_file) {
        None => None,
        Some(rel) => {
            let path: PathBuf = base_dir.join(&rel);
            if rel.contains("..") || Path::new(&rel).is_absolute() {
                warning = Some(format!("logo_file '{rel}' must be a relative path inside the data folder; using a generated logo"));
                None
            } else {
                match std::fs::read(&path) {
                    Ok(bytes) => Some((content_type_for(&rel).to_owned(), bytes)),
                    Err(e) => {
                        warning = Some(format!("logo_file {}: {e}; using a generated logo", path.display()));
                        None
                    }
                }
            }
        }
    };

    let wallet = Wallet {
        image_id: non_empty(src.image_id).unwrap_or_else(|| id.clone()),
        id,
        name,
        image_url: String::new(),
        rdns: non_empty(src.rdns),
        homepage,
        mobile_link: non_empty(src.mobile_link),
        desktop_link: non_empty(src.desktop_link),
        webapp_link: non_empty(src.webapp_link),
        app_store: non_empty(src.app_store),
        play_store: non_empty(src.play_store),
        chrome_store: non_empty(src.chrome_store),
        injected: src.injected.unwrap_or_default(),
        chains,
        order: src.order,
    };
    Ok((Prepared { wallet, badge_type, logo }, warning))
}

fn content_type_for(path: &str) -> &'static str {
    match path.rsplit('.').next().map(str::to_ascii_lowercase).as_deref() {
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("webp") => "image/webp",
        Some("gif") => "image/gif",
        _ => "image/jpeg",
    }
}

/// Imports `path` (logo files resolve relative to its folder).
pub async fn import_file(db: &Db, path: &Path) -> anyhow::Result<ImportReport> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let records: Vec<serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{} is not a JSON array of wallet records: {e}", path.display()))?;
    import_records(db, records, path.parent().unwrap_or(Path::new("."))).await
}

pub async fn import_records(db: &Db, records: Vec<serde_json::Value>, base_dir: &Path) -> anyhow::Result<ImportReport> {
    let mut report = ImportReport { total: records.len(), ..Default::default() };
    let mut prepared: Vec<Prepared> = Vec::new();
    let mut first_index: HashMap<String, usize> = HashMap::new();
    for (i, value) in records.into_iter().enumerate() {
        match prepare(value, base_dir) {
            Ok((p, warning)) => {
                if let Some(first) = first_index.get(&p.wallet.id) {
                    report.rejected.push((i, p.wallet.name.clone(), format!("same id {} as record #{first}; the first is kept", p.wallet.id)));
                    continue;
                }
                if let Some(w) = warning {
                    report.warnings.push((i, p.wallet.name.clone(), w));
                }
                first_index.insert(p.wallet.id.clone(), i);
                prepared.push(p);
            }
            Err((name, why)) => report.rejected.push((i, name, why)),
        }
    }

    let mut tx = db.begin().await?;
    let existing: HashMap<String, String> = sqlx::query("SELECT id, doc, badge_type FROM wallets")
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| Ok::<_, sqlx::Error>((r.try_get::<String, _>("id")?, format!("{}|{}", r.try_get::<String, _>("doc")?, r.try_get::<String, _>("badge_type")?))))
        .collect::<Result<_, _>>()?;
    let existing_logos: HashMap<String, String> = sqlx::query("SELECT image_id, etag FROM wallet_logos")
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| Ok::<_, sqlx::Error>((r.try_get("image_id")?, r.try_get("etag")?)))
        .collect::<Result<_, _>>()?;

    let now = now_ms();
    for p in &prepared {
        let w = &p.wallet;
        let doc = serde_json::to_string(w)?;
        let search_text = format!("{} {}", w.name, w.rdns.as_deref().unwrap_or("")).to_lowercase();
        match existing.get(&w.id) {
            Some(old) if *old == format!("{doc}|{}", p.badge_type) => report.unchanged += 1,
            Some(_) => {
                sqlx::query(
                    "UPDATE wallets SET name = $2, search_text = $3, rdns = $4, image_id = $5, badge_type = $6, doc = $7, updated_at = $8 WHERE id = $1",
                )
                .bind(&w.id)
                .bind(&w.name)
                .bind(&search_text)
                .bind(&w.rdns)
                .bind(&w.image_id)
                .bind(&p.badge_type)
                .bind(&doc)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM wallet_chains WHERE wallet_id = $1").bind(&w.id).execute(&mut *tx).await?;
                insert_chains(&mut tx, w).await?;
                report.updated += 1;
            }
            None => {
                sqlx::query("INSERT INTO wallets (id, position, name, search_text, rdns, image_id, badge_type, doc, updated_at) VALUES ($1, 0, $2, $3, $4, $5, $6, $7, $8)")
                    .bind(&w.id).bind(&w.name).bind(&search_text).bind(&w.rdns).bind(&w.image_id).bind(&p.badge_type).bind(&doc).bind(now)
                    .execute(&mut *tx).await?;
                insert_chains(&mut tx, w).await?;
                report.inserted += 1;
            }
        }
        if let Some((content_type, bytes)) = &p.logo {
            let etag = format!("\"{}\"", &hex::encode(Sha256::digest(bytes))[..32]);
            if existing_logos.get(&w.image_id) != Some(&etag) {
                let data = base64::engine::general_purpose::STANDARD.encode(bytes);
                sqlx::query("DELETE FROM wallet_logos WHERE image_id = $1").bind(&w.image_id).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO wallet_logos (image_id, content_type, data_base64, etag) VALUES ($1, $2, $3, $4)")
                    .bind(&w.image_id)
                    .bind(content_type)
                    .bind(data)
                    .bind(&etag)
                    .execute(&mut *tx)
                    .await?;
                report.logos_written += 1;
            }
        }
    }
    renumber(&mut tx).await?;
    if report.inserted + report.updated + report.logos_written > 0 {
        // Every server process reloads its copy of the directory when it sees this move.
        sqlx::query("UPDATE directory_meta SET version = version + 1 WHERE id = 1").execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(report)
}

async fn insert_chains(tx: &mut sqlx::Transaction<'_, sqlx::Any>, w: &Wallet) -> Result<(), sqlx::Error> {
    for chain in &w.chains {
        sqlx::query("INSERT INTO wallet_chains (wallet_id, chain) VALUES ($1, $2)").bind(&w.id).bind(chain).execute(&mut **tx).await?;
    }
    Ok(())
}

/// Recomputes every wallet's position: by order (nulls last), then lower-case name, then id.
/// Done in Rust so the order does not depend on either engine's collation.
async fn renumber(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), sqlx::Error> {
    let rows = sqlx::query("SELECT id, position, doc FROM wallets").fetch_all(&mut **tx).await?;
    let mut keyed = Vec::with_capacity(rows.len());
    for r in &rows {
        let id: String = r.try_get("id")?;
        let position: i64 = r.try_get("position")?;
        let doc: String = r.try_get("doc")?;
        let w: Wallet = serde_json::from_str(&doc).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        keyed.push(((w.order.is_none(), w.order.unwrap_or(0), w.name.to_lowercase(), id.clone()), id, position));
    }
    keyed.sort();
    for (i, (_, id, position)) in keyed.iter().enumerate() {
        let new_position = i as i64 + 1;
        if *position != new_position {
            sqlx::query("UPDATE wallets SET position = $1 WHERE id = $2").bind(new_position).bind(id).execute(&mut **tx).await?;
        }
    }
    Ok(())
}
