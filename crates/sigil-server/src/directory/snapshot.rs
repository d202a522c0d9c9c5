//! The directory as served: an immutable in-memory snapshot, built from the database at start
//! and again whenever the directory's version there changes (`sigil wallets import` bumps it,
//! from any process), then swapped in atomically. Lists are answered from it without a query:
//! each wallet's JSON is serialised once, pages of the unfiltered list are kept whole, and a
//! trigram index narrows case-insensitive name/rdns searches to the wallets that can match.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use arc_swap::ArcSwap;
use bytes::Bytes;
use sqlx::Row;

use super::Wallet;
use crate::db::Db;

/// Search results are capped (spec: at most 100).
pub const SEARCH_LIMIT: usize = 100;
/// The page size the modal asks for (spec: wallet list page 40): those pages are kept whole.
pub const DEFAULT_ENTRIES: u32 = 40;
/// How often the database's directory version is checked for an import by another process.
pub const CHECK_EVERY: Duration = Duration::from_secs(2);

#[derive(Debug, Default, Clone, PartialEq)]
pub struct WalletFilter {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub chains: Vec<String>,
    pub rdns: Vec<String>,
    /// Lower-cased search text.
    pub search: Option<String>,
    pub badge_type: Option<String>,
}

impl WalletFilter {
    fn is_empty(&self) -> bool {
        *self == WalletFilter::default()
    }
}

struct Entry {
    wallet: Wallet,
    /// The wallet's JSON, `image_url` included.
    json: Box<str>,
    /// Lower-case name and rdns.
    search_text: Box<str>,
    badge_type: Box<str>,
}

/// One consistent version of the directory.
pub struct Snapshot {
    version: i64,
    /// In list order (order, then lower-case name, then id).
    entries: Vec<Entry>,
    by_id: HashMap<Box<str>, usize>,
    /// Trigram of `search_text` -> the entries holding it, ascending.
    trigrams: HashMap<[u8; 3], Vec<u32>>,
    /// Unfiltered pages of DEFAULT_ENTRIES, whole responses.
    default_pages: Vec<Bytes>,
}

impl Snapshot {
    pub fn version(&self) -> i64 {
        self.version
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn build(version: i64, rows: Vec<(Wallet, String, String)>, public_url: &str) -> Snapshot {
        let entries: Vec<Entry> = rows
            .into_iter()
            .map(|(mut wallet, search_text, badge_type)| {
                wallet.image_url = format!("{public_url}/getWalletImage/{}", wallet.image_id);
                let json = serde_json::to_string(&wallet).expect("a wallet serialises").into_boxed_str();
                Entry { wallet, json, search_text: search_text.into_boxed_str(), badge_type: badge_type.into_boxed_str() }
            })
            .collect();
        let by_id = entries.iter().enumerate().map(|(i, e)| (e.wallet.id.clone().into_boxed_str(), i)).collect();
        let mut trigrams: HashMap<[u8; 3], Vec<u32>> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            for gram in e.search_text.as_bytes().windows(3) {
                let list = trigrams.entry([gram[0], gram[1], gram[2]]).or_default();
                if list.last() != Some(&(i as u32)) {
                    list.push(i as u32);
                }
            }
        }
        let mut snapshot = Snapshot { version, entries, by_id, trigrams, default_pages: Vec::new() };
        let all: Vec<usize> = (0..snapshot.entries.len()).collect();
        snapshot.default_pages = all.chunks(DEFAULT_ENTRIES as usize).map(|page| snapshot.response(all.len(), page.iter().copied())).collect();
        snapshot
    }

    /// `{"count":N,"data":[...]}` from the entries' JSON, without serialising anything again.
    fn response(&self, count: usize, page: impl Iterator<Item = usize>) -> Bytes {
        let mut out = String::with_capacity(64 + DEFAULT_ENTRIES as usize * 600);
        out.push_str("{\"count\":");
        out.push_str(&count.to_string());
        out.push_str(",\"data\":[");
        for (n, i) in page.enumerate() {
            if n > 0 {
                out.push(',');
            }
            out.push_str(&self.entries[i].json);
        }
        out.push_str("]}");
        Bytes::from(out)
    }

    /// The entries that may hold `search` (all of them for searches shorter than a trigram).
    fn candidates(&self, search: &str) -> Vec<usize> {
        let grams = search.as_bytes().windows(3);
        if search.len() < 3 {
            return (0..self.entries.len()).collect();
        }
        // The rarest trigram of the search bounds the work; every match holds all of them.
        let rarest = grams.map(|g| self.trigrams.get(&[g[0], g[1], g[2]]).map_or(&[][..], Vec::as_slice)).min_by_key(|l| l.len()).unwrap_or(&[]);
        rarest.iter().map(|&i| i as usize).collect()
    }

    fn matches(&self, e: &Entry, f: &WalletFilter) -> bool {
        let id = e.wallet.id.as_str();
        (f.include.is_empty() || f.include.iter().any(|i| i == id))
            && !f.exclude.iter().any(|x| x == id)
            && (f.chains.is_empty() || e.wallet.chains.iter().any(|c| f.chains.contains(c)))
            && (f.rdns.is_empty() || e.wallet.rdns.as_ref().is_some_and(|r| f.rdns.contains(r)))
            && f.search.as_deref().is_none_or(|s| e.search_text.contains(s))
            && f.badge_type.as_deref().is_none_or(|b| &*e.badge_type == b)
    }

    /// One page (1-based) of the wallets matching `filter`, as the response body.
    pub fn page(&self, filter: &WalletFilter, page: u32, entries: u32) -> Bytes {
        if filter.is_empty() && entries == DEFAULT_ENTRIES {
            if let Some(whole) = self.default_pages.get(page as usize - 1) {
                return whole.clone();
            }
        }
        let candidates: Vec<usize> = match (&filter.search, filter.include.is_empty()) {
            (Some(search), _) => self.candidates(search),
            (None, false) => {
                let mut ids: Vec<usize> = filter.include.iter().filter_map(|id| self.by_id.get(id.as_str()).copied()).collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            }
            (None, true) => (0..self.entries.len()).collect(),
        };
        let mut matching: Vec<usize> = candidates.into_iter().filter(|&i| self.matches(&self.entries[i], filter)).collect();
        if filter.search.is_some() {
            matching.truncate(SEARCH_LIMIT);
        }
        let start = (page as usize - 1).saturating_mul(entries as usize);
        let shown = matching.iter().copied().skip(start).take(entries as usize);
        self.response(matching.len(), shown)
    }
}

/// The served snapshot, swapped whole when the directory changes.
pub struct Directory {
    current: ArcSwap<Snapshot>,
    public_url: String,
}

impl Directory {
    /// An empty directory whose first refresh loads the database's.
    pub fn new(public_url: &str) -> Directory {
        let empty = Snapshot::build(-1, Vec::new(), public_url);
        Directory { current: ArcSwap::from_pointee(empty), public_url: public_url.to_owned() }
    }

    pub fn current(&self) -> arc_swap::Guard<Arc<Snapshot>> {
        self.current.load()
    }

    /// Rebuilds the snapshot if the database's directory version moved; true when it did.
    pub async fn refresh(&self, db: &Db) -> Result<bool, sqlx::Error> {
        if version(db).await? == self.current.load().version {
            return Ok(false);
        }
        self.current.store(Arc::new(read(db, &self.public_url).await?));
        Ok(true)
    }

    /// Checks the version every CHECK_EVERY until aborted.
    pub fn spawn_refresh(self: &Arc<Self>, db: Db) -> tokio::task::JoinHandle<()> {
        let directory = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(CHECK_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(directory) = directory.upgrade() else { return };
                match directory.refresh(&db).await {
                    Ok(true) => tracing::info!(version = directory.current().version, wallets = directory.current().len(), "wallet directory reloaded"),
                    Ok(false) => {}
                    Err(e) => tracing::warn!(error = %e, "checking the wallet directory's version failed"),
                }
            }
        })
    }
}

async fn version(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM directory_meta WHERE id = 1").fetch_optional(db).await.map(Option::unwrap_or_default)
}

/// The whole directory at one version. The version is read first: a change committed while
/// the rows are read is seen again on the next check.
async fn read(db: &Db, public_url: &str) -> Result<Snapshot, sqlx::Error> {
    let version = version(db).await?;
    let rows = sqlx::query("SELECT doc, search_text, badge_type FROM wallets ORDER BY position, id").fetch_all(db).await?;
    let rows = rows
        .iter()
        .map(|r| {
            let wallet: Wallet = serde_json::from_str(&r.try_get::<String, _>("doc")?).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
            Ok((wallet, r.try_get("search_text")?, r.try_get("badge_type")?))
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(Snapshot::build(version, rows, public_url))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wallet(id: &str, name: &str, rdns: Option<&str>, chains: &[&str]) -> (Wallet, String, String) {
        let w = Wallet {
            id: id.into(),
            name: name.into(),
            image_id: format!("img-{id}"),
            image_url: String::new(),
            rdns: rdns.map(Into::into),
            homepage: None,
            mobile_link: None,
            desktop_link: None,
            webapp_link: None,
            app_store: None,
            play_store: None,
            chrome_store: None,
            injected: vec![],
            chains: chains.iter().map(|c| c.to_string()).collect(),
            order: None,
        };
        let search = format!("{} {}", name, rdns.unwrap_or("")).to_lowercase();
        (w, search, "none".into())
    }

    fn ids(body: &Bytes) -> (u64, Vec<String>) {
        let v: serde_json::Value = serde_json::from_slice(body).unwrap();
        (v["count"].as_u64().unwrap(), v["data"].as_array().unwrap().iter().map(|w| w["id"].as_str().unwrap().to_owned()).collect())
    }

    fn snapshot(n: usize) -> Snapshot {
        let mut rows =
            vec![wallet("a", "MetaMask", Some("io.metamask"), &["eip155:1"]), wallet("b", "Phantom", Some("app.phantom"), &["solana:x", "eip155:1"])];
        rows.extend((0..n).map(|i| wallet(&format!("w{i:03}"), &format!("Wallet {i}"), None, &["eip155:10"])));
        Snapshot::build(7, rows, "http://h")
    }

    #[test]
    fn pages_and_whole_pages_agree_with_the_serialised_form() {
        let s = snapshot(100);
        let (count, first) = ids(&s.page(&WalletFilter::default(), 1, DEFAULT_ENTRIES));
        assert_eq!((count, first.len(), first[0].as_str()), (102, 40, "a"));
        // The kept page is what serde would write for the same wallets.
        let v: serde_json::Value = serde_json::from_slice(&s.page(&WalletFilter::default(), 3, 40)).unwrap();
        let expected: Vec<Wallet> = s.entries[80..].iter().map(|e| e.wallet.clone()).collect();
        assert_eq!(v, serde_json::json!({"count": 102, "data": expected}));
        assert_eq!(v["data"][0]["image_url"], "http://h/getWalletImage/img-w078");
        assert_eq!(ids(&s.page(&WalletFilter::default(), 4, 40)), (102, vec![]));
        assert_eq!(ids(&s.page(&WalletFilter::default(), 2, 100)).1, ["w098", "w099"]);
    }

    #[test]
    fn filters_and_search() {
        let s = snapshot(120);
        let f = |f: WalletFilter| ids(&s.page(&f, 1, 100));
        assert_eq!(f(WalletFilter { include: vec!["b".into(), "a".into(), "zz".into()], ..Default::default() }), (2, vec!["a".into(), "b".into()]));
        assert_eq!(f(WalletFilter { exclude: vec!["a".into()], ..Default::default() }).0, 121);
        assert_eq!(f(WalletFilter { chains: vec!["solana:x".into()], ..Default::default() }), (1, vec!["b".into()]));
        assert_eq!(f(WalletFilter { rdns: vec!["io.metamask".into()], ..Default::default() }), (1, vec!["a".into()]));
        assert_eq!(f(WalletFilter { search: Some("metamask".into()), ..Default::default() }), (1, vec!["a".into()]));
        assert_eq!(f(WalletFilter { search: Some("app.ph".into()), ..Default::default() }), (1, vec!["b".into()]));
        // Short searches scan; long ones use the index; both agree, and results stop at 100.
        assert_eq!(f(WalletFilter { search: Some("a".into()), ..Default::default() }).0, 100);
        assert_eq!(f(WalletFilter { search: Some("wallet 1".into()), ..Default::default() }).0, 31);
        assert_eq!(f(WalletFilter { search: Some("zzz".into()), ..Default::default() }), (0, vec![]));
        assert_eq!(f(WalletFilter { badge_type: Some("certified".into()), ..Default::default() }).0, 0);
    }
}
