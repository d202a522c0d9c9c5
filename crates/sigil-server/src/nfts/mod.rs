//! NFTs: an account's ERC-721 and ERC-1155 holdings on an EVM chain, reduced from the history
//! index's transfers (GET /v1/account/{address}/nfts), with each token's metadata and image
//! fetched by this server (GET /v1/nft/image/{chainId}/{contract}/{tokenId}), never by the page.
//!
//! Metadata is read where the token says (`tokenURI(id)`, `uri(id)` with `{id}` as 64 hex
//! digits) through fetch.rs's guarded client, and kept in the database (store.rs) for the
//! configured time to live (a failure for `ERROR_TTL`), so a page of holdings asks no host
//! twice. A page fetches the metadata it is missing at request time, several at once, within
//! one deadline and the project's upstream budget (one call per token): a token whose metadata
//! is not there by then shows `<collection> #id` and no image, and is asked for again on the
//! next request. Images are fetched on their first request, only for tokens the history index
//! has seen moving, within a per-client budget of fetches per minute.

pub mod fetch;
pub mod images;
pub mod routes;
pub mod store;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::U256;
use futures::StreamExt;
use sigil_core::evm;
use tokio::sync::Semaphore;

pub use crate::config::NftSettings;
use crate::db::{self, Db};
use crate::rpc::{calls, Rpc};
use fetch::{FetchError, Want};
use store::{Candidate, ImageRow, ImageState, MetadataRow, NftTransfer};

/// A failed fetch is tried again after this (or the time to live, if shorter).
pub const ERROR_TTL: Duration = Duration::from_secs(300);
/// Metadata fetches of one page at once.
const PAGE_CONCURRENCY: usize = 8;
/// Fetches in flight in this process at most (pages and images together).
const MAX_FETCHES: usize = 32;
/// SVG drawings at once in this process at most (CPU work on the blocking threads).
const MAX_DRAWINGS: usize = 4;
/// Image requests that miss the cache (and so fetch metadata or an image), per client address
/// and minute.
pub const IMAGE_FETCHES_PER_MINUTE: u32 = 60;
/// Tokens per page of holdings.
pub const PAGE: usize = 50;
/// Candidates (tokens an address received) read at once, and reads per page at most: a page
/// judges at most `CANDIDATES * MAX_READS` tokens, and ends early (shorter, with a cursor) past
/// that, when most of what the address received it sent away again.
const CANDIDATES: usize = 200;
const MAX_READS: usize = 5;
/// ERC-1155 transfer rows read at once to add up the amounts of one read's candidates.
const MAX_ERC1155_ROWS: usize = 5000;
/// Name and description are kept this long at most (characters).
const MAX_NAME: usize = 200;
const MAX_DESCRIPTION: usize = 2000;

/// The holdings route, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::nfts))
}

/// The image route: public like the directory's images, so `image` loads as-is in any `<img>`.
pub fn image_router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::nft_image))
}

/// The area's service: its settings, the guarded HTTP client and the bound on fetches.
pub struct Nfts {
    pub settings: NftSettings,
    client: reqwest::Client,
    fetches: Semaphore,
    drawings: Arc<Semaphore>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Standard {
    Erc721,
    Erc1155,
}

impl Standard {
    pub fn as_str(self) -> &'static str {
        match self {
            Standard::Erc721 => "erc721",
            Standard::Erc1155 => "erc1155",
        }
    }
}

/// A token an address holds now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    pub standard: Standard,
    /// 0x, lower-case.
    pub contract: String,
    /// Decimal.
    pub token_id: String,
    pub amount: U256,
    /// Where the address last received it: (block, transaction index, seq).
    pub acquired: (i64, i64, i64),
}

/// How many of each ERC-1155 token (contract, id) `owner` holds after `transfers` (received
/// minus sent; none left out).
pub fn erc1155_amounts(owner: &str, transfers: &[NftTransfer]) -> HashMap<(String, String), U256> {
    let mut tallies: HashMap<(String, String), (U256, U256)> = HashMap::new();
    for t in transfers {
        let amount = U256::from_str_radix(&t.amount, 10).unwrap_or_default();
        let tally = tallies.entry((t.contract.clone(), t.token_id.clone())).or_default();
        if t.recipient == owner {
            tally.0 = tally.0.saturating_add(amount);
        }
        if t.sender == owner {
            tally.1 = tally.1.saturating_add(amount);
        }
    }
    tallies.into_iter().map(|(key, (received, sent))| (key, received.saturating_sub(sent))).collect()
}

/// One page of what `owner` holds now on `chain`, newest acquisition first, acquired before
/// `before`: up to `PAGE` holdings, and where the next page starts (None: this was the last).
/// ERC-721 holdings are decided in SQL (store::candidates); an ERC-1155 token's amount is added
/// up here from the address's transfers of it, bounded per read (erc1155_of).
pub async fn holdings(db: &Db, chain: &str, owner: &str, mut before: Option<(i64, i64, i64)>) -> Result<(Vec<Holding>, Option<(i64, i64, i64)>), sqlx::Error> {
    let mut held: Vec<Holding> = Vec::new();
    for _ in 0..MAX_READS {
        let candidates = store::candidates(db, chain, owner, before, CANDIDATES).await?;
        let mut last_read = candidates.len() < CANDIDATES;
        let (amounts, complete) = erc1155_of(db, chain, owner, &candidates).await?;
        for (i, c) in candidates.into_iter().enumerate() {
            let standard = if c.kind == "erc721" { Standard::Erc721 } else { Standard::Erc1155 };
            let key = (c.contract.clone(), c.token_id.clone());
            let amount = match standard {
                Standard::Erc721 => U256::from(1),
                // Its rows were cut by the read's bound: the next read starts with it.
                Standard::Erc1155 if !complete.contains(&key) && i > 0 => {
                    last_read = false;
                    break;
                }
                // Left out: the address moved it more than MAX_ERC1155_ROWS times.
                Standard::Erc1155 if !complete.contains(&key) => U256::ZERO,
                Standard::Erc1155 => amounts.get(&key).copied().unwrap_or_default(),
            };
            before = Some(c.acquired);
            if amount.is_zero() {
                continue;
            }
            held.push(Holding { standard, contract: c.contract, token_id: c.token_id, amount, acquired: c.acquired });
            if held.len() > PAGE {
                held.truncate(PAGE);
                let next = held[PAGE - 1].acquired;
                return Ok((held, Some(next)));
            }
        }
        if last_read {
            return Ok((held, None));
        }
    }
    // The bound of reads is spent: the page is shorter, and the next goes on from here.
    Ok((held, before))
}

/// The amounts `owner` holds of `candidates`' ERC-1155 tokens, and which of them were read
/// whole: one read of at most `MAX_ERC1155_ROWS` rows, token by token; when it is cut, the
/// token it was cut in and those after it are not whole.
async fn erc1155_of(
    db: &Db,
    chain: &str,
    owner: &str,
    candidates: &[Candidate],
) -> Result<(HashMap<(String, String), U256>, HashSet<(String, String)>), sqlx::Error> {
    let tokens: Vec<(String, String)> = candidates.iter().filter(|c| c.kind == "erc1155").map(|c| (c.contract.clone(), c.token_id.clone())).collect();
    let mut rows = store::erc1155_transfers(db, chain, owner, &tokens, MAX_ERC1155_ROWS + 1).await?;
    let cut = rows.len() > MAX_ERC1155_ROWS;
    rows.truncate(MAX_ERC1155_ROWS);
    let mut complete: HashSet<(String, String)> = rows.iter().map(|t| (t.contract.clone(), t.token_id.clone())).collect();
    if cut {
        if let Some(last) = rows.last() {
            complete.remove(&(last.contract.clone(), last.token_id.clone()));
        }
    }
    let mut amounts = erc1155_amounts(owner, &rows);
    // The newest candidate is read alone if the shared read did not hold it whole, so a page
    // always gets on.
    if let Some(first) = candidates.first().filter(|c| c.kind == "erc1155") {
        let key = (first.contract.clone(), first.token_id.clone());
        if !complete.contains(&key) {
            let alone = store::erc1155_transfers(db, chain, owner, std::slice::from_ref(&key), MAX_ERC1155_ROWS + 1).await?;
            if alone.len() <= MAX_ERC1155_ROWS {
                amounts.extend(erc1155_amounts(owner, &alone));
                complete.insert(key);
            }
        }
    }
    Ok((amounts, complete))
}

/// Text from metadata: control characters dropped, trimmed, at most `max` characters; None
/// when nothing is left.
fn clean(value: Option<&serde_json::Value>, max: usize) -> Option<String> {
    let text = match value? {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let text: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().chars().take(max).collect();
    (!text.is_empty()).then_some(text)
}

/// What this server reads of a metadata document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub name: Option<String>,
    pub description: Option<String>,
    /// The image's URI: `image`, else `image_url`, else the raw SVG of `image_data` as a data: URI.
    pub image: Option<String>,
}

/// A metadata document in OpenSea's shape, which ERC-721 and ERC-1155 metadata share.
pub fn parse_metadata(bytes: &[u8]) -> Result<Document, FetchError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|_| FetchError::BadJson)?;
    let object = value.as_object().ok_or(FetchError::BadJson)?;
    let name = clean(object.get("name"), MAX_NAME);
    let description = clean(object.get("description"), MAX_DESCRIPTION);
    let uri = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
    let image = uri("image").or_else(|| uri("image_url")).or_else(|| {
        use base64::Engine;
        uri("image_data")
            .filter(|s| s.starts_with('<'))
            .map(|svg| format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(svg)))
    });
    Ok(Document { name, description, image })
}

/// An ERC-1155 URI with its `{id}` filled in (64 lower-case hex digits).
pub fn fill_id(template: &str, token_id: &U256) -> String {
    template.replace("{id}", &format!("{token_id:064x}"))
}

impl Nfts {
    pub fn new(settings: &NftSettings) -> Nfts {
        Nfts {
            settings: settings.clone(),
            client: fetch::client(settings),
            fetches: Semaphore::new(MAX_FETCHES),
            drawings: Arc::new(Semaphore::new(MAX_DRAWINGS)),
        }
    }

    /// Whether a row fetched at `fetched_at` (with or without an error) is still good at `now`.
    fn fresh(&self, fetched_at: i64, failed: bool, now: i64) -> bool {
        let ttl = if failed { ERROR_TTL.min(self.settings.cache_ttl) } else { self.settings.cache_ttl };
        now - fetched_at < ttl.as_millis() as i64
    }

    /// Fetches `uri` with one of this process's fetch slots (held until the fetch ends).
    async fn fetch(&self, uri: &str, want: Want) -> Result<fetch::Fetched, FetchError> {
        let _slot = tokio::time::timeout(self.settings.fetch_timeout, self.fetches.acquire()).await.map_err(|_| FetchError::Timeout)?;
        fetch::fetch(&self.client, &self.settings, uri, want).await
    }

    /// The metadata URIs of `tokens` on chain (None: the call failed or the token has none);
    /// an ERC-721's `tokenURI`, an ERC-1155's `uri` with its id; where the standard is not
    /// known, both are asked and `tokenURI` wins.
    async fn token_uris(&self, rpc: &Rpc, chain: &str, tokens: &[(String, U256, Option<Standard>)]) -> Result<Vec<Option<String>>, crate::rpc::Failure> {
        let mut call_list = Vec::new();
        for (contract, id, standard) in tokens {
            if *standard != Some(Standard::Erc1155) {
                call_list.push(calls::eth_call(contract, &evm::call_data(&evm::tokenURICall { tokenId: *id })));
            }
            if *standard != Some(Standard::Erc721) {
                call_list.push(calls::eth_call(contract, &evm::call_data(&evm::uriCall { id: *id })));
            }
        }
        let mut results = calls::batch(rpc, chain, &call_list).await?.into_iter();
        let text = |r: Option<String>, f: fn(&str) -> Option<String>| r.as_deref().and_then(f).filter(|s| !s.trim().is_empty());
        let token_uri = |hex: &str| evm::decode_return::<evm::tokenURICall>(hex);
        let uri = |hex: &str| evm::decode_return::<evm::uriCall>(hex);
        Ok(tokens
            .iter()
            .map(|(_, id, standard)| {
                let a = (*standard != Some(Standard::Erc1155)).then(|| text(results.next().flatten(), token_uri)).flatten();
                let b = (*standard != Some(Standard::Erc721)).then(|| text(results.next().flatten(), uri)).flatten();
                a.or_else(|| b.map(|t| fill_id(&t, id)))
            })
            .collect())
    }

    /// The metadata of `tokens` (contract, decimal id, standard if known): from the cache where
    /// it is fresh, else fetched now (and stored) within one deadline, as many of the missing
    /// ones as `charge` grants the upstream calls of (one per token whose standard is known, two
    /// otherwise; asked for all, then half as many, ...). A token missing from the answer could
    /// not be had in time or within the budget.
    pub async fn metadata(
        &self,
        db: &Db,
        rpc: &Rpc,
        chain: &str,
        tokens: &[(String, String, Option<Standard>)],
        charge: impl Fn(usize) -> bool,
    ) -> Result<HashMap<(String, String), MetadataRow>, sqlx::Error> {
        let keys: Vec<(String, String)> = tokens.iter().map(|(c, id, _)| (c.clone(), id.clone())).collect();
        let now = db::now_ms();
        let mut known: HashMap<(String, String), MetadataRow> = HashMap::new();
        for chunk in keys.chunks(200) {
            known.extend(store::metadata(db, chain, chunk).await?.into_iter().map(|r| ((r.contract.clone(), r.token_id.clone()), r)));
        }
        let mut missing: Vec<(String, U256, Option<Standard>)> = tokens
            .iter()
            .filter(|(c, id, _)| !known.get(&(c.clone(), id.clone())).is_some_and(|r| self.fresh(r.fetched_at, r.error.is_some(), now)))
            .filter_map(|(c, id, s)| Some((c.clone(), U256::from_str_radix(id, 10).ok()?, *s)))
            .collect();
        let calls = |list: &[(String, U256, Option<Standard>)]| list.iter().map(|(_, _, s)| if s.is_some() { 1 } else { 2 }).sum::<usize>();
        while !missing.is_empty() && !charge(calls(&missing)) {
            missing.truncate(missing.len() / 2);
        }
        if missing.is_empty() {
            return Ok(known);
        }
        let uris = match self.token_uris(rpc, chain, &missing).await {
            Ok(uris) => uris,
            // The chain does not answer: what is cached (even stale) is all there is now.
            Err(_) => return Ok(known),
        };
        let deadline = tokio::time::Instant::now() + self.settings.fetch_timeout + Duration::from_secs(1);
        let fetches = futures::stream::iter(missing.into_iter().zip(uris))
            .map(|((contract, id, _), uri)| async move {
                let token_id = id.to_string();
                let mut row = MetadataRow { contract, token_id, fetched_at: db::now_ms(), ..Default::default() };
                let result = match uri {
                    None => Err("the contract gives this token no metadata URI".to_owned()),
                    Some(uri) => self.fetch(&uri, Want::Metadata).await.and_then(|f| parse_metadata(&f.bytes)).map_err(|e| e.to_string()),
                };
                match result {
                    Ok(document) => {
                        row.name = document.name;
                        row.description = document.description;
                        row.image_uri = document.image;
                    }
                    Err(e) => row.error = Some(e),
                }
                row
            })
            .buffer_unordered(PAGE_CONCURRENCY);
        let mut fetches = std::pin::pin!(fetches);
        while let Ok(Some(row)) = tokio::time::timeout_at(deadline, fetches.next()).await {
            let key = (row.contract.clone(), row.token_id.clone());
            // A refetch that failed keeps what an earlier one found, tried again after ERROR_TTL.
            let row = match known.get(&key) {
                Some(old) if row.error.is_some() && old.error.is_none() => {
                    MetadataRow { fetched_at: row.fetched_at - (self.settings.cache_ttl.saturating_sub(ERROR_TTL)).as_millis() as i64, ..old.clone() }
                }
                _ => row,
            };
            store::save_metadata(db, chain, &row).await?;
            known.insert(key, row);
        }
        Ok(known)
    }

    /// A token's image as served, fetched and stored on its first request (and again after the
    /// time to live), for a token the history index has seen moving. `charge` is asked once
    /// before anything is fetched (the caller's per-client budget): Err(seconds to wait) refuses.
    pub async fn image(
        &self,
        db: &Db,
        rpc: &Rpc,
        chain: &str,
        contract: &str,
        token_id: &str,
        charge: impl FnOnce() -> Result<(), u64>,
    ) -> Result<Image, sqlx::Error> {
        if !store::indexed(db, chain, contract, token_id).await? {
            return Ok(Image::NotIndexed);
        }
        let now = db::now_ms();
        let mut row = store::token(db, chain, contract, token_id).await?;
        let mut charge = Some(charge);
        let mut charged = || match charge.take() {
            Some(charge) => charge(),
            None => Ok(()),
        };
        if !row.as_ref().is_some_and(|r| self.fresh(r.fetched_at, r.error.is_some(), now)) {
            if let Err(wait) = charged() {
                return Ok(Image::Busy(wait));
            }
            self.metadata(db, rpc, chain, &[(contract.to_owned(), token_id.to_owned(), None)], |_| true).await?;
            row = store::token(db, chain, contract, token_id).await?;
        }
        let Some(row) = row else { return Ok(Image::Failed("the token's metadata could not be fetched in time".into())) };
        if let Some(error) = row.error {
            return Ok(Image::Failed(format!("the token's metadata could not be fetched: {error}")));
        }
        let Some(uri) = row.image_uri else { return Ok(Image::None) };
        if let Some(image) = row.image.filter(|i| self.fresh(i.fetched_at, matches!(i.state, ImageState::Failed(_)), now)) {
            return Ok(match image.state {
                ImageState::Ready { data, content_type, etag } => Image::Ready(images::Prepared { data, content_type, etag }),
                ImageState::Failed(why) => Image::Failed(why),
            });
        }
        if let Err(wait) = charged() {
            return Ok(Image::Busy(wait));
        }
        let prepared = match self.fetch(&uri, Want::Image).await {
            Ok(fetched) => images::prepare_blocking(fetched, self.drawings.clone(), self.settings.fetch_timeout).await,
            Err(e) => Err(e),
        };
        let state = match &prepared {
            Ok(p) => ImageState::Ready { data: p.data.clone(), content_type: p.content_type.clone(), etag: p.etag.clone() },
            Err(e) => ImageState::Failed(format!("the token's image could not be fetched: {e}")),
        };
        store::save_image(db, chain, contract, token_id, &ImageRow { state: state.clone(), fetched_at: db::now_ms() }).await?;
        Ok(match (state, prepared) {
            (_, Ok(p)) => Image::Ready(p),
            (ImageState::Failed(why), _) => Image::Failed(why),
            (_, Err(e)) => Image::Failed(e.to_string()),
        })
    }
}

/// What the image route answers for a token.
#[derive(Debug)]
pub enum Image {
    Ready(images::Prepared),
    /// The token's metadata has no image.
    None,
    /// Why it could not be had (kept a while).
    Failed(String),
    /// The history index has never seen the token move: nothing is fetched for it.
    NotIndexed,
    /// The client's budget of fetches is spent: the seconds to wait.
    Busy(u64),
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "0x00000000000000000000000000000000000000aa";
    const YOU: &str = "0x00000000000000000000000000000000000000bb";
    const ZERO: &str = "0x0000000000000000000000000000000000000000";

    fn t(id: &str, from: &str, to: &str, amount: &str) -> NftTransfer {
        NftTransfer { contract: "0xc".into(), token_id: id.into(), sender: from.into(), recipient: to.into(), amount: amount.into() }
    }

    #[test]
    fn erc1155_amounts_are_what_is_left() {
        let max = U256::MAX.to_string();
        let transfers = vec![
            t("7", ZERO, ME, "5"),
            t("7", ME, YOU, "2"),
            t("8", ZERO, ME, "1"),
            t("8", ME, YOU, "1"),
            t("9", ZERO, ME, &max),
            t("9", ME, YOU, "1"),
            t("10", YOU, ME, "3"),
            t("10", ME, ME, "3"),
        ];
        let mut held: Vec<(String, String)> = erc1155_amounts(ME, &transfers).into_iter().map(|((_, id), n)| (id, n.to_string())).collect();
        held.sort();
        let want = |id: &str, n: &str| (id.to_owned(), n.to_owned());
        assert_eq!(held, vec![want("10", "3"), want("7", "3"), want("8", "0"), want("9", &(U256::MAX - U256::from(1)).to_string())]);
    }

    #[test]
    fn metadata_documents() {
        let d = parse_metadata(br#"{"name":"Badge\n#1","description":"d","image":"ipfs://x/1.svg"}"#).unwrap();
        assert_eq!((d.name.as_deref(), d.description.as_deref(), d.image.as_deref()), (Some("Badge #1"), Some("d"), Some("ipfs://x/1.svg")));
        let d = parse_metadata(br#"{"image_data":"<svg/>"}"#).unwrap();
        assert_eq!(d.image.as_deref(), Some("data:image/svg+xml;base64,PHN2Zy8+"));
        assert_eq!(parse_metadata(b"[1]").unwrap_err(), FetchError::BadJson);
        assert_eq!(parse_metadata(b"<html>").unwrap_err(), FetchError::BadJson);
        assert_eq!(fill_id("ipfs://x/{id}.json", &U256::from(1)), format!("ipfs://x/{}1.json", "0".repeat(63)));
    }
}
