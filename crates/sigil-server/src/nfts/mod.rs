//! NFTs: an account's ERC-721 and ERC-1155 holdings on an EVM chain, reduced from the history
//! index's transfers (GET /v1/account/{address}/nfts), with each token's metadata and image
//! fetched by this server (GET /v1/nft/image/{chainId}/{contract}/{tokenId}), never by the page.
//!
//! Metadata is read where the token says (`tokenURI(id)`, `uri(id)` with `{id}` as 64 hex
//! digits) through fetch.rs's guarded client, and kept in the database (store.rs) for the
//! configured time to live (a failure for `ERROR_TTL`), so a page of holdings asks no host
//! twice. A page fetches the metadata it is missing at request time, several at once, within
//! one deadline: a token whose metadata is not there by then shows `<collection> #id` and no
//! image, and is asked for again on the next request. Images are fetched on their first request.

pub mod fetch;
pub mod images;
pub mod routes;
pub mod store;

use std::collections::HashMap;
use std::time::Duration;

use alloy_primitives::U256;
use futures::StreamExt;
use sigil_core::evm;
use tokio::sync::Semaphore;

pub use crate::config::NftSettings;
use crate::db::{self, Db};
use crate::rpc::{calls, Rpc};
use fetch::{FetchError, Want};
use store::{ImageRow, ImageState, MetadataRow, NftTransfer};

/// A failed fetch is tried again after this (or the time to live, if shorter).
pub const ERROR_TTL: Duration = Duration::from_secs(300);
/// Metadata fetches of one page at once.
const PAGE_CONCURRENCY: usize = 8;
/// Fetches in flight in this process at most (pages and images together).
const MAX_FETCHES: usize = 32;
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

/// What `owner` holds now, newest acquisition first: an ERC-721 token whose latest transfer is
/// to it, an ERC-1155 token of which it received more than it sent.
pub fn holdings(owner: &str, transfers: &[NftTransfer]) -> Vec<Holding> {
    #[derive(Default)]
    struct Tally {
        standard: Option<Standard>,
        last_to_owner: bool,
        received: U256,
        sent: U256,
        acquired: (i64, i64, i64),
    }
    let mut tallies: HashMap<(&str, &str), Tally> = HashMap::new();
    for t in transfers {
        let standard = match t.kind.as_str() {
            "erc721" => Standard::Erc721,
            "erc1155" => Standard::Erc1155,
            _ => continue,
        };
        let tally = tallies.entry((t.contract.as_str(), t.token_id.as_str())).or_default();
        tally.standard = Some(standard);
        let amount = U256::from_str_radix(&t.amount, 10).unwrap_or_default();
        tally.last_to_owner = t.recipient == owner;
        if t.recipient == owner {
            tally.received = tally.received.saturating_add(amount);
            tally.acquired = t.at;
        }
        if t.sender == owner {
            tally.sent = tally.sent.saturating_add(amount);
        }
    }
    let mut held: Vec<Holding> = tallies
        .into_iter()
        .filter_map(|((contract, token_id), t)| {
            let standard = t.standard?;
            let amount = match standard {
                Standard::Erc721 => t.last_to_owner.then_some(U256::from(1))?,
                Standard::Erc1155 => (t.received > t.sent).then(|| t.received - t.sent)?,
            };
            Some(Holding { standard, contract: contract.to_owned(), token_id: token_id.to_owned(), amount, acquired: t.acquired })
        })
        .collect();
    held.sort_by_key(|h| std::cmp::Reverse(h.acquired));
    held
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
        Nfts { settings: settings.clone(), client: fetch::client(settings), fetches: Semaphore::new(MAX_FETCHES) }
    }

    /// Whether a row fetched at `fetched_at` (with or without an error) is still good at `now`.
    fn fresh(&self, fetched_at: i64, failed: bool, now: i64) -> bool {
        let ttl = if failed { ERROR_TTL.min(self.settings.cache_ttl) } else { self.settings.cache_ttl };
        now - fetched_at < ttl.as_millis() as i64
    }

    /// Fetches `uri` with one of this process's fetch slots.
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
    /// it is fresh, else fetched now (and stored) within one deadline. A token missing from the
    /// answer could not be had in time.
    pub async fn metadata(
        &self,
        db: &Db,
        rpc: &Rpc,
        chain: &str,
        tokens: &[(String, String, Option<Standard>)],
    ) -> Result<HashMap<(String, String), MetadataRow>, sqlx::Error> {
        let keys: Vec<(String, String)> = tokens.iter().map(|(c, id, _)| (c.clone(), id.clone())).collect();
        let now = db::now_ms();
        let mut known: HashMap<(String, String), MetadataRow> = HashMap::new();
        for chunk in keys.chunks(200) {
            known.extend(store::metadata(db, chain, chunk).await?.into_iter().map(|r| ((r.contract.clone(), r.token_id.clone()), r)));
        }
        let missing: Vec<(String, U256, Option<Standard>)> = tokens
            .iter()
            .filter(|(c, id, _)| !known.get(&(c.clone(), id.clone())).is_some_and(|r| self.fresh(r.fetched_at, r.error.is_some(), now)))
            .filter_map(|(c, id, s)| Some((c.clone(), U256::from_str_radix(id, 10).ok()?, *s)))
            .collect();
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
    /// time to live): Ok(None) when the token has no image, Err with why it could not be had.
    pub async fn image(
        &self,
        db: &Db,
        rpc: &Rpc,
        chain: &str,
        contract: &str,
        token_id: &str,
    ) -> Result<Result<Option<images::Prepared>, String>, sqlx::Error> {
        let now = db::now_ms();
        let mut row = store::token(db, chain, contract, token_id).await?;
        if !row.as_ref().is_some_and(|r| self.fresh(r.fetched_at, r.error.is_some(), now)) {
            self.metadata(db, rpc, chain, &[(contract.to_owned(), token_id.to_owned(), None)]).await?;
            row = store::token(db, chain, contract, token_id).await?;
        }
        let Some(row) = row else { return Ok(Err("the token's metadata could not be fetched in time".into())) };
        if let Some(error) = row.error {
            return Ok(Err(format!("the token's metadata could not be fetched: {error}")));
        }
        let Some(uri) = row.image_uri else { return Ok(Ok(None)) };
        if let Some(image) = row.image.filter(|i| self.fresh(i.fetched_at, matches!(i.state, ImageState::Failed(_)), now)) {
            return Ok(match image.state {
                ImageState::Ready { data, content_type, etag } => Ok(Some(images::Prepared { data, content_type, etag })),
                ImageState::Failed(why) => Err(why),
            });
        }
        let prepared = match self.fetch(&uri, Want::Image).await {
            Ok(fetched) => images::prepare_blocking(fetched, self.settings.fetch_timeout).await,
            Err(e) => Err(e),
        };
        let state = match &prepared {
            Ok(p) => ImageState::Ready { data: p.data.clone(), content_type: p.content_type.clone(), etag: p.etag.clone() },
            Err(e) => ImageState::Failed(format!("the token's image could not be fetched: {e}")),
        };
        store::save_image(db, chain, contract, token_id, &ImageRow { state: state.clone(), fetched_at: db::now_ms() }).await?;
        Ok(match state {
            ImageState::Failed(why) => Err(why),
            ImageState::Ready { .. } => prepared.map(Some).map_err(|e| e.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "0x00000000000000000000000000000000000000aa";
    const YOU: &str = "0x00000000000000000000000000000000000000bb";
    const ZERO: &str = "0x0000000000000000000000000000000000000000";

    fn t(kind: &str, id: &str, from: &str, to: &str, amount: &str, block: i64) -> NftTransfer {
        NftTransfer {
            kind: kind.into(),
            contract: "0xc".into(),
            token_id: id.into(),
            sender: from.into(),
            recipient: to.into(),
            amount: amount.into(),
            at: (block, 0, 0),
        }
    }

    #[test]
    fn holdings_are_what_is_left() {
        let transfers = vec![
            t("erc721", "1", ZERO, ME, "1", 1),
            t("erc721", "2", ZERO, ME, "1", 2),
            t("erc1155", "7", ZERO, ME, "5", 3),
            t("erc721", "1", ME, YOU, "1", 4),
            t("erc1155", "7", ME, YOU, "2", 5),
            t("erc1155", "8", ZERO, ME, "1", 6),
            t("erc1155", "8", ME, YOU, "1", 7),
            t("erc721", "3", YOU, ME, "1", 8),
        ];
        let held: Vec<(String, String, (i64, i64, i64))> =
            holdings(ME, &transfers).into_iter().map(|h| (h.token_id, h.amount.to_string(), h.acquired)).collect();
        let want = |id: &str, amount: &str, block| (id.to_owned(), amount.to_owned(), (block, 0, 0));
        assert_eq!(held, vec![want("3", "1", 8), want("7", "3", 3), want("2", "1", 2)]);
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
