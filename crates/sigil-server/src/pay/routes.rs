//! The pay area's endpoints: `POST /v1/json-rpc` under the project gate (JSON-RPC 2.0, the
//! AppKit client's three exchange methods), and the sandbox exchange's page,
//! `GET` and `POST /pay/sandbox/{sessionId}`, outside it.
//!
//! Every parameter is checked and a bad one is a JSON-RPC error (`-32602`) whose message names
//! it; an unknown method `-32601`; a body that is not JSON `-32700`. Those answer with HTTP 200,
//! as JSON-RPC over HTTP does; the project gate's refusals keep their HTTP status and carry
//! `error.message` too.

use std::sync::Arc;

use alloy_primitives::U256;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Json};
use serde_json::{json, Map, Value};

use super::store::{self, PaySession};
use super::{fill, known_asset, parse_amount, parse_asset, AssetId, ASSET_SHAPE, PAGE_SIZE, SANDBOX_ID};
use crate::db::now_ms;
use crate::guards::{ClientAddr, UpstreamBudget};
use crate::onramp::sandbox::Asset;
use crate::projects::Project;
use crate::rpc::jsonrpc::Reply;
use crate::wallet::page::escape;
use crate::AppState;

/// A JSON-RPC error: its code and message.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
}

const INVALID_PARAMS: i64 = -32602;

fn invalid(name: &str, why: impl std::fmt::Display) -> RpcError {
    RpcError { code: INVALID_PARAMS, message: format!("Invalid parameter '{name}': {why}") }
}

fn internal(cause: impl std::fmt::Display) -> RpcError {
    tracing::error!(error = %cause, "pay request failed");
    RpcError { code: -32603, message: "Internal error; try again later".to_owned() }
}

fn answer(id: Value, outcome: Result<Value, RpcError>) -> Json<Value> {
    Json(match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.code, "message": e.message}}),
    })
}

/// The deposit methods of the AppKit client, as JSON-RPC 2.0: `reown_getExchanges` (params
/// `{page, includeOnly?, exclude?, asset?}`), `reown_getExchangePayUrl` (`{exchangeId, asset,
/// amount, recipient}`) and `reown_getExchangeBuyStatus` (`{sessionId, exchangeId}`).
#[utoipa::path(post, path = "/v1/json-rpc", tag = "blockchain",
    params(crate::query::ProjectQuery),
    request_body(content = Object, content_type = "application/json", description = "{jsonrpc: '2.0', id, method, params}"),
    responses((status = 200, description = "{jsonrpc, id, result} or {jsonrpc, id, error: {code, message}}", content_type = "application/json")))]
pub async fn json_rpc(State(state): State<AppState>, Extension(project): Extension<Arc<Project>>, ClientAddr(addr): ClientAddr, body: Bytes) -> Json<Value> {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(_) => return answer(Value::Null, Err(RpcError { code: -32700, message: "Parse error: the body is not JSON".to_owned() })),
    };
    let Value::Object(request) = request else {
        return answer(Value::Null, Err(RpcError { code: -32600, message: "Invalid request: expected one JSON-RPC request object".to_owned() }));
    };
    let id = match request.get("id") {
        Some(v @ (Value::String(_) | Value::Number(_) | Value::Null)) => v.clone(),
        None => Value::Null,
        Some(_) => return answer(Value::Null, Err(RpcError { code: -32600, message: "Invalid request: id must be a string or a number".to_owned() })),
    };
    let Some(method) = request.get("method").and_then(Value::as_str) else {
        return answer(id, Err(RpcError { code: -32600, message: "Invalid request: method is required".to_owned() }));
    };
    let empty = Map::new();
    let params = match request.get("params") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(p)) => p,
        Some(_) => return answer(id, Err(RpcError { code: INVALID_PARAMS, message: "Invalid params: expected an object".to_owned() })),
    };
    let outcome = match method {
        "reown_getExchanges" => exchanges(&state, params),
        "reown_getExchangePayUrl" => pay_url(&state, &project, addr, params).await,
        "reown_getExchangeBuyStatus" => buy_status(&state, &project, params).await,
        other => Err(RpcError { code: -32601, message: format!("Method not found: {}", other.chars().take(64).collect::<String>()) }),
    };
    answer(id, outcome)
}

/// A string parameter: None when absent or null.
fn opt_str<'a>(params: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, RpcError> {
    match params.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(invalid(name, "expected a string")),
    }
}

fn req_str<'a>(params: &'a Map<String, Value>, name: &str, example: &str) -> Result<&'a str, RpcError> {
    match opt_str(params, name)? {
        Some(s) if !s.trim().is_empty() => Ok(s.trim()),
        _ => Err(invalid(name, format!("required, e.g. {example}"))),
    }
}

/// A list of exchange ids (at most 100, each at most 64 characters).
fn id_list(params: &Map<String, Value>, name: &str) -> Result<Option<Vec<String>>, RpcError> {
    match params.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) if items.len() <= 100 => items
            .iter()
            .map(|v| match v.as_str() {
                Some(s) if s.len() <= 64 => Ok(s.to_owned()),
                _ => Err(invalid(name, "expected exchange ids (strings of at most 64 characters)")),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(invalid(name, "expected a list of at most 100 exchange ids")),
    }
}

fn exchanges(state: &AppState, params: &Map<String, Value>) -> Result<Value, RpcError> {
    let page = match params.get("page") {
        None | Some(Value::Null) => 0,
        Some(v) => v.as_u64().filter(|p| *p <= 10_000).ok_or_else(|| invalid("page", "expected a whole number from 0 (the first page)"))?,
    };
    let include = id_list(params, "includeOnly")?;
    let exclude = id_list(params, "exclude")?.unwrap_or_default();
    let asset = match opt_str(params, "asset")? {
        None => None,
        Some(a) => Some(parse_asset(a.trim()).map_err(|m| invalid("asset", m))?),
    };
    let listed: Vec<&super::Exchange> = state
        .pay
        .exchanges
        .iter()
        .filter(|e| include.as_ref().is_none_or(|only| only.contains(&e.id)))
        .filter(|e| !exclude.contains(&e.id))
        .filter(|e| asset.as_ref().is_none_or(|a| e.serves(a)))
        .collect();
    let total = listed.len();
    let start = (page as usize).saturating_mul(PAGE_SIZE);
    let exchanges: Vec<Value> = listed.into_iter().skip(start).take(PAGE_SIZE).map(|e| json!({"id": e.id, "imageUrl": e.image_url, "name": e.name})).collect();
    Ok(json!({"exchanges": exchanges, "total": total}))
}

/// The asset's chain and what it is there, or why not (the messages say "is not supported", which
/// the AppKit client shows as its unsupported-asset error).
fn checked_asset<'a>(state: &'a AppState, raw: &str) -> Result<(AssetId, &'a crate::chains::ChainConfig, super::KnownAsset), RpcError> {
    let asset = parse_asset(raw).map_err(|m| invalid("asset", m))?;
    let chain = state.config.chains.get(&asset.chain).ok_or_else(|| invalid("asset", format!("network {} is not supported by this server", asset.chain)))?;
    let known = known_asset(chain, &asset)
        .ok_or_else(|| invalid("asset", format!("{} is not supported on {} (not a token of its list)", asset.token.as_deref().unwrap_or(""), chain.name)))?;
    Ok((asset, chain, known))
}

/// An amount: a decimal string (a JSON number is read as written).
fn amount_param(params: &Map<String, Value>, decimals: u8) -> Result<(String, U256), RpcError> {
    let text = match params.get("amount") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        None | Some(Value::Null) => return Err(invalid("amount", "required, a decimal string such as \"0.05\"")),
        Some(_) => return Err(invalid("amount", "expected a decimal string such as \"0.05\"")),
    };
    parse_amount(&super::plain_decimal(&text), decimals).map_err(|m| invalid("amount", m))
}

/// The recipient: CAIP-10 on the asset's chain, an EVM address; checksummed.
fn recipient_param(params: &Map<String, Value>, chain: &str) -> Result<String, RpcError> {
    let raw = req_str(params, "recipient", "eip155:1:0x…")?;
    let account: sigil_core::caip::AccountId = raw.parse().map_err(|_| invalid("recipient", "expected a CAIP-10 account id such as eip155:1:0x…"))?;
    if account.chain.to_string() != chain {
        return Err(invalid("recipient", format!("must be on the asset's network {chain}")));
    }
    if !sigil_core::caip::is_evm_address(&account.address) || !account.address.starts_with("0x") {
        return Err(invalid("recipient", "expected an EVM address: 0x and 40 hex characters"));
    }
    Ok(sigil_core::evm::checksummed(&account.address))
}

/// The owner's balance of the asset now, through the chain's configured RPC: None when the
/// node did not answer.
async fn balance(state: &AppState, asset: &AssetId, owner: &str) -> Option<U256> {
    match &asset.token {
        None => {
            let params = json!([owner, "latest"]).to_string();
            match state.rpc.call(&asset.chain, "eth_getBalance", Some(&params)).await {
                Ok(Reply::Result(raw)) => serde_json::from_str::<String>(&raw).ok().as_deref().and_then(sigil_core::evm::quantity),
                _ => None,
            }
        }
        Some(token) => {
            let call = crate::rpc::calls::balance_of(token, owner)?;
            let replies = crate::rpc::calls::batch(&state.rpc, &asset.chain, &[call]).await.ok()?;
            replies.into_iter().next().flatten().as_deref().and_then(sigil_core::evm::quantity)
        }
    }
}

async fn pay_url(state: &AppState, project: &Project, addr: std::net::IpAddr, params: &Map<String, Value>) -> Result<Value, RpcError> {
    let exchange_id = req_str(params, "exchangeId", "an id from reown_getExchanges")?;
    let exchange =
        state.pay.exchange(exchange_id).ok_or_else(|| invalid("exchangeId", format!("no exchange '{}'", exchange_id.chars().take(64).collect::<String>())))?;
    let raw_asset = req_str(params, "asset", ASSET_SHAPE)?;
    let (asset, chain, known) = checked_asset(state, raw_asset)?;
    if !exchange.serves(&asset) {
        return Err(invalid("asset", format!("{} is not supported by {}", asset.caip19(), exchange.name)));
    }
    let (amount, units) = amount_param(params, known.decimals)?;
    let recipient = recipient_param(params, &asset.chain)?;

    let limit = state.config.settings.auth.writes_per_minute;
    if state.limiter.check(&project.id, addr, crate::limits::EventKind::Write, limit, std::time::Instant::now()).is_err() {
        return Err(RpcError { code: -32005, message: "Too many requests; try again in a minute".to_owned() });
    }
    let now = now_ms();
    if !store::take_quota(&state.db, &project.id, now / 3_600_000, state.pay.sessions_per_hour).await.map_err(internal)? {
        return Err(RpcError {
            code: -32005,
            message: format!("This project started its {} deposits of this hour; try again later", state.pay.sessions_per_hour),
        });
    }
    // One open session per recipient and asset: the older ones are closed before the start
    // balance is read, so a deposit that lands after that read counts for this session only.
    // A concurrent creation that inserted first makes the insert hit the unique index of
    // open sessions: closed again, read again, inserted once more.
    let mut session = PaySession {
        id: crate::onramp::new_session_id(),
        project_id: project.id.clone(),
        exchange_id: exchange.id.clone(),
        network: asset.chain.clone(),
        asset: asset.caip19(),
        amount: amount.clone(),
        amount_units: units.to_string(),
        recipient: recipient.clone(),
        start_balance: String::new(),
        status: store::IN_PROGRESS.to_owned(),
        deposit: None,
        tx_hash: None,
        created_at: now,
        expires_at: now + state.pay.session_ttl.as_millis() as i64,
        updated_at: now,
    };
    let mut attempt = 0;
    loop {
        PaySession::supersede(&state.db, &session.recipient, &session.asset, now_ms()).await.map_err(internal)?;
        let Some(start) = balance(state, &asset, &recipient).await else {
            return Err(RpcError { code: -32603, message: format!("{} is not answering now; try again later", chain.name) });
        };
        session.start_balance = start.to_string();
        match session.insert(&state.db).await {
            Ok(()) => break,
            Err(e) if store::is_unique_violation(&e) && attempt == 0 => attempt += 1,
            Err(e) if store::is_unique_violation(&e) => {
                return Err(RpcError { code: -32005, message: "A deposit to this address is already being started; try again".to_owned() });
            }
            Err(e) => return Err(internal(e)),
        }
    }
    let chain_id = asset.chain.trim_start_matches("eip155:");
    let url = fill(
        &exchange.url,
        &[
            ("address", &recipient),
            ("network", &asset.chain),
            ("chainId", chain_id),
            ("asset", &session.asset),
            ("amount", &amount),
            ("symbol", &known.symbol),
            ("sessionId", &session.id),
        ],
    );
    Ok(json!({"url": url, "sessionId": session.id}))
}

/// How long past its expiry a session whose sandbox transfer is being sent waits for its outcome.
const SENDING_GRACE: std::time::Duration = crate::onramp::sandbox::RECEIPT_WAIT.saturating_add(std::time::Duration::from_secs(10));

/// The status of a session, read from the chain when not final: SUCCESS once the recipient's
/// balance rose by the amount, FAILED once expired, cancelled or superseded (a newer session
/// for the same recipient and asset), else IN_PROGRESS (UNKNOWN when the chain's node does not
/// answer).
pub async fn status_of(state: &AppState, s: &PaySession) -> Result<(String, Option<String>), RpcError> {
    if s.status != store::IN_PROGRESS {
        return Ok((s.status.clone(), s.tx_hash.clone()));
    }
    let now = now_ms();
    if matches!(s.deposit.as_deref(), Some(store::CANCELLED | store::SEND_FAILED)) {
        return settle(state, s, store::FAILED, now).await;
    }
    // The sandbox records SENT once its transfer is mined and succeeded: the session succeeded,
    // whatever else moved the recipient's balance meanwhile.
    if s.deposit.as_deref() == Some(store::SENT) {
        return settle(state, s, store::SUCCESS, now).await;
    }
    // A transfer confirmed before the expiry and still being mined is not failed by the expiry:
    // its outcome decides, within the sandbox's wait for a receipt (and a margin) in case the
    // server stopped while sending.
    let sending = s.deposit.as_deref() == Some(store::SENDING) && now < s.expires_at + SENDING_GRACE.as_millis() as i64;
    let asset = parse_asset(&s.asset).map_err(internal)?;
    let (Ok(start), Ok(units)) = (U256::from_str_radix(&s.start_balance, 10), U256::from_str_radix(&s.amount_units, 10)) else {
        return Err(internal("a stored pay session is unreadable"));
    };
    match balance(state, &asset, &s.recipient).await {
        Some(now_balance) if now_balance >= start.saturating_add(units) => settle(state, s, store::SUCCESS, now).await,
        _ if now >= s.expires_at && !sending => settle(state, s, store::FAILED, now).await,
        Some(_) => Ok((store::IN_PROGRESS.to_owned(), None)),
        None => Ok(("UNKNOWN".to_owned(), None)),
    }
}

/// Records `status` as the session's final one, and answers what is stored then: `status` with
/// the transaction known by now (the sandbox may record it a moment after the balance shows
/// it), or what another request closed the session as first (superseded by a newer session,
/// cancelled, found final meanwhile): never a status the stored row does not have.
async fn settle(state: &AppState, s: &PaySession, status: &str, now: i64) -> Result<(String, Option<String>), RpcError> {
    PaySession::finish(&state.db, &s.id, status, now).await.map_err(internal)?;
    let stored = PaySession::get(&state.db, &s.id).await.map_err(internal)?.ok_or_else(|| internal("a pay session vanished"))?;
    Ok((stored.status, stored.tx_hash))
}

async fn buy_status(state: &AppState, project: &Project, params: &Map<String, Value>) -> Result<Value, RpcError> {
    let id = req_str(params, "sessionId", "the sessionId of reown_getExchangePayUrl")?;
    let exchange_id = req_str(params, "exchangeId", "an id from reown_getExchanges")?;
    if !crate::onramp::is_session_id(id) {
        return Err(invalid("sessionId", "expected a session id (32 hex characters)"));
    }
    let unknown = || invalid("sessionId", "no such deposit session for this exchange");
    let s = PaySession::get(&state.db, id).await.map_err(internal)?.ok_or_else(unknown)?;
    if s.project_id != project.id || s.exchange_id != exchange_id {
        return Err(unknown());
    }
    if s.status == store::IN_PROGRESS && UpstreamBudget::take(state, project, 1).is_err() {
        return Err(RpcError { code: -32005, message: "Too many requests; try again in a second".to_owned() });
    }
    let (status, tx) = status_of(state, &s).await?;
    let mut result = json!({"status": status});
    if let Some(tx) = tx {
        result["txHash"] = json!(tx);
    }
    Ok(result)
}

// The sandbox exchange's page.

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    crate::onramp::routes::sandbox_document(status, "Sigil sandbox exchange", title, body)
}

fn text_page(status: StatusCode, title: &str, text: &str) -> Response {
    page(status, title, &format!("<p>{}</p>", escape(text)))
}

async fn sandbox_session(state: &AppState, id: &str) -> Result<PaySession, Response> {
    let unknown = || text_page(StatusCode::NOT_FOUND, "Deposit not found", "This sandbox deposit does not exist.");
    if !crate::onramp::is_session_id(id) {
        return Err(unknown());
    }
    match PaySession::get(&state.db, id).await {
        Ok(Some(s)) if s.exchange_id == SANDBOX_ID => Ok(s),
        Ok(_) => Err(unknown()),
        Err(e) => {
            tracing::error!(error = %e, "pay session unreadable");
            Err(text_page(StatusCode::SERVICE_UNAVAILABLE, "Try again", "The sandbox cannot read this deposit now."))
        }
    }
}

/// The asset of a session as the sandbox sends it.
fn sandbox_asset(state: &AppState, s: &PaySession) -> Option<Asset> {
    let asset = parse_asset(&s.asset).ok()?;
    let chain = state.config.chains.get(&asset.chain)?;
    let known = known_asset(chain, &asset)?;
    Some(Asset { symbol: known.symbol, name: known.name, decimals: known.decimals, contract: asset.token.as_deref().map(sigil_core::evm::checksummed) })
}

/// The page for a session that cannot be confirmed any more.
fn settled_page(s: &PaySession, now: i64) -> Response {
    match s.deposit.as_deref() {
        Some(store::SENT) => page(
            StatusCode::CONFLICT,
            "This deposit was already sent",
            &format!("<dl><dt>Transaction</dt><dd>{}</dd></dl>", escape(s.tx_hash.as_deref().unwrap_or(""))),
        ),
        Some(store::SENDING) => text_page(StatusCode::CONFLICT, "This deposit was already sent", "The deposit is being sent."),
        Some(store::CANCELLED) => text_page(StatusCode::CONFLICT, "Deposit cancelled", "This deposit was cancelled."),
        Some(_) => text_page(StatusCode::CONFLICT, "Deposit failed", "This deposit could not be sent."),
        None if now >= s.expires_at || s.status == store::FAILED => {
            text_page(StatusCode::GONE, "This deposit has expired", "Start a new deposit from the wallet.")
        }
        None => text_page(StatusCode::CONFLICT, "Nothing to do", "This deposit is complete."),
    }
}

/// The sandbox exchange's deposit page: what is deposited, where, Confirm and Cancel.
#[utoipa::path(get, path = "/pay/sandbox/{sessionId}", tag = "blockchain",
    params(("sessionId" = String, Path, description = "A deposit session id of the sandbox exchange")),
    responses((status = 200, description = "The sandbox deposit page", content_type = "text/html"), (status = 404, description = "Unknown deposit", content_type = "text/html")))]
pub async fn sandbox_page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let s = match sandbox_session(&state, &id).await {
        Ok(s) => s,
        Err(page) => return page,
    };
    let now = now_ms();
    if s.deposit.is_some() || s.status != store::IN_PROGRESS || now >= s.expires_at {
        return settled_page(&s, now);
    }
    let network = state.config.chains.get(&s.network).map_or(s.network.clone(), |c| c.name.clone());
    let symbol = sandbox_asset(&state, &s).map_or_else(|| s.asset.clone(), |a| a.symbol);
    let body = format!(
        "<dl><dt>Deposit</dt><dd>{} {}</dd><dt>Network</dt><dd>{}</dd><dt>To</dt><dd>{}</dd></dl>\
         <form method=post action=\"/pay/sandbox/{}\"><button name=action value=confirm>Confirm deposit</button><button name=action value=cancel>Cancel</button></form>",
        escape(&s.amount),
        escape(&symbol),
        escape(&network),
        escape(&s.recipient),
        escape(&s.id),
    );
    page(StatusCode::OK, "Sigil sandbox exchange", &body)
}

#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
pub struct SandboxAction {
    /// confirm or cancel.
    pub action: String,
}

/// The sandbox deposit's buttons: `confirm` sends the amount to the recipient (once, however
/// many requests come) and waits for it to be mined; `cancel` ends the deposit as failed.
#[utoipa::path(post, path = "/pay/sandbox/{sessionId}", tag = "blockchain",
    params(("sessionId" = String, Path, description = "A deposit session id of the sandbox exchange")),
    request_body(content = SandboxAction, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "The outcome page", content_type = "text/html"), (status = 404, description = "Unknown deposit", content_type = "text/html")))]
pub async fn sandbox_action(State(state): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let s = match sandbox_session(&state, &id).await {
        Ok(s) => s,
        Err(page) => return page,
    };
    let action = serde_urlencoded::from_bytes::<SandboxAction>(&body).map(|a| a.action).unwrap_or_default();
    let step = match action.as_str() {
        "confirm" => store::SENDING,
        "cancel" => store::CANCELLED,
        _ => return text_page(StatusCode::BAD_REQUEST, "Unknown action", "Choose Confirm deposit or Cancel."),
    };
    let now = now_ms();
    match PaySession::claim_deposit(&state.db, &id, step, now).await {
        Ok(true) => {}
        Ok(false) => return settled_page(&PaySession::get(&state.db, &id).await.ok().flatten().unwrap_or(s), now),
        Err(e) => {
            tracing::error!(error = %e, "pay session not updated");
            return text_page(StatusCode::SERVICE_UNAVAILABLE, "Try again", "The sandbox cannot record this now.");
        }
    }
    if step == store::CANCELLED {
        if let Err(e) = PaySession::finish(&state.db, &id, store::FAILED, now).await {
            tracing::error!(error = %e, "pay session not updated");
        }
        return text_page(StatusCode::OK, "Deposit cancelled", "Nothing was sent. You can close this window.");
    }
    // The send and its outcome run as their own task: a request given up never leaves a
    // deposit sending with its transfer unrecorded.
    let task = {
        let state = state.clone();
        tokio::spawn(async move { send_and_record(&state, &s).await })
    };
    match task.await.unwrap_or_else(|_| Err("the sandbox failed while sending".to_owned())) {
        Ok(hash) => page(
            StatusCode::OK,
            "Deposit sent",
            &format!("<dl><dt>Transaction</dt><dd>{}</dd></dl><p>You can close this window and go back to the wallet.</p>", escape(&hash)),
        ),
        Err(why) => text_page(StatusCode::BAD_GATEWAY, "Deposit failed", &why),
    }
}

async fn send_and_record(state: &AppState, s: &PaySession) -> Result<String, String> {
    let outcome = match (&state.pay.sandbox, sandbox_asset(state, s), U256::from_str_radix(&s.amount_units, 10)) {
        (None, _, _) => Err("the sandbox exchange is off".to_owned()),
        (Some(sandbox), _, _) if sandbox.chain != s.network => Err("the sandbox exchange does not send on this network".to_owned()),
        (Some(sandbox), Some(asset), Ok(units)) => sandbox.send(&state.rpc, &asset, &s.recipient, units).await,
        _ => Err("the deposit is not readable".to_owned()),
    };
    let recorded = match &outcome {
        Ok(hash) => PaySession::deposit_done(&state.db, &s.id, store::SENT, Some(hash), now_ms()).await,
        Err(why) => {
            tracing::warn!(session = %s.id, reason = %why, "sandbox deposit failed");
            PaySession::deposit_done(&state.db, &s.id, store::SEND_FAILED, None, now_ms()).await
        }
    };
    if let Err(e) = recorded {
        tracing::error!(error = %e, "pay session outcome not stored");
    }
    outcome
}
