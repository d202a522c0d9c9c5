//! GET /v1/identity/{address}: the ENS name and avatar of an address, by reverse resolution
//! through the JSON-RPC proxy on the chain that has a name registry (`Chains::ens_chain`).
//! A reverse record counts only if the name resolves forward to the same address (ENSIP-3).
//! Answers are cached 5 minutes; without a registry every answer is `{name: null, avatar: null}`.
//! An account name registered with this server (the profile area, `*.<zone>`) comes first, read
//! from the database on every call (so a new name shows at once): the one registered for the
//! coin type of `chainId` when it is given (ENSIP-19: a name is per chain), else the address's
//! first on any chain; its avatar is its `avatar` attribute.
//!
//! GET /v1/identity/resolve/{name}?chainId=eip155:N: the other way, the address a name gives
//! one chain (a send's receiver), for that chain's coin type only. On the registry's own chain
//! that is `addr(node)`: coin type 60 (ENSIP-1), which is the truth on Ethereum and, on a dev
//! chain whose registry lives there, the dev chain's convention. On any other EVM chain it is
//! `addr(node, 0x80000000 | chainId)` (ENSIP-11), else ENSIP-19's default EVM address
//! (`0x80000000`); never Ethereum's address for another chain. A name under one of the
//! account-name zones is answered from the database the same way: the address it was registered
//! for, only for that chain's coin type.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use sigil_core::caip::is_evm_address;
use sigil_core::ens;
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::extract::Query;
use crate::guards::UpstreamBudget;
use crate::query::text;
use crate::rpc::calls as evm;
use crate::rpc::jsonrpc::Reply;
use crate::rpc::upstream_error;
use crate::rpc::Rpc;
use crate::AppState;

/// Spec section 9: identity cache 5 min.
pub const IDENTITY_TTL: Duration = Duration::from_secs(300);
pub const CACHE_MAX: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Identity {
    /// The verified primary name, e.g. alice.eth.
    pub name: Option<String>,
    /// The name's avatar record when it is an http(s) URL or a data: image.
    pub avatar: Option<String>,
}

/// Identities by lower-case address.
pub type IdentityCache = crate::cache::TtlCache<String, Identity>;

#[derive(Debug, Default, serde::Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IdentityQuery {
    /// The connected account asking (EVM address); checked when given.
    pub sender: Option<String>,
    /// The EVM chain (`eip155:<id>`) whose account name is asked for; any chain's when absent.
    #[serde(rename = "chainId")]
    #[param(rename = "chainId")]
    pub chain_id: Option<String>,
}

/// Why a lookup could not be answered (never cached).
#[derive(Debug, thiserror::Error)]
enum LookupError {
    #[error("{0}")]
    Upstream(#[from] crate::rpc::Failure),
    #[error("The name registry's chain answered an error: {0}")]
    Node(String),
}

/// The ENS name and avatar of an EVM address.
#[utoipa::path(get, path = "/v1/identity/{address}", tag = "blockchain",
    params(("address" = String, Path, description = "EVM address (40 hex, optional 0x)"), IdentityQuery, crate::query::ProjectQuery),
    responses((status = 200, body = Identity), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 503, body = crate::error::ErrorBody, description = "The registry chain's upstreams are down")))]
pub async fn identity(
    State(state): State<AppState>,
    _: UpstreamBudget,
    Path(address): Path<String>,
    Query(query): Query<IdentityQuery>,
) -> ApiResult<Json<Identity>> {
    if !is_evm_address(&address) {
        return Err(ApiError::invalid_param("address", "expected an EVM address: 40 hex characters, optional 0x"));
    }
    if let Some(sender) = text(&query.sender) {
        if !is_evm_address(sender) {
            return Err(ApiError::invalid_param("sender", "expected an EVM address: 40 hex characters, optional 0x"));
        }
    }
    let coin_type = match text(&query.chain_id) {
        None => None,
        Some(chain) => {
            Some(chain_coin_type(chain).ok_or_else(|| ApiError::invalid_param("chainId", "expected an EVM chain: eip155:<id> with an id below 2^31"))?)
        }
    };
    let address = evm::normalize(&address);
    if let Some(found) = registered(&state, &address, coin_type).await? {
        return Ok(Json(found));
    }
    if let Some(hit) = state.identity_cache.get(&address) {
        return Ok(Json(hit));
    }
    let chains = state.rpc.chains();
    let registry = chains.ens_chain.as_deref().and_then(|id| chains.get(id)).and_then(|c| Some((c.id.clone(), c.ens_registry.clone()?)));
    let found = match registry {
        None => Identity { name: None, avatar: None },
        Some((chain, registry)) => lookup(&state.rpc, &chain, &registry, &address).await.map_err(|e| match e {
            LookupError::Upstream(f) => upstream_error(f),
            LookupError::Node(m) => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::UpstreamUnavailable, m),
        })?,
    };
    state.identity_cache.put(address, found.clone());
    Ok(Json(found))
}

/// The ENSIP-11 coin type of `eip155:<id>`.
fn chain_coin_type(chain: &str) -> Option<u32> {
    let id = chain.strip_prefix("eip155:")?.parse::<u64>().ok()?;
    ens::evm_coin_type(id).and_then(|c| u32::try_from(c).ok())
}

/// The account name registered with this server for `address`: for `coin_type` when given,
/// else its first on any chain.
async fn registered(state: &AppState, address: &str, coin_type: Option<u32>) -> ApiResult<Option<Identity>> {
    let zones = &state.profile.zones;
    let rows = crate::profile::store::by_address(&state.db, address).await?;
    let Some(row) = rows.into_iter().find(|r| zones.contains(&r.zone) && coin_type.is_none_or(|c| c == r.coin_type)) else {
        return Ok(None);
    };
    let attributes: serde_json::Value = serde_json::from_str(&row.attributes).unwrap_or_default();
    let avatar = attributes.get("avatar").and_then(|a| a.as_str()).and_then(ens::displayable_avatar);
    Ok(Some(Identity { name: Some(row.name), avatar }))
}

/// Reverse record, forward check, then the avatar text record.
async fn lookup(rpc: &Arc<Rpc>, chain: &str, registry: &str, address: &str) -> Result<Identity, LookupError> {
    let none = Identity { name: None, avatar: None };
    let reverse = ens::namehash(&ens::reverse_name(address));
    let Some(resolver) = read(rpc, chain, registry, &ens::resolver_call(&reverse)).await?.as_deref().and_then(ens::decode_address) else {
        return Ok(none);
    };
    let Some(name) = read(rpc, chain, &resolver, &ens::name_call(&reverse)).await?.as_deref().and_then(ens::decode_string) else {
        return Ok(none);
    };
    // Only a name already in its ENSIP-15 normal form is shown: a look-alike that normalises to
    // another name never stands for it.
    if !ens::is_plausible_name(&name) || ens::normalize(&name).as_deref() != Some(name.as_str()) {
        return Ok(none);
    }
    let node = ens::namehash(&name);
    let Some(forward) = read(rpc, chain, registry, &ens::resolver_call(&node)).await?.as_deref().and_then(ens::decode_address) else {
        return Ok(none);
    };
    let points_to = read(rpc, chain, &forward, &ens::addr_call(&node)).await?.as_deref().and_then(ens::decode_address);
    if points_to.as_deref() != Some(address) {
        return Ok(none);
    }
    let avatar =
        read(rpc, chain, &forward, &ens::text_call(&node, "avatar")).await?.as_deref().and_then(ens::decode_string).and_then(|v| ens::displayable_avatar(&v));
    Ok(Identity { name: Some(name), avatar })
}

/// One eth_call through the proxy: the hex answer, or None when the call reverted (no record:
/// a resolver without that function, or no contract at all).
async fn read(rpc: &Arc<Rpc>, chain: &str, to: &str, data: &str) -> Result<Option<String>, LookupError> {
    let call = evm::eth_call(to, data);
    match rpc.call(chain, &call.method, call.params.as_deref()).await? {
        reply @ Reply::Result(_) => Ok(evm::hex_result(&reply)),
        Reply::Error(e) if is_revert(&e) => Ok(None),
        Reply::Error(e) => Err(LookupError::Node(e)),
    }
}

/// EIP-1474 code 3 or a node's "execution reverted" message.
fn is_revert(error_json: &str) -> bool {
    let v: serde_json::Value = serde_json::from_str(error_json).unwrap_or_default();
    v["code"] == 3 || v["message"].as_str().is_some_and(|m| m.to_ascii_lowercase().contains("revert"))
}

/// The address a name gives a chain; null when it gives none.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Resolved {
    /// The name in its ENSIP-15 normal form.
    pub name: String,
    /// EIP-55 address for the chain's coin type, or null.
    pub address: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ResolveQuery {
    /// The CAIP-2 EVM chain the address is for (`eip155:<id>`); its coin type is the only one asked.
    #[serde(rename = "chainId")]
    pub chain_id: Option<String>,
}

/// The address an ENS name gives one EVM chain (forward resolution for a send's receiver).
#[utoipa::path(get, path = "/v1/identity/resolve/{name}", tag = "blockchain",
    params(("name" = String, Path, description = "An ENS name, e.g. alice.eth"), ResolveQuery, crate::query::ProjectQuery),
    responses((status = 200, body = Resolved), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 503, body = crate::error::ErrorBody, description = "The registry chain's upstreams are down")))]
pub async fn resolve(
    State(state): State<AppState>,
    _: UpstreamBudget,
    Path(name): Path<String>,
    Query(query): Query<ResolveQuery>,
) -> ApiResult<Json<Resolved>> {
    let Some(normal) = ens::normalize(name.trim()).filter(|n| ens::is_plausible_name(n)) else {
        return Err(ApiError::invalid_param("name", "expected an ENS name such as alice.eth"));
    };
    let chain_number = text(&query.chain_id).and_then(|c| c.strip_prefix("eip155:")).and_then(|n| n.parse::<u64>().ok());
    let Some(coin_type) = chain_number.and_then(ens::evm_coin_type) else {
        return Err(ApiError::invalid_param("chainId", "expected an EVM chain: eip155:<id> with an id below 2^31"));
    };
    // An account name of this server's zones: from the database, for its coin type only.
    if state.profile.zone_of(&normal).is_some() {
        let row = crate::profile::store::by_name(&state.db, &normal).await?;
        let address = row.filter(|r| u64::from(r.coin_type) == coin_type).map(|r| sigil_core::evm::checksummed(&r.address));
        return Ok(Json(Resolved { name: normal, address }));
    }
    let chains = state.rpc.chains();
    let registry = chains.ens_chain.as_deref().and_then(|id| chains.get(id)).and_then(|c| Some((c.id.clone(), c.ens_registry.clone()?)));
    let Some((chain, registry)) = registry else {
        return Ok(Json(Resolved { name: normal, address: None }));
    };
    // The registry's own chain answers with addr(node); another chain by its ENSIP-11 coin type.
    let own = chain_number.map(|n| format!("eip155:{n}")).as_deref() == Some(chain.as_str());
    let address = forward(&state.rpc, &chain, &registry, &normal, (!own).then_some(coin_type)).await.map_err(|e| match e {
        LookupError::Upstream(f) => upstream_error(f),
        LookupError::Node(m) => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::UpstreamUnavailable, m),
    })?;
    let address = address.as_deref().and_then(sigil_core::evm::parse_address).map(|a| a.to_checksum(None));
    Ok(Json(Resolved { name: normal, address }))
}

/// The name's resolver, then its address: `addr(node)` when `coin_type` is None, else
/// `addr(node, coin_type)` falling back to ENSIP-19's default EVM coin type.
async fn forward(rpc: &Arc<Rpc>, chain: &str, registry: &str, name: &str, coin_type: Option<u64>) -> Result<Option<String>, LookupError> {
    let node = ens::namehash(name);
    let Some(resolver) = read(rpc, chain, registry, &ens::resolver_call(&node)).await?.as_deref().and_then(ens::decode_address) else {
        return Ok(None);
    };
    let Some(coin_type) = coin_type else {
        return Ok(read(rpc, chain, &resolver, &ens::addr_call(&node)).await?.as_deref().and_then(ens::decode_address));
    };
    for coin in [coin_type, ens::DEFAULT_EVM_COIN_TYPE] {
        if let Some(found) = read(rpc, chain, &resolver, &ens::addr_for_coin_call(&node, coin)).await?.as_deref().and_then(ens::decode_coin_address) {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// The identity routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(identity)).routes(utoipa_axum::routes!(resolve))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverts_are_missing_records() {
        assert!(is_revert(r#"{"code":3,"message":"execution reverted","data":"0x"}"#));
        assert!(is_revert(r#"{"code":-32000,"message":"Execution Reverted"}"#));
        assert!(!is_revert(r#"{"code":-32603,"message":"Invalid response from upstream"}"#));
        assert!(!is_revert("garbage"));
    }
}
