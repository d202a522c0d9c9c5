//! The names' ERC-3668 (CCIP-read) gateway: `GET /v1/profile/gateway/{sender}/{data}` (`data`
//! 0x-hex, optionally with `.json`) and `POST /v1/profile/gateway` `{sender, data}`, outside the
//! project gate (any ENS client calls it). `data` is the `resolve(bytes name, bytes data)` call
//! an ENSIP-10 offchain resolver (`sender`) was asked; the answer is `{"data": "0x..."}` =
//! `abi.encode(bytes result, uint64 expires, bytes signature)`, signed with
//! `--names-signer-key` over sigil_core::ccip::digest, valid for `ANSWER_TTL`.
//!
//! Records, per chain (ENSIP-19): `addr(node)` is coin type 60's address only, `addr(node,
//! coinType)` the address registered for that coin type only; `text(node, key)` a text record;
//! `name(node)` on a reverse node (`<hex>.addr.reverse` for coin type 60,
//! `<hex>.<coin type hex>.reverse` for another chain) the address's first name registered for
//! that coin type. A name that is not registered, or outside the zones, gives the resolver's
//! empty answer (the zero address, empty bytes or string), not an error.

use alloy_primitives::{Address, B256};
use alloy_signer::SignerSync;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sigil_core::ccip::{self, Record, Request};
use sigil_core::ens;
use utoipa::ToSchema;

use super::store;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::AppState;

/// How long a signed answer is valid.
pub const ANSWER_TTL: u64 = 300;

/// What a CCIP-read client posts.
#[derive(Debug, Deserialize, ToSchema)]
pub struct GatewayRequest {
    /// The resolver that raised OffchainLookup.
    pub sender: String,
    /// Its callData: `resolve(bytes,bytes)`, 0x-hex.
    pub data: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GatewayAnswer {
    /// `abi.encode(bytes result, uint64 expires, bytes signature)`, 0x-hex.
    pub data: String,
}

/// A resolver's lookup, by URL (ERC-3668's GET form).
#[utoipa::path(get, path = "/v1/profile/gateway/{sender}/{data}", tag = "blockchain",
    params(("sender" = String, Path, description = "The resolver's address"), ("data" = String, Path, description = "resolve(bytes,bytes) call data, 0x-hex, optionally ending in .json")),
    responses((status = 200, body = GatewayAnswer), (status = 400, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody, description = "No signer key is configured")))]
pub async fn lookup_get(State(state): State<AppState>, Path((sender, data)): Path<(String, String)>) -> ApiResult<Json<GatewayAnswer>> {
    let data = data.strip_suffix(".json").unwrap_or(&data);
    answer(&state, &sender, data).await.map(Json)
}

/// A resolver's lookup, posted (ERC-3668's POST form).
#[utoipa::path(post, path = "/v1/profile/gateway", tag = "blockchain", request_body = GatewayRequest,
    responses((status = 200, body = GatewayAnswer), (status = 400, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody, description = "No signer key is configured")))]
pub async fn lookup_post(State(state): State<AppState>, crate::extract::Json(req): crate::extract::Json<GatewayRequest>) -> ApiResult<Json<GatewayAnswer>> {
    answer(&state, &req.sender, &req.data).await.map(Json)
}

/// A browser's preflight of the POST form: JSON bodies from any origin.
pub async fn preflight() -> impl axum::response::IntoResponse {
    (
        StatusCode::NO_CONTENT,
        [
            (axum::http::header::ACCESS_CONTROL_ALLOW_METHODS, "GET, POST"),
            (axum::http::header::ACCESS_CONTROL_ALLOW_HEADERS, "content-type"),
            (axum::http::header::ACCESS_CONTROL_MAX_AGE, "86400"),
        ],
    )
}

/// Every gateway answer, errors included, is readable from any origin: ENS clients run in pages.
pub async fn any_origin(mut res: axum::response::Response) -> axum::response::Response {
    res.headers_mut().insert(axum::http::header::ACCESS_CONTROL_ALLOW_ORIGIN, axum::http::HeaderValue::from_static("*"));
    res
}

/// The signed answer to `data` asked of `sender`.
pub async fn answer(state: &AppState, sender: &str, data: &str) -> ApiResult<GatewayAnswer> {
    let Some(signer) = state.profile.signer.as_ref() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Unavailable,
            "The names gateway is off: the server has no signer key (--names-signer-key)",
        ));
    };
    let resolver =
        sigil_core::evm::parse_address(sender).ok_or_else(|| ApiError::invalid_param("sender", "expected the resolver's address: 0x and 40 hex digits"))?;
    let digits = data.strip_prefix("0x").ok_or_else(|| ApiError::invalid_param("data", "expected 0x-hex call data"))?;
    let key = format!("{resolver:#x}/{}", digits.to_ascii_lowercase());
    if let Some(data) = state.profile.answers.get(key.as_str()) {
        return Ok(GatewayAnswer { data });
    }
    let request_bytes = hex::decode(digits).map_err(|_| ApiError::invalid_param("data", "expected 0x-hex call data"))?;
    let request = ccip::decode_request(&request_bytes).map_err(|e| ApiError::invalid_param("data", e))?;
    let result = result(state, &request).await?;
    let expires = (crate::db::now_ms() / 1000) as u64 + ANSWER_TTL;
    let digest = ccip::digest(resolver, expires, &request_bytes, &result);
    let signature = signer.sign_hash_sync(&digest).map_err(ApiError::internal)?;
    let answer = format!("0x{}", hex::encode(ccip::encode_answer(&result, expires, &signature.as_bytes())));
    state.profile.answers.put(key, answer.clone());
    Ok(GatewayAnswer { data: answer })
}

/// The inner call's ABI answer from the store.
async fn result(state: &AppState, request: &Request) -> ApiResult<Vec<u8>> {
    let empty = || ccip::encode_result(&request.record, None, None);
    let name = request.name.as_str();
    if ens::normalize(name).as_deref() != Some(name) {
        return Ok(empty());
    }
    if B256::from(ens::namehash(name)) != request.node {
        return Err(ApiError::invalid_param("data", "the inner call's node is not the name's namehash"));
    }
    let profile = &state.profile;
    if let Some((address, coin_type)) = reverse_node(name) {
        if request.record != Record::Name {
            return Ok(empty());
        }
        let primary = store::primary(&state.db, &address, coin_type, &profile.zones).await?;
        return Ok(ccip::encode_result(&request.record, None, primary.as_ref().map(|r| r.name.as_str())));
    }
    if profile.zone_of(name).is_none() {
        return Ok(empty());
    }
    let Some(row) = store::by_name(&state.db, name).await? else {
        return Ok(empty());
    };
    let address: Option<Address> = sigil_core::evm::parse_address(&row.address);
    Ok(match &request.record {
        Record::Addr => ccip::encode_result(&request.record, address.filter(|_| row.coin_type == 60), None),
        Record::AddrOf(coin) => ccip::encode_result(&request.record, address.filter(|_| *coin == alloy_primitives::U256::from(row.coin_type)), None),
        Record::Text(key) => {
            let attributes: Value = serde_json::from_str(&row.attributes).unwrap_or_default();
            ccip::encode_result(&request.record, None, attributes.get(key).and_then(Value::as_str))
        }
        Record::Name => empty(),
    })
}

/// The address (lower-case 0x) and coin type of a reverse name: `<hex>.addr.reverse` (60) or
/// ENSIP-19's `<hex>.<coin type in hex>.reverse`.
pub fn reverse_node(name: &str) -> Option<(String, u32)> {
    let mut labels = name.split('.');
    let (hex_address, namespace, root) = (labels.next()?, labels.next()?, labels.next()?);
    if labels.next().is_some() || root != "reverse" || hex_address.len() != 40 || !hex_address.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let coin_type = if namespace == "addr" { 60 } else { u32::from_str_radix(namespace, 16).ok().filter(|c| format!("{c:x}") == namespace)? };
    Some((format!("0x{}", hex_address.to_ascii_lowercase()), coin_type))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_names_per_ensip19() {
        let hex = "70997970c51812dc3a010c7d01b50e0d17dc79c8";
        assert_eq!(reverse_node(&format!("{hex}.addr.reverse")), Some((format!("0x{hex}"), 60)));
        assert_eq!(reverse_node(&format!("{hex}.80007a69.reverse")), Some((format!("0x{hex}"), 0x8000_7a69)));
        assert_eq!(reverse_node(&format!("{hex}.080007a69.reverse")), None);
        assert_eq!(reverse_node(&format!("{hex}.default.reverse")), None);
        assert_eq!(reverse_node("addr.reverse"), None);
        assert_eq!(reverse_node(&format!("{hex}.addr.reverse.eth")), None);
    }
}
