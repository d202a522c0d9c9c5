//! Importing the wallet directory from a JSON array (the format of shared/data/wallets.json).
//! Idempotent: records are upserted by id and only changed rows are written. Every record that
//! cannot be imported is reported with its index and reason; none is dropped silently.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use sigil_core::caip::ChainId;
use sigil_core::icons;
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
    /// Ids of records the source thinks are the same wallet.
    #[serde(default)]
    possible_same_wallet_as: Option<Vec<String>>,
}

/// Records joined into one wallet: (kept record's index, its name, [(merged record's index, its id)]).
pub type Merge = (usize, String, Vec<(usize, String)>);

#[derive(Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub total: usize,
    pub inserted: usize,
    pub updated: usize,
    pub unchanged: usize,
    pub logos_written: usize,
    /// Wallets without a logo file that take their icon from the set (`sigil_core::icons`).
    pub icon_set_logos: usize,
    /// (record index, name if known, reason)
    pub rejected: Vec<(usize, String, String)>,
    /// Imported, but with something to know (e.g. a missing logo file).
    pub warnings: Vec<(usize, String, String)>,
    /// Records of one wallet joined into one.
    pub merged: Vec<Merge>,
    /// Wallets an earlier import stored that are now merged into another.
    pub removed: usize,
}

impl std::fmt::Display for ImportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} records: {} inserted, {} updated, {} unchanged, {} rejected, {} merged into another ({} stored before, removed); {} logos written; {} wallets without a logo file have the icon set's",
            self.total,
            self.inserted,
            self.updated,
            self.unchanged,
            self.rejected.len(),
            self.merged.iter().map(|(_, _, m)| m.len()).sum::<usize>(),
            self.removed,
            self.logos_written,
            self.icon_set_logos
        )?;
        for (kept, name, merged) in &self.merged {
            let ids: Vec<String> = merged.iter().map(|(i, id)| format!("#{i} ({id})")).collect();
            writeln!(f, "merged into record #{kept} ({name}): {}", ids.join(", "))?;
        }
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
    /// The record's index in the source.
    index: usize,
    wallet: Wallet,
    badge_type: String,
    logo: Option<(String, Vec<u8>)>,
    same_as: Vec<String>,
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

fn prepare(index: usize, value: serde_json::Value, base_dir: &Path) -> Result<(Prepared, Option<String>), (String, String)> {
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
    let same_as = src.possible_same_wallet_as.unwrap_or_default().into_iter().map(|id| id.to_ascii_lowercase()).collect();
    Ok((Prepared { index, wallet, badge_type, logo, same_as }, warning))
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
        match prepare(i, value, base_dir) {
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

    let (mut prepared, merged) = merge_duplicates(prepared);
    // A wallet with no logo file (after the merge) takes the icon set's, when the set has it;
    // the rest keep the generated initials.
    for p in prepared.iter_mut().filter(|p| p.logo.is_none()) {
        if let Some(icon) = icons::wallet(&p.wallet.name, p.wallet.homepage.as_deref(), p.wallet.rdns.as_deref()) {
            p.logo = Some(("image/svg+xml".to_owned(), icon.svg.as_bytes().to_vec()));
            report.icon_set_logos += 1;
        }
    }
    let merged_ids: Vec<String> = merged.iter().flat_map(|(_, _, m)| m.iter().map(|(_, id)| id.clone())).collect();
    report.merged = merged;

    let mut tx = db.begin().await?;
    for id in merged_ids.iter().filter(|id| !prepared.iter().any(|p| &p.wallet.id == *id)) {
        sqlx::query("DELETE FROM wallet_chains WHERE wallet_id = $1").bind(id).execute(&mut *tx).await?;
        report.removed += sqlx::query("DELETE FROM wallets WHERE id = $1").bind(id).execute(&mut *tx).await?.rows_affected() as usize;
    }
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
    if report.inserted + report.updated + report.logos_written + report.removed > 0 {
        // Every server process reloads its copy of the directory when it sees this move.
        sqlx::query("UPDATE directory_meta SET version = version + 1 WHERE id = 1").execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(report)
}

/// The lists the data was joined from name some wallets more than once (Bitpie six times, one
/// with a logo, one with the links). Records with the same name are one wallet when something
/// ties them (the same rdns, homepage site or app link, or the source's own "same wallet" hint),
/// or when nothing tells them apart (no two different rdns or app links). The kept record is the
/// ranked one (else the first); it takes what it lacks from the others: links, rdns, the logo,
/// chains. Returns the wallets and what was merged into what.
fn merge_duplicates(prepared: Vec<Prepared>) -> (Vec<Prepared>, Vec<Merge>) {
    let n = prepared.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let name_of = |p: &Prepared| p.wallet.name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, p) in prepared.iter().enumerate() {
        by_name.entry(name_of(p)).or_default().push(i);
    }
    let rdns = |p: &Prepared| p.wallet.rdns.as_deref().map(str::to_ascii_lowercase);
    // The site: wallet.1inch.io and 1inch.io/wallet are one.
    let host = |p: &Prepared| {
        let host = p.wallet.homepage.as_deref().and_then(link_identity)?;
        let labels: Vec<&str> = host.rsplitn(3, '.').collect();
        Some(labels.iter().take(2).rev().copied().collect::<Vec<_>>().join("."))
    };
    let app_link = |p: &Prepared| p.wallet.mobile_link.as_deref().and_then(link_identity);
    let mut groups: Vec<&Vec<usize>> = by_name.values().filter(|g| g.len() > 1).collect();
    groups.sort();
    for group in groups {
        // What ties two records.
        for (a, &i) in group.iter().enumerate() {
            for &j in &group[a + 1..] {
                let (x, y) = (&prepared[i], &prepared[j]);
                let same = |f: &dyn Fn(&Prepared) -> Option<String>| f(x).is_some() && f(x) == f(y);
                let hinted = x.same_as.contains(&y.wallet.id) || y.same_as.contains(&x.wallet.id);
                if hinted || same(&rdns) || same(&host) || same(&app_link) {
                    let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                    parent[rj.max(ri)] = rj.min(ri);
                }
            }
        }
        // Then what is left joins unless it differs in an rdns or an app link.
        for (a, &i) in group.iter().enumerate() {
            for &j in &group[a + 1..] {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                if ri == rj {
                    continue;
                }
                let members = |r: usize, parent: &mut [usize]| group.iter().copied().filter(|&k| root(parent, k) == r).collect::<Vec<_>>();
                let (mi, mj) = (members(ri, &mut parent), members(rj, &mut parent));
                let differ = |f: &dyn Fn(&Prepared) -> Option<String>| {
                    let left: Vec<String> = mi.iter().filter_map(|&k| f(&prepared[k])).collect();
                    let right: Vec<String> = mj.iter().filter_map(|&k| f(&prepared[k])).collect();
                    !left.is_empty() && !right.is_empty() && !left.iter().any(|v| right.contains(v))
                };
                if !differ(&rdns) && !differ(&app_link) {
                    parent[rj.max(ri)] = rj.min(ri);
                }
            }
        }
    }

    let mut components: Vec<Vec<usize>> = Vec::new();
    let mut slot: HashMap<usize, usize> = HashMap::new();
    for i in 0..n {
        let r = root(&mut parent, i);
        let at = *slot.entry(r).or_insert_with(|| {
            components.push(Vec::new());
            components.len() - 1
        });
        components[at].push(i);
    }
    let mut records: Vec<Option<Prepared>> = prepared.into_iter().map(Some).collect();
    let mut wallets = Vec::with_capacity(components.len());
    let mut merged = Vec::new();
    for mut members in components {
        members.sort_by_key(|&k| {
            let w = &records[k].as_ref().expect("each record is in one component").wallet;
            (w.order.is_none(), w.order.unwrap_or(0), k)
        });
        let mut kept = records[members[0]].take().expect("each record is in one component");
        let mut joined = Vec::new();
        for &k in &members[1..] {
            let other = records[k].take().expect("each record is in one component");
            joined.push((other.index, other.wallet.id.clone()));
            absorb(&mut kept, other);
        }
        if !joined.is_empty() {
            merged.push((kept.index, kept.wallet.name.clone(), joined));
        }
        wallets.push(kept);
    }
    wallets.sort_by_key(|p| p.index);
    merged.sort();
    (wallets, merged)
}

/// What identifies a link: an app scheme ("bitpie" of bitpie://), or a web link's host without
/// "www.".
fn link_identity(link: &str) -> Option<String> {
    let (scheme, rest) = link.split_once(':')?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Some(scheme);
    }
    let host = rest.trim_start_matches('/').split(['/', '?', '#']).next()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
    (!host.is_empty()).then_some(host)
}

/// `kept` takes what it lacks from `other` (another record of the same wallet).
fn absorb(kept: &mut Prepared, other: Prepared) {
    let (w, o) = (&mut kept.wallet, other.wallet);
    for (mine, theirs) in [
        (&mut w.rdns, o.rdns),
        (&mut w.homepage, o.homepage),
        (&mut w.mobile_link, o.mobile_link),
        (&mut w.desktop_link, o.desktop_link),
        (&mut w.webapp_link, o.webapp_link),
        (&mut w.app_store, o.app_store),
        (&mut w.play_store, o.play_store),
        (&mut w.chrome_store, o.chrome_store),
    ] {
        if mine.is_none() {
            *mine = theirs;
        }
    }
    for chain in o.chains {
        if !w.chains.contains(&chain) {
            w.chains.push(chain);
        }
    }
    for injected in o.injected {
        if !w.injected.contains(&injected) {
            w.injected.push(injected);
        }
    }
    if kept.logo.is_none() && other.logo.is_some() {
        kept.logo = other.logo;
        w.image_id = o.image_id;
    }
    if kept.badge_type == "none" {
        kept.badge_type = other.badge_type;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn merged(records: serde_json::Value) -> (Vec<Wallet>, Vec<Merge>) {
        let prepared = records.as_array().unwrap().iter().enumerate().map(|(i, r)| prepare(i, r.clone(), Path::new(".")).unwrap().0).collect();
        let (wallets, merged) = merge_duplicates(prepared);
        (wallets.into_iter().map(|p| p.wallet).collect(), merged)
    }

    fn id(n: u8) -> String {
        format!("{n:02x}").repeat(32)
    }

    #[test]
    fn records_of_one_wallet_become_one() {
        let (wallets, merged) = merged(json!([
            {"id": id(1), "name": "Bitpie", "homepage": "https://bitpie.com/", "mobile_link": "bitpie:", "chains": ["eip155:1"]},
            {"id": id(2), "name": "Bitpie", "homepage": "https://bitpiehk.com/"},
            {"id": id(3), "name": "Bitpie", "homepage": "https://bitpie.com/", "image_id": "logo-3", "chains": ["eip155:56"]},
            {"id": id(4), "name": "bitpie ", "homepage": "https://bitpie.com", "mobile_link": "bitpiewc://", "possible_same_wallet_as": [id(1)]},
            {"id": id(5), "name": "Rabby", "homepage": "https://rabby.io/", "rdns": "io.rabby", "order": 7, "mobile_link": "rabby://"},
            {"id": id(6), "name": "Rabby", "homepage": "https://www.rabby.io", "app_store": "https://apps.apple.com/app/rabby"},
            {"id": id(7), "name": "1inch Wallet", "homepage": "https://1inch.io/wallet/", "mobile_link": "1inch:"},
            {"id": id(8), "name": "1inch Wallet", "homepage": "http://wallet.1inch.io", "mobile_link": "oneinch://open"},
        ]));
        assert_eq!(wallets.iter().map(|w| w.name.as_str()).collect::<Vec<_>>(), ["Bitpie", "Rabby", "1inch Wallet"]);
        let bitpie = &wallets[0];
        assert_eq!(bitpie.id, id(1));
        assert_eq!(bitpie.chains, ["eip155:1", "eip155:56"]);
        assert_eq!(bitpie.mobile_link.as_deref(), Some("bitpie:"));
        let rabby = &wallets[1];
        assert_eq!((rabby.id.as_str(), rabby.app_store.as_deref()), (id(5).as_str(), Some("https://apps.apple.com/app/rabby")));
        assert_eq!(
            merged,
            vec![
                (0, "Bitpie".to_owned(), vec![(1, id(2)), (2, id(3)), (3, id(4))]),
                (4, "Rabby".to_owned(), vec![(5, id(6))]),
                (6, "1inch Wallet".to_owned(), vec![(7, id(8))])
            ]
        );
    }

    #[test]
    fn the_ranked_record_is_kept_and_takes_the_logo_of_another() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.jpeg"), b"jpeg").unwrap();
        let records = [
            json!({"id": id(1), "name": "BitKeep", "homepage": "https://bitkeep.com/", "logo_file": "b.jpeg", "image_id": "img-1"}),
            json!({"id": id(2), "name": "BitKeep", "homepage": "https://bitkeep.com", "order": 190, "image_id": "img-2"}),
        ];
        let prepared = records.iter().enumerate().map(|(i, r)| prepare(i, r.clone(), dir.path()).unwrap().0).collect();
        let (wallets, merged) = merge_duplicates(prepared);
        assert_eq!(wallets.len(), 1);
        assert_eq!((wallets[0].wallet.id.as_str(), wallets[0].wallet.image_id.as_str()), (id(2).as_str(), "img-1"));
        assert_eq!(wallets[0].logo.as_ref().map(|(_, bytes)| bytes.as_slice()), Some(&b"jpeg"[..]));
        assert_eq!(merged, vec![(1, "BitKeep".to_owned(), vec![(0, id(1))])]);
    }

    #[test]
    fn wallets_that_share_a_name_but_differ_stay_apart() {
        let (wallets, merged) = merged(json!([
            {"id": id(1), "name": "Keeper", "homepage": "https://keeper-wallet.app", "mobile_link": "https://link.keeper-wallet.app"},
            {"id": id(2), "name": "Keeper", "homepage": "https://keeperwallet.com/", "mobile_link": "tonkeeper://"},
            {"id": id(3), "name": "Twin", "rdns": "com.twin.one", "homepage": "https://one.example"},
            {"id": id(4), "name": "Twin", "rdns": "com.twin.two", "homepage": "https://two.example"},
        ]));
        assert_eq!(wallets.len(), 4);
        assert!(merged.is_empty());
    }

    #[test]
    fn link_identity_is_the_scheme_or_the_host() {
        assert_eq!(link_identity("bitpie:").as_deref(), Some("bitpie"));
        assert_eq!(link_identity("SafeMoon://wc").as_deref(), Some("safemoon"));
        assert_eq!(link_identity("https://www.Ledger.com/ledger-live?x=1").as_deref(), Some("ledger.com"));
        assert_eq!(link_identity("no link"), None);
    }
}
