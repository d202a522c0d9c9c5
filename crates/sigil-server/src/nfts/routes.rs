//! GET /v1/account/{address}/nfts: what an account holds now on one EVM chain, newest first,
//! 50 a page behind an opaque cursor, each with its metadata; GET
//! /v1/nft/image/{chainId}/{contract}/{tokenId}: a token's image through this server.

use std::sync::Arc;
use std::time::Instant;

use alloy_primitives::U256;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use base64::Engine;
use serde::{Deserialize, Serialize};
use sigil_core::caip::ChainId;
use sigil_core::evm::checksummed;
use utoipa::{IntoParams, ToSchema};

use super::{store, Image, Standard, IMAGE_FETCHES_PER_MINUTE};
use crate::directory::images::not_modified;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::extract::Query;
use crate::families::Family;
use crate::guards::{ClientAddr, UpstreamBudget};
use crate::limits::EventKind;
use crate::paging;
use crate::projects::Project;
use crate::query::text;
use crate::AppState;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NftsQuery {
    /// CAIP-2 chain id; a chain whose history is not indexed (any but an EVM chain's) gives an empty list.
    #[serde(rename = "chainId")]
    #[param(rename = "chainId", required = true)]
    pub chain_id: Option<String>,
    /// The `next` of the previous page.
    pub cursor: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NftsResponse {
    pub data: Vec<Nft>,
    /// The cursor of the next page; null on the last.
    pub next: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Nft {
    /// chain:contract:tokenId, the contract in lower case: eip155:1:0xabc...:42
    pub id: String,
    pub chain: String,
    /// EIP-55.
    pub contract: String,
    /// Decimal.
    pub token_id: String,
    /// erc721 or erc1155.
    pub standard: &'static str,
    /// How many the account holds (ERC-721: 1), decimal.
    pub amount: String,
    /// The metadata's name, else the collection's name and `#id`.
    pub name: String,
    pub description: Option<String>,
    /// A path on this server (relative to its base) serving the image; null when the token has
    /// none, or its metadata is not fetched yet.
    pub image: Option<String>,
    pub collection: Collection,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Collection {
    /// The contract's `name()`; "" when it has none (ERC-1155 contracts often do not).
    pub name: String,
    pub symbol: String,
}

/// The opaque cursor: where the last item of the page was acquired (block, transaction
/// index, seq).
fn encode_cursor((block, index, seq): (i64, i64, i64)) -> String {
    paging::encode(&format!("{block}.{index}.{seq}"))
}

fn decode_cursor(cursor: &str) -> Option<(i64, i64, i64)> {
    let text = paging::decode(cursor)?;
    let mut parts = text.split('.');
    let (block, index, seq) = (paging::number(parts.next()?)?, paging::number(parts.next()?)?, parts.next()?);
    // seq is -1 for a transaction's own value, never an NFT; still parsed as the indexer stores it.
    let seq = seq.strip_prefix('-').map_or_else(|| paging::number(seq), |s| paging::number(s).map(|n| -n))?;
    parts.next().is_none().then_some((block, index, seq))
}

/// A `chainId` parameter, checked, with its family when it is a known namespace.
fn chain_param(chain_id: &str, param: &str) -> ApiResult<(ChainId, Option<Family>)> {
    let parsed: ChainId = chain_id.parse().map_err(|e| ApiError::invalid_param(param, e))?;
    let family = parsed.known_namespace().and_then(Family::of_namespace);
    Ok((parsed, family))
}

/// The NFTs an account holds now on one EVM chain (ERC-721 and ERC-1155, from Sigil's history
/// index), newest first, up to 50 a page, with their metadata and an image path on this server.
/// A page's missing metadata is fetched within the project's upstream budget (one call a
/// token); what it does not cover shows the collection's name and no image until a later page.
#[utoipa::path(get, path = "/v1/account/{address}/nfts", tag = "blockchain",
    params(("address" = String, Path, description = "The account's address (EVM: 40 hex, optional 0x, any case)"), NftsQuery, crate::query::ProjectQuery),
    responses((status = 200, body = NftsResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn nfts(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    _: UpstreamBudget,
    Path(address): Path<String>,
    Query(query): Query<NftsQuery>,
) -> ApiResult<Json<NftsResponse>> {
    let chain_id = text(&query.chain_id).ok_or_else(|| ApiError::invalid_param("chainId", "required, e.g. eip155:1"))?;
    let (chain_id, family) = chain_param(chain_id, "chainId")?;
    let owner = match family {
        Some(family) => family.check_address(&address).map_err(|expected| ApiError::invalid_param("address", format!("expected {expected}")))?,
        None => address.clone(),
    };
    let before = text(&query.cursor).map(|c| decode_cursor(c).ok_or_else(|| ApiError::invalid_param("cursor", "not a cursor this server gave"))).transpose()?;
    // Only EVM chains' transfers are indexed: any other chain holds nothing here.
    let chain = state.rpc.chains().get(&chain_id.to_string()).filter(|c| crate::history::is_indexed(c) && state.config.settings.history.enabled);
    let Some(chain) = chain.filter(|_| family == Some(Family::Evm)) else {
        return Ok(Json(NftsResponse { data: Vec::new(), next: None }));
    };
    let (held, next) = super::holdings(&state.db, &chain.id, &owner, before).await?;
    let next = next.map(encode_cursor);
    let mut contracts: Vec<String> = held.iter().map(|h| h.contract.clone()).collect();
    contracts.sort();
    contracts.dedup();
    let collections: std::collections::HashMap<String, (String, String)> =
        store::collections(&state.db, &chain.id, &contracts).await?.into_iter().map(|(a, n, s)| (a, (n, s))).collect();
    let wanted: Vec<(String, String, Option<Standard>)> = held.iter().map(|h| (h.contract.clone(), h.token_id.clone(), Some(h.standard))).collect();
    let charge = |calls: usize| state.rpc.limiter.take(&project.id, calls, Instant::now()).is_ok();
    let metadata = state.nfts.metadata(&state.db, &state.rpc, &chain.id, &wanted, charge).await?;
    let data = held
        .into_iter()
        .map(|h| {
            let (collection_name, symbol) =
                chain.token(&h.contract).map(|t| (t.name.clone(), t.symbol.clone())).or_else(|| collections.get(&h.contract).cloned()).unwrap_or_default();
            let meta = metadata.get(&(h.contract.clone(), h.token_id.clone()));
            let contract = checksummed(&h.contract);
            let fallback = if collection_name.is_empty() { format!("#{}", h.token_id) } else { format!("{collection_name} #{}", h.token_id) };
            Nft {
                id: format!("{}:{}:{}", chain.id, h.contract, h.token_id),
                chain: chain.id.clone(),
                name: meta.and_then(|m| m.name.clone()).unwrap_or(fallback),
                description: meta.and_then(|m| m.description.clone()),
                image: meta.and_then(|m| m.image_uri.as_ref()).map(|_| format!("/v1/nft/image/{}/{contract}/{}", chain.id, h.token_id)),
                contract,
                standard: h.standard.as_str(),
                amount: h.amount.to_string(),
                token_id: h.token_id,
                collection: Collection { name: collection_name, symbol },
            }
        })
        .collect();
    Ok(Json(NftsResponse { data, next }))
}

/// Served images are kept a day by caches; a failure a few minutes (the server keeps it as long).
const CACHE_CONTROL: &str = "public, max-age=86400";
const ERROR_CACHE_CONTROL: &str = "public, max-age=300";
/// Nothing in a served image runs (SVG is drawn to PNG; this holds if one is opened on its own).
const IMAGE_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/// A token's image, fetched and kept by this server: PNG, JPEG, GIF or WebP as its metadata
/// gives it, SVG drawn to PNG. Public like the directory's images (no project id needed); only
/// for tokens the history index has seen moving (404 otherwise, nothing fetched), and a client
/// may make `IMAGE_FETCHES_PER_MINUTE` requests a minute that fetch (answers kept are free).
#[utoipa::path(get, path = "/v1/nft/image/{chainId}/{contract}/{tokenId}", tag = "blockchain",
    params(("chainId" = String, Path, description = "CAIP-2 id of an EVM chain"), ("contract" = String, Path, description = "The token contract (0x and 40 hex)"),
        ("tokenId" = String, Path, description = "The token id, decimal")),
    responses((status = 200, description = "The image", content_type = "image/*"), (status = 304, description = "Not modified"),
        (status = 400, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody, description = "No such chain, a token the index has not seen, or no image"),
        (status = 429, body = crate::error::ErrorBody), (status = 502, body = crate::error::ErrorBody)))]
pub async fn nft_image(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    Path((chain_id, contract, token_id)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (parsed, family) = chain_param(&chain_id, "chainId")?;
    let contract = sigil_core::evm::parse_address(&contract)
        .map(|a| format!("{a:#x}"))
        .ok_or_else(|| ApiError::invalid_param("contract", "expected 0x and 40 hex digits"))?;
    let id = (!token_id.is_empty() && token_id.len() <= 78 && token_id.bytes().all(|b| b.is_ascii_digit()))
        .then(|| U256::from_str_radix(&token_id, 10).ok())
        .flatten()
        .ok_or_else(|| ApiError::invalid_param("tokenId", "expected a decimal token id"))?;
    let Some(chain) = state.rpc.chains().get(&parsed.to_string()).filter(|_| family == Some(Family::Evm)) else {
        return Err(ApiError::not_found(format!("No EVM chain {chain_id} on this server")));
    };
    let charge = || state.limiter.check("nft-image", client, EventKind::Any, IMAGE_FETCHES_PER_MINUTE, Instant::now());
    match state.nfts.image(&state.db, &state.rpc, &chain.id, &contract, &id.to_string(), charge).await? {
        Image::Ready(image) => {
            let mut res = if not_modified(&headers, &image.etag) {
                StatusCode::NOT_MODIFIED.into_response()
            } else {
                let bytes = base64::engine::general_purpose::STANDARD.decode(&image.data).map_err(ApiError::internal)?;
                let mut res = Response::new(Body::from(bytes));
                res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_str(&image.content_type).map_err(ApiError::internal)?);
                res
            };
            let h = res.headers_mut();
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL));
            h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(IMAGE_POLICY));
            h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
            if let Ok(v) = HeaderValue::from_str(&image.etag) {
                h.insert(header::ETAG, v);
            }
            Ok(res)
        }
        Image::None => Err(ApiError::not_found("This token has no image")),
        Image::NotIndexed => Err(ApiError::not_found(format!("No token {contract} #{id} in this server's index of {}", chain.id))),
        Image::Busy(wait) => Err(ApiError::too_many_requests(wait)),
        Image::Failed(why) => {
            let mut res = ApiError::new(StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, why).into_response();
            res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(ERROR_CACHE_CONTROL));
            Ok(res)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_anything_else() {
        assert_eq!(decode_cursor(&encode_cursor((12, 3, 4097))), Some((12, 3, 4097)));
        assert_eq!(decode_cursor(&encode_cursor((12, 3, -1))), Some((12, 3, -1)));
        for bad in ["", "abc", "MTIz", "MS4yLjMuNA", "LTEuMi4z", "MS4rMi4z"] {
            assert_eq!(decode_cursor(bad), None, "{bad}");
        }
    }
}
