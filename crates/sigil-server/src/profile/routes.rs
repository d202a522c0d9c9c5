//! The four `/v1/profile/*` endpoints of spec section 7, in AppKit's shapes: register a name,
//! read one, the names of an address, and suggestions. Refusals carry the spec's message for
//! the call and `reasons: [{field, description}]`, whose first description the modal shows.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sigil_core::caip::is_evm_address;
use sigil_core::siwx;
use utoipa::{IntoParams, ToSchema};

use super::store::{self, NameRow, Registered};
use super::{chain_of_coin_type, check_label, MAX_ATTRIBUTES, MAX_ATTRIBUTE_KEY_LEN, MAX_ATTRIBUTE_VALUE_LEN, SUGGESTIONS};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::extract::Query;
use crate::guards::{UpstreamBudget, WriteBudget};
use crate::projects::Project;
use crate::query::text;
use crate::rpc::calls;
use crate::rpc::jsonrpc::Reply;
use crate::AppState;

/// Spec section 8's messages.
pub const ERROR_RESOLVING: &str = "Error resolving name";
pub const ERROR_SUGGESTIONS: &str = "Error fetching name suggestions";
pub const ERROR_REVERSE: &str = "Error fetching names for address";

/// 'Error registering name {name}'.
pub fn error_registering(name: &str) -> String {
    format!("Error registering name {name}").trim_end().to_owned()
}

/// A refusal with the spec's `message` and one reason.
fn refused(status: StatusCode, code: ErrorCode, message: impl Into<String>, field: &str, description: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message).with_reason(field, description)
}

fn now_secs() -> i64 {
    crate::db::now_ms() / 1000
}

/// POST /v1/profile/account's body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RegisterRequest {
    /// ENSIP-11 coin type of the chain the name gives an address for: 60 (Ethereum) or
    /// 0x80000000 | chainId, as a number.
    pub coin_type: Value,
    /// The EVM address that signed.
    pub address: String,
    /// JSON `{"name": "alice.sigil.id", "attributes": {}, "timestamp": <unix seconds>}`, as signed.
    pub message: String,
    /// The personal_sign (EIP-191) signature of `message` by `address`, 0x-hex.
    pub signature: String,
}

/// The signed message.
#[derive(Debug, Deserialize)]
struct SignedMessage {
    name: String,
    #[serde(default)]
    attributes: Option<serde_json::Map<String, Value>>,
    timestamp: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RegisterResponse {
    pub success: bool,
    /// The name registered, normalised.
    pub name: String,
}

/// Registers an account name for the address that signed the message.
#[utoipa::path(post, path = "/v1/profile/account", tag = "blockchain",
    params(crate::query::ProjectQuery), request_body = RegisterRequest,
    responses((status = 200, body = RegisterResponse),
        (status = 400, body = crate::error::ErrorBody, description = "Bad input: the message, the name's rules, the coin type, a stale timestamp"),
        (status = 401, body = crate::error::ErrorBody, description = "The signature is not the address's"),
        (status = 409, body = crate::error::ErrorBody, description = "The name is taken, or the address has its names in the zone"),
        (status = 503, body = crate::error::ErrorBody, description = "The chain of a contract account's check is down")))]
pub async fn register(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    _: WriteBudget,
    body: Bytes,
) -> ApiResult<Json<RegisterResponse>> {
    let bad = |name: &str, field: &str, why: String| refused(StatusCode::BAD_REQUEST, ErrorCode::InvalidParameter, error_registering(name), field, why);
    let req: RegisterRequest = serde_json::from_slice(&body).map_err(|e| {
        let why = format!("Invalid request body: {}", crate::error::describe_json_error(&e));
        refused(StatusCode::BAD_REQUEST, ErrorCode::InvalidBody, error_registering(""), "body", why)
    })?;
    // The message first: its name is the one every refusal names.
    let message: SignedMessage = serde_json::from_str(&req.message)
        .map_err(|e| bad("", "message", format!("The message must be JSON with name, attributes and timestamp: {}", crate::error::describe_json_error(&e))))?;
    let shown = message.name.trim();
    let profile = &state.profile;
    let name = profile.parse_name(shown).map_err(|why| bad(shown, "name", why))?;
    let attributes = check_attributes(message.attributes).map_err(|why| bad(&name.full, "attributes", why))?;

    let coin_type = req.coin_type.as_u64().or_else(|| req.coin_type.as_str().and_then(|s| s.trim().parse().ok()));
    let chain = coin_type.and_then(chain_of_coin_type).ok_or_else(|| bad(&name.full, "coin_type", "Invalid chainId".to_owned()))?;
    let chain_id = format!("eip155:{chain}");
    if state.rpc.chains().get(&chain_id).is_none() {
        return Err(bad(&name.full, "coin_type", format!("Network not supported: {chain_id} is not a configured chain")));
    }
    let coin_type = u32::try_from(coin_type.unwrap_or_default()).unwrap_or_default();
    if !is_evm_address(&req.address) {
        return Err(bad(&name.full, "address", "The address must be an EVM address (0x and 40 hex digits)".to_owned()));
    }
    let address = calls::normalize(&req.address);

    let now = now_secs();
    let window = profile.timestamp_window.as_secs() as i64;
    if message.timestamp.abs_diff(now) > window as u64 {
        return Err(bad(
            &name.full,
            "timestamp",
            format!("The message's timestamp {} is more than {window} seconds from the server's time {now}; check the device's clock", message.timestamp),
        ));
    }
    verify_signature(&state, &project, &chain_id, &address, &req.message, &req.signature).await.map_err(|e| match e {
        Refusal::Malformed(why) => refused(StatusCode::BAD_REQUEST, ErrorCode::InvalidSignature, error_registering(&name.full), "signature", why),
        Refusal::Invalid => refused(
            StatusCode::UNAUTHORIZED,
            ErrorCode::InvalidSignature,
            error_registering(&name.full),
            "signature",
            "Invalid signature: the message was not signed by the address",
        ),
        Refusal::Other(e) => e,
    })?;

    let row = NameRow {
        name: name.full.clone(),
        zone: name.zone.clone(),
        coin_type,
        address,
        attributes: Value::Object(attributes).to_string(),
        registered_at: now,
        updated_at: now,
    };
    match store::register(&state.db, &row, profile.per_address).await? {
        Registered::Stored => {
            // The gateway's kept answers may say this name (or this address's reverse) is empty.
            profile.answers.clear();
            Ok(Json(RegisterResponse { success: true, name: name.full }))
        }
        Registered::Taken => {
            Err(refused(StatusCode::CONFLICT, ErrorCode::NameTaken, error_registering(&name.full), "name", format!("{} is already registered", name.full)))
        }
        Registered::LimitReached => {
            let n = profile.per_address;
            let names = if n == 1 { "a name".to_owned() } else { format!("{n} names") };
            Err(refused(
                StatusCode::CONFLICT,
                ErrorCode::NameLimitReached,
                error_registering(&name.full),
                "address",
                format!("This address already has {names} in {}", name.zone),
            ))
        }
    }
}

/// Text records: an object of strings, a few, short.
fn check_attributes(given: Option<serde_json::Map<String, Value>>) -> Result<serde_json::Map<String, Value>, String> {
    let given = given.unwrap_or_default();
    if given.len() > MAX_ATTRIBUTES {
        return Err(format!("At most {MAX_ATTRIBUTES} attributes"));
    }
    for (key, value) in &given {
        let key_ok = !key.is_empty() && key.len() <= MAX_ATTRIBUTE_KEY_LEN && key.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !key_ok {
            return Err(format!("The attribute '{key}' must be 1 to {MAX_ATTRIBUTE_KEY_LEN} letters, digits, '.', '_' or '-'"));
        }
        match value.as_str() {
            Some(v) if v.chars().count() <= MAX_ATTRIBUTE_VALUE_LEN => {}
            _ => return Err(format!("The attribute '{key}' must be text of at most {MAX_ATTRIBUTE_VALUE_LEN} characters")),
        }
    }
    Ok(given)
}

enum Refusal {
    /// Not a signature at all (its wording).
    Malformed(String),
    /// Not the address's.
    Invalid,
    /// The chain did not answer, the budget ran out.
    Other(ApiError),
}

/// ecrecover first; when the key is not the address's, the address may be a contract
/// account: EIP-1271 `isValidSignature` on the chain, through the proxy.
async fn verify_signature(state: &AppState, project: &Project, chain: &str, address: &str, message: &str, signature: &str) -> Result<(), Refusal> {
    let sig = siwx::decode_hex(signature.trim()).map_err(|_| Refusal::Malformed("The signature must be 0x-hex".to_owned()))?;
    if sig.is_empty() {
        return Err(Refusal::Malformed("The signature is empty".to_owned()));
    }
    if let Ok(signer) = sigil_core::evm::recover_personal_sign(message.as_bytes(), &sig) {
        if format!("{signer:#x}") == address {
            return Ok(());
        }
    }
    UpstreamBudget::take(state, project, 1).map_err(Refusal::Other)?;
    let call = calls::eth_call(address, &siwx::eip1271_call_data(siwx::eip191_hash(message), &sig));
    let reply = state.rpc.call(chain, &call.method, call.params.as_deref()).await.map_err(|f| Refusal::Other(crate::rpc::upstream_error(f)))?;
    match reply {
        Reply::Result(raw) if serde_json::from_str::<String>(&raw).is_ok_and(|r| siwx::is_eip1271_magic(&r)) => Ok(()),
        _ => Err(Refusal::Invalid),
    }
}

/// An address a name gives one coin type.
#[derive(Debug, Serialize, ToSchema)]
pub struct NameAddress {
    /// EIP-55.
    pub address: String,
    /// Unix seconds.
    pub created: i64,
}

/// A registered name (AppKit's apiVersion 2 shape).
#[derive(Debug, Serialize, ToSchema)]
pub struct NameRecord {
    pub name: String,
    /// Unix seconds.
    pub registered: i64,
    pub updated: i64,
    /// By coin type as a decimal string: only the one it was registered for.
    pub addresses: BTreeMap<String, NameAddress>,
    /// Text records.
    #[schema(value_type = Object)]
    pub attributes: Value,
}

impl From<NameRow> for NameRecord {
    fn from(row: NameRow) -> NameRecord {
        let address = sigil_core::evm::checksummed(&row.address);
        NameRecord {
            name: row.name,
            registered: row.registered_at,
            updated: row.updated_at,
            addresses: BTreeMap::from([(row.coin_type.to_string(), NameAddress { address, created: row.registered_at })]),
            attributes: serde_json::from_str(&row.attributes).unwrap_or_else(|_| Value::Object(Default::default())),
        }
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VersionQuery {
    /// The shape asked for: 2 (the only one).
    #[serde(rename = "apiVersion")]
    #[param(rename = "apiVersion")]
    pub api_version: Option<String>,
    /// The connected account asking (EVM address); checked when given.
    pub sender: Option<String>,
}

/// A registered name's record.
#[utoipa::path(get, path = "/v1/profile/account/{name}", tag = "blockchain",
    params(("name" = String, Path, description = "The whole name, e.g. alice.sigil.id"), VersionQuery, crate::query::ProjectQuery),
    responses((status = 200, body = NameRecord), (status = 400, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn account(State(state): State<AppState>, Path(name): Path<String>, Query(_query): Query<VersionQuery>) -> ApiResult<Json<NameRecord>> {
    let name = state.profile.parse_name(&name).map_err(|why| refused(StatusCode::BAD_REQUEST, ErrorCode::InvalidParameter, ERROR_RESOLVING, "name", why))?;
    match store::by_name(&state.db, &name.full).await? {
        Some(row) => Ok(Json(row.into())),
        None => Err(refused(StatusCode::NOT_FOUND, ErrorCode::NotFound, ERROR_RESOLVING, "name", format!("{} is not registered", name.full))),
    }
}

/// The names giving an address an address, on any chain (oldest first; empty when none).
#[utoipa::path(get, path = "/v1/profile/reverse/{address}", tag = "blockchain",
    params(("address" = String, Path, description = "EVM address"), VersionQuery, crate::query::ProjectQuery),
    responses((status = 200, body = [NameRecord]), (status = 400, body = crate::error::ErrorBody)))]
pub async fn reverse(State(state): State<AppState>, Path(address): Path<String>, Query(query): Query<VersionQuery>) -> ApiResult<Json<Vec<NameRecord>>> {
    let evm = "an EVM address: 0x and 40 hex digits";
    if !is_evm_address(&address) {
        return Err(refused(StatusCode::BAD_REQUEST, ErrorCode::InvalidParameter, ERROR_REVERSE, "address", format!("The address must be {evm}")));
    }
    if let Some(sender) = text(&query.sender) {
        if !is_evm_address(sender) {
            return Err(refused(StatusCode::BAD_REQUEST, ErrorCode::InvalidParameter, ERROR_REVERSE, "sender", format!("The sender must be {evm}")));
        }
    }
    let rows = store::by_address(&state.db, &calls::normalize(&address)).await?;
    Ok(Json(rows.into_iter().filter(|r| state.profile.zones.contains(&r.zone)).map(NameRecord::from).collect()))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SuggestionsQuery {
    /// A configured zone, e.g. sigil.id (default: the first).
    pub zone: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Suggestion {
    pub name: String,
    pub registered: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestionsResponse {
    /// The name asked for first (registered or not), then up to 5 free ones.
    pub suggestions: Vec<Suggestion>,
}

/// The name asked for with whether it is taken, then free names like it.
#[utoipa::path(get, path = "/v1/profile/suggestions/{name}", tag = "blockchain",
    params(("name" = String, Path, description = "A label (alice) or a whole name (alice.sigil.id)"), SuggestionsQuery, crate::query::ProjectQuery),
    responses((status = 200, body = SuggestionsResponse), (status = 400, body = crate::error::ErrorBody)))]
pub async fn suggestions(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(query): Query<SuggestionsQuery>,
) -> ApiResult<Json<SuggestionsResponse>> {
    let bad = |field: &str, why: String| refused(StatusCode::BAD_REQUEST, ErrorCode::InvalidParameter, ERROR_SUGGESTIONS, field, why);
    let zone = state.profile.zone(text(&query.zone)).map_err(|why| bad("zone", why))?;
    let raw = name.trim();
    let raw = raw.strip_suffix(&format!(".{zone}")).unwrap_or(raw);
    let label = sigil_core::ens::normalize(raw).ok_or_else(|| bad("name", format!("'{raw}' is not a valid name (ENSIP-15)")))?;
    check_label(&label).map_err(|why| bad("name", why))?;
    let exact = format!("{label}.{zone}");
    let mut asked = vec![exact.clone()];
    asked.extend(
        super::candidates(&label)
            .into_iter()
            .filter(|c| check_label(c).is_ok() && sigil_core::ens::normalize(c).as_ref() == Some(c))
            .map(|c| format!("{c}.{zone}")),
    );
    let taken = store::taken(&state.db, &asked).await?;
    let mut suggestions = vec![Suggestion { registered: taken.contains(&exact), name: exact }];
    suggestions.extend(asked.into_iter().skip(1).filter(|n| !taken.contains(n)).take(SUGGESTIONS).map(|name| Suggestion { name, registered: false }));
    Ok(Json(SuggestionsResponse { suggestions }))
}
