//! JSON-RPC 2.0 framing for the proxy. Ids and results are kept as raw JSON text, so 19-digit
//! ids (above 2^53) and large results pass through unchanged.

use bytes::Bytes;
use serde_json::value::RawValue;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
pub const LIMIT_EXCEEDED: i64 = -32005;

/// A result or an error, as raw JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Result(String),
    Error(String),
}

impl Reply {
    pub fn error(code: i64, message: &str) -> Reply {
        Reply::Error(serde_json::json!({"code": code, "message": message}).to_string())
    }

    /// Reads `result` or `error` out of an upstream's single response, borrowing from it.
    pub fn from_upstream(bytes: &[u8]) -> Reply {
        match serde_json::from_slice::<RawReply>(bytes) {
            Ok(reply) => reply.into(),
            Err(_) => Reply::error(INTERNAL_ERROR, "Invalid response from upstream"),
        }
    }

    pub fn is_result(&self) -> bool {
        matches!(self, Reply::Result(_))
    }

    /// The response object for request `id` (raw JSON).
    pub fn to_json(&self, id: &str) -> String {
        match self {
            Reply::Result(r) => format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{r}}}"#),
            Reply::Error(e) => format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{e}}}"#),
        }
    }
}

/// What the proxy answers one call with: the upstream's response as it is, when it already is
/// exactly the response to the client's request (nothing to rewrite), or a reply to frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Raw(Bytes),
    Reply(Reply),
}

impl Answer {
    /// An upstream's single response to the request `id` the client sent as it is: the bytes
    /// themselves when they are a JSON-RPC 2.0 response to that id with nothing else in it
    /// (only jsonrpc, id, and a result or an error), else the reply read out of them.
    pub fn for_request(bytes: Bytes, id: &str) -> Answer {
        match serde_json::from_slice::<ExactReply>(&bytes) {
            Ok(r) if r.jsonrpc.get() == "\"2.0\"" && r.id.get() == id && r.exactly_one() => Answer::Raw(bytes),
            _ => Answer::Reply(Reply::from_upstream(&bytes)),
        }
    }

    pub fn into_reply(self) -> Reply {
        match self {
            Answer::Raw(bytes) => Reply::from_upstream(&bytes),
            Answer::Reply(reply) => reply,
        }
    }
}

/// An upstream's response object with no member besides those of a response.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ExactReply<'a> {
    #[serde(borrow)]
    jsonrpc: &'a RawValue,
    #[serde(borrow)]
    id: &'a RawValue,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

impl ExactReply<'_> {
    /// A result, or an error object, and not both.
    fn exactly_one(&self) -> bool {
        match (self.result, self.error) {
            (Some(_), None) => true,
            (None, Some(e)) => e.get().starts_with('{'),
            _ => false,
        }
    }
}

/// An upstream's response object, borrowed: only what a reply needs.
#[derive(serde::Deserialize)]
struct RawReply<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    /// Some even when null: a null result is a result.
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

impl From<RawReply<'_>> for Reply {
    fn from(r: RawReply<'_>) -> Reply {
        match (r.error.filter(|e| e.get() != "null"), r.result) {
            (Some(e), _) => Reply::Error(e.get().to_owned()),
            (None, Some(result)) => Reply::Result(result.get().to_owned()),
            (None, None) => Reply::error(INTERNAL_ERROR, "Invalid response from upstream"),
        }
    }
}

/// One valid call from the client.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Raw JSON id (`null` when absent).
    pub id: String,
    pub method: String,
    /// Raw JSON params (array or object), if any.
    pub params: Option<String>,
    /// A call without an id member: JSON-RPC answers it with nothing.
    pub notification: bool,
    /// The call object has only jsonrpc, id, method (with no escapes) and params, so its bytes
    /// can go upstream as they are: the upstream reads exactly what was checked.
    pub exact: bool,
}

/// A call, or the error to answer in its place (with the id when it could be read).
pub type Item = Result<Call, (String, Reply)>;

#[derive(Debug)]
pub enum Parsed {
    Single(Item),
    Batch(Vec<Item>),
}

/// Parses a request body; Err is the parse error to send back.
pub fn parse(body: &[u8]) -> Result<Parsed, Reply> {
    let parse_error = || Reply::error(PARSE_ERROR, "Parse error");
    // The first non-blank byte tells a batch from a single call, so the body is parsed once.
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'[') {
        let items: Vec<&RawValue> = serde_json::from_slice(body).map_err(|_| parse_error())?;
        return Ok(Parsed::Batch(items.into_iter().map(parse_item).collect()));
    }
    // The usual request, read in one pass: one object with the members of a call only.
    if first == Some(&b'{') {
        if let Ok(exact) = serde_json::from_slice::<ExactCall>(body) {
            return Ok(Parsed::Single(check(exact.into(), true)));
        }
    }
    let raw: &RawValue = serde_json::from_slice(body).map_err(|_| parse_error())?;
    Ok(Parsed::Single(parse_item(raw)))
}

fn valid_id(raw: &str) -> bool {
    raw == "null" || raw.starts_with('"') || raw.starts_with('-') || raw.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

/// The members a call may have, borrowed from the body; others are ignored.
#[derive(serde::Deserialize)]
struct RawCall<'a> {
    #[serde(borrow)]
    jsonrpc: Option<&'a RawValue>,
    /// Some even when null: only an absent id makes a notification.
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a RawValue>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

/// A call object with no other member (and none twice, as for every call).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ExactCall<'a> {
    #[serde(borrow)]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a RawValue>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

impl<'a> From<ExactCall<'a>> for RawCall<'a> {
    fn from(c: ExactCall<'a>) -> RawCall<'a> {
        RawCall { jsonrpc: c.jsonrpc, id: c.id, method: c.method, params: c.params }
    }
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue as serde::Deserialize>::deserialize(d).map(Some)
}

fn parse_item(raw: &RawValue) -> Item {
    // serde would also read a struct from an array; a call must be an object.
    match serde_json::from_str::<RawCall>(raw.get()) {
        Ok(call) if raw.get().starts_with('{') => check(call, false),
        _ => Err(("null".to_owned(), Reply::error(INVALID_REQUEST, "Invalid request: expected an object"))),
    }
}

/// The call, or the error to answer in its place. `exact`: the object has no other member.
fn check(call: RawCall, exact: bool) -> Item {
    let invalid = |id: &str, why: &str| Err((id.to_owned(), Reply::error(INVALID_REQUEST, &format!("Invalid request: {why}"))));
    let id = match call.id {
        Some(id) if valid_id(id.get()) => id.get().to_owned(),
        Some(_) => return invalid("null", "id must be a string, number or null"),
        None => "null".to_owned(),
    };
    if call.jsonrpc.map(RawValue::get) != Some("\"2.0\"") {
        return invalid(&id, "jsonrpc must be \"2.0\"");
    }
    let (method, escaped) = match call.method.map(|m| (serde_json::from_str::<String>(m.get()), m.get().len())) {
        Some((Ok(m), raw_len)) if !m.is_empty() && m.len() <= 128 => {
            let escaped = raw_len != m.len() + 2;
            (m, escaped)
        }
        _ => return invalid(&id, "method must be a non-empty string"),
    };
    let params = match call.params {
        None => None,
        Some(p) if p.get().starts_with('[') || p.get().starts_with('{') => Some(p.get().to_owned()),
        Some(_) => return invalid(&id, "params must be an array or an object"),
    };
    Ok(Call { id, method, params, notification: call.id.is_none(), exact: exact && !escaped })
}

/// A request body for an upstream.
pub fn request_body(method: &str, params: Option<&str>) -> String {
    let method = serde_json::to_string(method).expect("strings serialize");
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":{method},"params":{}}}"#, params.unwrap_or("[]"))
}

/// A batch body for an upstream, with ids 0..n so replies can be matched back.
pub fn batch_body(calls: &[&Call]) -> String {
    let items: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":{},"params":{}}}"#,
                serde_json::to_string(&c.method).expect("strings serialize"),
                c.params.as_deref().unwrap_or("[]")
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// Replies of an upstream batch, by position; missing ones become errors.
pub fn batch_replies(bytes: &[u8], n: usize) -> Vec<Reply> {
    let mut out = vec![Reply::error(INTERNAL_ERROR, "No response from upstream for this request"); n];
    match serde_json::from_slice::<Vec<RawReply>>(bytes) {
        Ok(items) => {
            for reply in items {
                let idx = reply.id.and_then(|id| id.get().parse::<usize>().ok());
                if let Some(i) = idx.filter(|i| *i < n) {
                    out[i] = reply.into();
                }
            }
        }
        Err(_) => {
            // A single error object answering the whole batch.
            let whole = Reply::from_upstream(bytes);
            out.iter_mut().for_each(|r| *r = whole.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_big_ids_exactly() {
        let Parsed::Single(Ok(call)) = parse(br#"{"jsonrpc":"2.0","id":1234567890123456789,"method":"eth_blockNumber"}"#).unwrap() else { panic!() };
        assert_eq!(call.id, "1234567890123456789");
        assert!(!call.notification);
        let Parsed::Single(Ok(note)) = parse(br#"{"jsonrpc":"2.0","method":"eth_blockNumber"}"#).unwrap() else { panic!() };
        assert!(note.notification);
        let Parsed::Single(Ok(with_null)) = parse(br#"{"jsonrpc":"2.0","id":null,"method":"eth_blockNumber"}"#).unwrap() else { panic!() };
        assert!(!with_null.notification);
        assert_eq!(Reply::Result("\"0x1\"".into()).to_json(&call.id), r#"{"jsonrpc":"2.0","id":1234567890123456789,"result":"0x1"}"#);
    }

    #[test]
    fn classifies_bad_input() {
        assert_eq!(parse(b"{nope").unwrap_err(), Reply::error(PARSE_ERROR, "Parse error"));
        let Parsed::Single(Err((id, reply))) = parse(br#"{"jsonrpc":"1.0","id":"a","method":"x"}"#).unwrap() else { panic!() };
        assert_eq!(id, "\"a\"");
        assert!(matches!(reply, Reply::Error(e) if e.contains("-32600")));
        let Parsed::Batch(items) = parse(br#"[1, {"jsonrpc":"2.0","id":2,"method":"eth_call","params":"x"}, {"jsonrpc":"2.0","id":3,"method":"eth_call","params":[]}, ["2.0",4,"eth_chainId",[]]]"#).unwrap() else { panic!() };
        assert!(items[0].is_err() && items[1].is_err());
        assert_eq!(items[2].as_ref().unwrap().params.as_deref(), Some("[]"));
        assert!(matches!(&items[3], Err((id, Reply::Error(e))) if id == "null" && e.contains("expected an object")), "{:?}", items[3]);
    }

    #[test]
    fn only_a_call_with_nothing_to_rewrite_goes_as_it_is() {
        let single = |body: &str| match parse(body.as_bytes()).unwrap() {
            Parsed::Single(Ok(call)) => call,
            other => panic!("{other:?}"),
        };
        let call = single(r#" {"jsonrpc":"2.0","id":"a","method":"eth_getBalance","params":["0x1","latest"]}"#);
        assert!(call.exact);
        assert_eq!((call.id.as_str(), call.method.as_str(), call.params.as_deref()), (r#""a""#, "eth_getBalance", Some(r#"["0x1","latest"]"#)));
        // Another member, or an escaped method name: the upstream gets a body of our own.
        assert!(!single(r#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","extra":{"a":1}}"#).exact);
        assert!(!single(r#"{"jsonrpc":"2.0","id":1,"method":"eth_chain\u0049d"}"#).exact);
        assert_eq!(single(r#"{"jsonrpc":"2.0","id":1,"method":"eth_chain\u0049d"}"#).method, "eth_chainId");
        // A member twice is no call at all, exact or not.
        assert!(matches!(parse(br#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","method":"evm_mine"}"#).unwrap(), Parsed::Single(Err(_))));
        assert!(matches!(parse(br#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","x":1,"method":"evm_mine"}"#).unwrap(), Parsed::Single(Err(_))));
        // Batches are always rewritten (ids 0..n upstream).
        let Parsed::Batch(items) = parse(br#"[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}]"#).unwrap() else { panic!() };
        assert!(!items[0].as_ref().unwrap().exact);
    }

    #[test]
    fn an_upstream_answer_goes_back_as_it_is_only_when_it_fits() {
        let raw = |s: &'static str| Bytes::from_static(s.as_bytes());
        let ok = raw(r#"{"jsonrpc":"2.0","id":"a","result":"0x0"}"#);
        assert_eq!(Answer::for_request(ok.clone(), r#""a""#), Answer::Raw(ok.clone()));
        let err = raw(r#"{"jsonrpc":"2.0","id":7,"error":{"code":3,"message":"reverted"}}"#);
        assert_eq!(Answer::for_request(err.clone(), "7"), Answer::Raw(err));
        // Another id, another member, both or neither of result and error: framed anew.
        assert_eq!(Answer::for_request(ok, "1"), Answer::Reply(Reply::Result(r#""0x0""#.into())));
        assert_eq!(Answer::for_request(raw(r#"{"jsonrpc":"2.0","id":1,"result":"0x0","extra":1}"#), "1"), Answer::Reply(Reply::Result(r#""0x0""#.into())));
        assert_eq!(Answer::for_request(raw(r#"{"jsonrpc":"2.0","id":1,"result":"0x0","error":null}"#), "1"), Answer::Reply(Reply::Result(r#""0x0""#.into())));
        assert_eq!(Answer::for_request(raw(r#"{"id":1,"result":"0x0"}"#), "1"), Answer::Reply(Reply::Result(r#""0x0""#.into())));
        assert!(matches!(Answer::for_request(raw(r#"{"jsonrpc":"2.0","id":1}"#), "1"), Answer::Reply(Reply::Error(e)) if e.contains("Invalid response")));
        assert!(matches!(Answer::for_request(raw("<html>"), "1"), Answer::Reply(Reply::Error(_))));
    }

    #[test]
    fn matches_batch_replies_by_id() {
        let r = batch_replies(br#"[{"jsonrpc":"2.0","id":1,"result":"0xb"},{"jsonrpc":"2.0","id":0,"error":{"code":3,"message":"reverted"}}]"#, 3);
        assert_eq!(r[0], Reply::Error(r#"{"code":3,"message":"reverted"}"#.into()));
        assert_eq!(r[1], Reply::Result("\"0xb\"".into()));
        assert!(matches!(&r[2], Reply::Error(e) if e.contains("No response")));
    }

    #[test]
    fn reads_upstream_replies() {
        assert_eq!(Reply::from_upstream(br#"{"jsonrpc":"2.0","id":1,"result":null}"#), Reply::Result("null".into()));
        assert_eq!(Reply::from_upstream(br#"{"jsonrpc":"2.0","id":1,"result":"0x1","error":null}"#), Reply::Result("\"0x1\"".into()));
        assert_eq!(Reply::from_upstream(br#"{"id":1,"error":{"code":-32000,"message":"x"}}"#), Reply::Error(r#"{"code":-32000,"message":"x"}"#.into()));
        assert!(matches!(Reply::from_upstream(br#"{"id":1}"#), Reply::Error(e) if e.contains("Invalid response")));
        assert!(matches!(Reply::from_upstream(b"<html>"), Reply::Error(e) if e.contains("Invalid response")));
    }
}
