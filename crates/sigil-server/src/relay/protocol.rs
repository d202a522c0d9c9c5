//! The relay's JSON-RPC (WalletConnect `irn_*` and the `wc_*` session methods 2.21 clients
//! send): parameters as the clients send them, and error replies in the relay's format.
//! Unknown members are ignored: clients add fields (`prompt`, `tvf`, `correlationId`).

use serde::Deserialize;
use serde_json::value::RawValue;

/// Error codes and their message prefixes (the relay protocol's).
pub const AUTH: i64 = 3000;
pub const TOO_MANY_REQUESTS: i64 = 3001;
pub const PAYLOAD: i64 = -32600;
pub const HANDLER: i64 = -32000;
pub const INTERNAL: i64 = -32603;

/// Most items in one batch call.
pub const MAX_BATCH: usize = 500;
/// TTL range of a published message, seconds: the Sign protocol uses 30 s to 7 days; up to
/// 30 days is accepted.
pub const MIN_TTL: i64 = 30;
pub const MAX_TTL: i64 = 30 * 24 * 3600;
/// TTL and tags the relay assigns to the messages the session methods carry.
pub const SESSION_TTL: i64 = 300;
pub const TAG_SESSION_PROPOSE: i64 = 1100;
pub const TAG_SESSION_PROPOSE_RESPONSE: i64 = 1101;
pub const TAG_SESSION_SETTLE: i64 = 1102;

/// One frame from a client: a request, or the answer to a push (an ack).
#[derive(Deserialize)]
pub struct Incoming<'a> {
    #[serde(borrow)]
    pub id: Option<&'a RawValue>,
    pub method: Option<String>,
    #[serde(borrow)]
    pub params: Option<&'a RawValue>,
    #[serde(borrow)]
    pub result: Option<&'a RawValue>,
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
pub struct Topic {
    pub topic: String,
}

#[derive(Deserialize)]
pub struct Topics {
    pub topics: Vec<String>,
}

#[derive(Deserialize)]
pub struct Subscriptions {
    pub subscriptions: Vec<Topic>,
}

#[derive(Deserialize, Clone)]
pub struct Publish {
    pub topic: String,
    pub message: String,
    pub ttl: i64,
    #[serde(default)]
    pub tag: i64,
    /// Kept exactly: "" tells a wallet to skip Verify, absent sends it to ask elsewhere.
    pub attestation: Option<String>,
}

#[derive(Deserialize)]
pub struct Publishes {
    pub messages: Vec<Publish>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    pub topic: String,
    /// `messageId`; `message_id` is taken too.
    #[serde(alias = "message_id")]
    pub message_id: String,
}

#[derive(Deserialize)]
pub struct Receipts {
    pub receipts: Vec<Receipt>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProposeSession {
    pub pairing_topic: String,
    pub session_proposal: String,
    pub attestation: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApproveSession {
    pub session_topic: String,
    pub pairing_topic: String,
    pub session_proposal_response: String,
    pub session_settlement_request: String,
}

/// A request's failure: its code, message and the tag the relay protocol gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: &'static str,
}

impl RpcError {
    pub fn payload(data: &'static str, why: impl std::fmt::Display) -> RpcError {
        RpcError { code: PAYLOAD, message: format!("Invalid payload: {why}"), data }
    }

    pub fn handler(data: &'static str, why: impl std::fmt::Display) -> RpcError {
        RpcError { code: HANDLER, message: format!("Request handler error: {why}"), data }
    }

    pub fn too_many_requests() -> RpcError {
        RpcError {
            code: TOO_MANY_REQUESTS,
            message: "Too many requests: at most the relay's publishes per second on one connection".into(),
            data: "TooManyRequests",
        }
    }

    pub fn internal() -> RpcError {
        RpcError { code: INTERNAL, message: "Internal error: the mailbox is unavailable".into(), data: "StorageError" }
    }

    /// The error reply to request `id` (raw JSON).
    pub fn reply(&self, id: &str) -> String {
        let error = serde_json::json!({"code": self.code, "message": self.message, "data": self.data});
        format!(r#"{{"id":{id},"jsonrpc":"2.0","error":{error}}}"#)
    }
}

/// A successful reply to request `id` (raw JSON result).
pub fn result(id: &str, result: &str) -> String {
    format!(r#"{{"id":{id},"jsonrpc":"2.0","result":{result}}}"#)
}

/// Parameters of a method, or the error naming what is wrong with them.
pub fn params<'a, T: Deserialize<'a>>(raw: Option<&'a RawValue>) -> Result<T, RpcError> {
    let raw = raw.ok_or_else(|| RpcError::payload("InvalidParams", "params are required"))?;
    serde_json::from_str(raw.get()).map_err(|e| RpcError::payload("InvalidParams", crate::error::describe_json_error(&e)))
}

/// A topic is 32 bytes as 64 hex digits.
pub fn check_topic(topic: &str) -> Result<(), RpcError> {
    if topic.len() == 64 && topic.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err(RpcError::payload("InvalidTopic", format!("topic '{}' is not 64 hex digits", topic.chars().take(80).collect::<String>())))
    }
}

pub fn check_batch<T>(items: &[T]) -> Result<(), RpcError> {
    match items.len() {
        0 => Err(RpcError::payload("BatchEmpty", "the batch is empty")),
        n if n > MAX_BATCH => Err(RpcError::payload("BatchLimitExceeded", format!("a batch holds at most {MAX_BATCH} items, got {n}"))),
        _ => Ok(()),
    }
}

pub fn check_ttl(ttl: i64) -> Result<(), RpcError> {
    if ttl < MIN_TTL {
        Err(RpcError::handler("TtlTooShort", format!("ttl {ttl} s is under {MIN_TTL} s")))
    } else if ttl > MAX_TTL {
        Err(RpcError::handler("TtlTooLong", format!("ttl {ttl} s is over {MAX_TTL} s (30 days)")))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_2_21_clients_send() {
        let frame = r#"{"id":"1795469354864990464","jsonrpc":"2.0","method":"wc_proposeSession","params":{"pairingTopic":"ab","sessionProposal":"AKV1","ttl":300,"correlationId":1795469354858111}}"#;
        let incoming: Incoming = serde_json::from_str(frame).unwrap();
        assert_eq!(incoming.id.unwrap().get(), "\"1795469354864990464\"");
        let p: ProposeSession = params(incoming.params).unwrap();
        assert_eq!((p.pairing_topic.as_str(), p.attestation), ("ab", None));
        let publish: Publish =
            serde_json::from_str(r#"{"topic":"t","message":"m","ttl":300,"prompt":true,"tag":1108,"attestation":"","tvf":{"rpcMethods":[]}}"#).unwrap();
        assert_eq!((publish.tag, publish.attestation.as_deref()), (1108, Some("")));
        let ack: Incoming = serde_json::from_str(r#"{"id":1700000000000001,"jsonrpc":"2.0","result":true}"#).unwrap();
        assert!(ack.method.is_none() && ack.result.is_some());
    }

    #[test]
    fn checks_name_the_fault() {
        assert!(check_topic(&"a".repeat(64)).is_ok());
        assert_eq!(check_topic("xyz").unwrap_err().data, "InvalidTopic");
        assert_eq!(check_batch::<u8>(&[]).unwrap_err().data, "BatchEmpty");
        assert_eq!(check_batch(&[0u8; 501]).unwrap_err().message, "Invalid payload: a batch holds at most 500 items, got 501");
        assert_eq!(check_ttl(10).unwrap_err().data, "TtlTooShort");
        assert_eq!(check_ttl(MAX_TTL + 1).unwrap_err().data, "TtlTooLong");
        assert!(check_ttl(604_800).is_ok());
        assert_eq!(
            RpcError::payload("InvalidParams", "x").reply("\"7\""),
            r#"{"id":"7","jsonrpc":"2.0","error":{"code":-32600,"data":"InvalidParams","message":"Invalid payload: x"}}"#
        );
    }
}
