//! Image routes: wallet logos, network (asset), currency and token images. Real bytes where the
//! data has a logo (a wallet's logo file, or its icon from the set at import), the set's icon
//! for networks and tokens (`sigil_core::icons`), otherwise a generated SVG with initials; 404
//! for ids nobody knows. Cacheable, with ETags.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use sha2::{Digest, Sha256};
use sigil_core::{catalogue, icons, logo};

use super::store;
use crate::error::{ApiError, ApiResult};
use crate::AppState;

const CACHE_CONTROL: &str = "public, max-age=86400";
const SVG: &str = "image/svg+xml";

/// Whether If-None-Match names `etag` (or `*`); weak validators compare equal (the NFT
/// image route answers with it too).
pub(crate) fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    let Some(value) = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) else { return false };
    value.split(',').map(|t| t.trim().trim_start_matches("W/")).any(|t| t == "*" || t == etag)
}

fn image(headers: &HeaderMap, content_type: &str, bytes: Vec<u8>, etag: &str) -> Response {
    let mut res = if not_modified(headers, etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut res = Response::new(Body::from(bytes));
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap_or(HeaderValue::from_static("application/octet-stream")));
        res
    };
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL));
    // Public images any page may read: the AppKit client fetches network and connector images
    // as blobs from the site's origin.
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    if content_type.starts_with(SVG) {
        h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(SVG_POLICY));
    }
    res
}

/// An SVG is a document that could run script if opened on its own: this one may not.
const SVG_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

fn generated(headers: &HeaderMap, id: &str, label: &str) -> Response {
    let svg = logo::svg(id, label);
    let etag = format!("\"g-{}\"", &hex::encode(Sha256::digest(svg.as_bytes()))[..24]);
    image(headers, SVG, svg.into_bytes(), &etag)
}

/// An icon from the set (data/icons/NOTICE.md).
fn icon(headers: &HeaderMap, svg: &'static str) -> Response {
    let etag = format!("\"i-{}\"", &hex::encode(Sha256::digest(svg.as_bytes()))[..24]);
    image(headers, SVG, svg.as_bytes().to_vec(), &etag)
}

fn check_id(id: &str) -> ApiResult<()> {
    if id.is_empty() || id.len() > 128 || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_:.".contains(&b)) {
        return Err(ApiError::invalid_param("id", "expected up to 128 letters, digits, '-', '_', ':' or '.'"));
    }
    Ok(())
}

/// A wallet's logo, by its image id (or wallet id).
#[utoipa::path(get, path = "/getWalletImage/{id}", tag = "directory",
    params(("id" = String, Path, description = "image_id or wallet id")),
    responses((status = 200, description = "Logo bytes (JPEG/PNG/SVG: the directory's logo file or the icon set's) or a generated SVG", content_type = "image/*"),
        (status = 304, description = "Not modified"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn wallet_image(State(state): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult<Response> {
    check_id(&id)?;
    let row = store::logo(&state.db, &id).await?.ok_or_else(|| ApiError::not_found(format!("No wallet image with id {id}")))?;
    match row.logo {
        Some((content_type, data, etag)) => {
            let bytes = base64::engine::general_purpose::STANDARD.decode(data).map_err(ApiError::internal)?;
            Ok(image(&headers, &content_type, bytes, &etag))
        }
        None => Ok(generated(&headers, &row.id, &row.name)),
    }
}

fn catalogue_image(table: &[(&str, &str)], kind: &str, id: &str, headers: &HeaderMap, from_set: fn(&str) -> Option<&'static str>) -> ApiResult<Response> {
    check_id(id)?;
    if let Some(svg) = from_set(id) {
        return Ok(icon(headers, svg));
    }
    let label = catalogue::label(table, id).ok_or_else(|| ApiError::not_found(format!("No {kind} image with id {id}")))?;
    Ok(generated(headers, &id.to_ascii_uppercase(), label))
}

/// A network or namespace image, by CAIP-2 id (e.g. eip155:1), namespace or network name, or by
/// the image id the AppKit client gives a network or connector: the icon set's, else generated
/// initials.
#[utoipa::path(get, path = "/public/getAssetImage/{id}", tag = "directory",
    params(("id" = String, Path)),
    responses((status = 200, content_type = "image/svg+xml"), (status = 304), (status = 404, body = crate::error::ErrorBody)))]
pub async fn asset_image(Path(id): Path<String>, headers: HeaderMap) -> ApiResult<Response> {
    if let Some(appkit) = crate::appkit::ids::image_id(&id) {
        return Ok(appkit_image(&headers, appkit));
    }
    catalogue_image(catalogue::ASSETS, "asset", &id, &headers, icons::asset)
}

/// An image id of the AppKit client's networks and connectors: drawn as the network (by its
/// CAIP-2 id) or the wallet it stands for.
fn appkit_image(headers: &HeaderMap, image: &crate::appkit::ids::ImageId) -> Response {
    use crate::appkit::ids::Target;
    let (svg, seed) = match image.target {
        Target::Network(caip2) => (icons::asset(caip2), caip2.to_ascii_uppercase()),
        Target::Connector(wallet) => (wallet.and_then(icons::wallet_named), image.label.to_owned()),
    };
    match svg {
        Some(svg) => icon(headers, svg),
        None => generated(headers, &seed, image.label),
    }
}

/// A fiat currency image, by ISO 4217 code (e.g. USD).
#[utoipa::path(get, path = "/public/getCurrencyImage/{id}", tag = "directory",
    params(("id" = String, Path)),
    responses((status = 200, content_type = "image/svg+xml"), (status = 304), (status = 404, body = crate::error::ErrorBody)))]
pub async fn currency_image(Path(id): Path<String>, headers: HeaderMap) -> ApiResult<Response> {
    catalogue_image(catalogue::CURRENCIES, "currency", &id, &headers, |_| None)
}

/// A token image, by symbol (e.g. ETH) or contract/mint address: the icon set's, else generated
/// initials.
#[utoipa::path(get, path = "/public/getTokenImage/{id}", tag = "directory",
    params(("id" = String, Path)),
    responses((status = 200, content_type = "image/svg+xml"), (status = 304), (status = 404, body = crate::error::ErrorBody)))]
pub async fn token_image(Path(id): Path<String>, headers: HeaderMap) -> ApiResult<Response> {
    catalogue_image(catalogue::TOKENS, "token", &id, &headers, icons::token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_forms() {
        let mut h = HeaderMap::new();
        assert!(!not_modified(&h, "\"a\""));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"b\", W/\"a\""));
        assert!(not_modified(&h, "\"a\""));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"b\""));
        assert!(!not_modified(&h, "\"a\""));
    }
}
