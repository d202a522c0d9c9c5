//! The CAIP-122 / EIP-4361 sign-in message: a struct, its exact text form and a strict parser.
//!
//! Text layout (EIP-4361 ABNF; `[..]` optional):
//!
//! ```text
//! [scheme://]domain wants you to sign in with your {Ethereum|Solana} account:
//! address
//!
//! [statement
//! ]
//! URI: uri
//! Version: 1
//! Chain ID: chain-id
//! Nonce: nonce
//! Issued At: issued-at
//! [Expiration Time: ..]
//! [Not Before: ..]
//! [Request ID: ..]
//! [Resources:
//! - uri
//! ...]
//! ```
//!
//! Strictness choices beyond the ABNF: LF only (no CR, no trailing newline), a present
//! statement is non-empty, a `Resources:` section lists at least one resource, and a mixed-case
//! EVM address must carry a valid EIP-55 checksum. Every field keeps its exact text, so
//! `parse(s)?.to_string() == s` for every accepted `s`.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::caip::Namespace;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// The namespaces a sign-in message can be written for, and the chain names their headers use
/// ("... account" in the first line): EIP-4361 for `eip155`, CAIP-122 for `solana`.
fn header_name(namespace: Namespace) -> Option<&'static str> {
    match namespace {
        Namespace::Eip155 => Some("Ethereum"),
        Namespace::Solana => Some("Solana"),
        Namespace::Bip122 => Some("Bitcoin"),
        Namespace::Polkadot | Namespace::Cosmos => None,
    }
}

fn from_header_name(name: &str) -> Option<Namespace> {
    Namespace::ALL.into_iter().find(|n| header_name(*n) == Some(name))
}

/// A sign-in message (spec section 3). Fields hold their exact text; use [`SignInMessage::validate`]
/// on one you built yourself, [`SignInMessage::parse`] on one you received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignInMessage {
    /// Chain family (header wording, address and chain id rules).
    pub namespace: Namespace,
    /// Optional URI scheme of the requesting origin (`https` in `https://example.com`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    /// RFC 3986 authority of the requesting site, e.g. `example.com:3388`.
    pub domain: String,
    /// The signing account: `0x` + 40 hex (EIP-55 when mixed-case) or a base58 Solana key.
    #[serde(rename = "accountAddress", alias = "address")]
    pub address: String,
    /// Optional human-readable statement (one line, non-empty).
    pub statement: Option<String>,
    /// RFC 3986 URI that is the subject of the signing.
    pub uri: String,
    /// Always `1`.
    pub version: String,
    /// CAIP-2 reference: the EIP-155 chain id (`1`) or the Solana genesis-hash prefix.
    pub chain_id: String,
    /// At least 8 ASCII letters or digits.
    pub nonce: String,
    /// RFC 3339 date-time.
    pub issued_at: String,
    /// RFC 3339 date-time after which the message is no longer valid.
    pub expiration_time: Option<String>,
    /// RFC 3339 date-time before which the message is not yet valid.
    pub not_before: Option<String>,
    /// RFC 3986 `*pchar` identifier of the request (may be empty).
    pub request_id: Option<String>,
    /// RFC 3986 URIs, listed under `Resources:`.
    #[serde(default)]
    pub resources: Vec<String>,
}

/// Which part of the message a [`ParseError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    Header,
    Scheme,
    Domain,
    Address,
    /// A required empty line.
    BlankLine,
    Statement,
    Uri,
    Version,
    ChainId,
    Nonce,
    IssuedAt,
    ExpirationTime,
    NotBefore,
    RequestId,
    Resources,
    /// A line after the end of the message.
    Trailing,
}

impl Field {
    /// The field's name as written in the message (`Issued At`) or a short description.
    pub fn name(self) -> &'static str {
        match self {
            Field::Header => "header",
            Field::Scheme => "scheme",
            Field::Domain => "domain",
            Field::Address => "address",
            Field::BlankLine => "blank line",
            Field::Statement => "statement",
            Field::Uri => "URI",
            Field::Version => "Version",
            Field::ChainId => "Chain ID",
            Field::Nonce => "Nonce",
            Field::IssuedAt => "Issued At",
            Field::ExpirationTime => "Expiration Time",
            Field::NotBefore => "Not Before",
            Field::RequestId => "Request ID",
            Field::Resources => "Resources",
            Field::Trailing => "end of message",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A malformed sign-in message: the 1-based line, the field and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line} ({field}): {reason}")]
pub struct ParseError {
    pub line: usize,
    pub field: Field,
    pub reason: String,
}

impl ParseError {
    fn new(line: usize, field: Field, reason: impl Into<String>) -> Self {
        ParseError { line, field, reason: reason.into() }
    }
}

/// Why a message is not valid at a given time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    #[error("the message expired at {0}")]
    Expired(String),
    #[error("the message is not valid before {0}")]
    NotYetValid(String),
    #[error("the message was issued in the future ({0})")]
    IssuedInFuture(String),
    #[error("the {field} time '{value}' is not an RFC 3339 date-time")]
    InvalidTimestamp { field: Field, value: String },
}

const HEADER_MIDDLE: &str = " wants you to sign in with your ";
const HEADER_END: &str = " account:";
const URI_TAG: &str = "URI: ";
const VERSION_TAG: &str = "Version: ";
const CHAIN_ID_TAG: &str = "Chain ID: ";
const NONCE_TAG: &str = "Nonce: ";
const ISSUED_AT_TAG: &str = "Issued At: ";
const EXPIRATION_TAG: &str = "Expiration Time: ";
const NOT_BEFORE_TAG: &str = "Not Before: ";
const REQUEST_ID_TAG: &str = "Request ID: ";
const RESOURCES_LINE: &str = "Resources:";
const RESOURCE_ITEM: &str = "- ";

impl SignInMessage {
    /// A message with the required fields, version `1` and no optional fields.
    pub fn new(
        namespace: Namespace,
        domain: impl Into<String>,
        address: impl Into<String>,
        uri: impl Into<String>,
        chain_id: impl Into<String>,
        nonce: impl Into<String>,
        issued_at: impl Into<String>,
    ) -> Self {
        SignInMessage {
            namespace,
            scheme: None,
            domain: domain.into(),
            address: address.into(),
            statement: None,
            uri: uri.into(),
            version: "1".to_owned(),
            chain_id: chain_id.into(),
            nonce: nonce.into(),
            issued_at: issued_at.into(),
            expiration_time: None,
            not_before: None,
            request_id: None,
            resources: Vec::new(),
        }
    }

    /// The CAIP-2 chain id, e.g. `eip155:1`.
    pub fn caip2_chain_id(&self) -> String {
        format!("{}:{}", self.namespace.as_str(), self.chain_id)
    }

    /// The CAIP-10 account id, e.g. `eip155:1:0xabc..`, as the message writes it.
    pub fn caip10_account(&self) -> String {
        format!("{}:{}:{}", self.namespace.as_str(), self.chain_id, self.address)
    }

    /// The CAIP-10 account id with the address in its one canonical form (EIP-55 for EVM),
    /// so the same account is one key whatever case a message wrote it in.
    pub fn canonical_account(&self) -> String {
        format!("{}:{}:{}", self.namespace.as_str(), self.chain_id, canonical_address(self.namespace, &self.address))
    }

    /// Strictly parse the text form. Any deviation is an error naming the line and field.
    pub fn parse(input: &str) -> Result<Self, ParseError> {
        let lines: Vec<&str> = input.split('\n').collect();
        let mut cur = Cursor { lines: &lines, pos: 0 };

        // Line 1: header.
        let (ln, header) = cur.next(Field::Header)?;
        let Some(head) = header.strip_suffix(HEADER_END) else {
            return Err(ParseError::new(ln, Field::Header, "expected '<domain> wants you to sign in with your <Ethereum|Solana> account:'"));
        };
        let Some((origin, chain_name)) = head.split_once(HEADER_MIDDLE) else {
            return Err(ParseError::new(ln, Field::Header, "expected '<domain> wants you to sign in with your <Ethereum|Solana> account:'"));
        };
        let Some(namespace) = from_header_name(chain_name) else {
            return Err(ParseError::new(ln, Field::Header, format!("unsupported chain '{}' (expected Ethereum or Solana)", shorten(chain_name))));
        };
        let (scheme, domain) = match origin.split_once("://") {
            Some((s, d)) => (Some(s.to_owned()), d.to_owned()),
            None => (None, origin.to_owned()),
        };

        // Line 2: address; line 3: blank.
        let (_, address) = cur.next(Field::Address)?;
        cur.blank("expected an empty line after the address")?;

        // Optional statement, then a blank line.
        let (ln, line) = cur.next(Field::Statement)?;
        let statement = if line.is_empty() {
            None
        } else {
            let (next_ln, next) = cur.next(Field::BlankLine)?;
            if !next.is_empty() {
                return Err(if line.starts_with(URI_TAG) {
                    ParseError::new(ln, Field::BlankLine, "expected an empty line before 'URI: ' (two empty lines when there is no statement)")
                } else {
                    ParseError::new(next_ln, Field::BlankLine, "expected an empty line after the statement")
                });
            }
            Some(line.to_owned())
        };

        let uri = cur.tagged(Field::Uri, URI_TAG)?;
        let version = cur.tagged(Field::Version, VERSION_TAG)?;
        let chain_id = cur.tagged(Field::ChainId, CHAIN_ID_TAG)?;
        let nonce = cur.tagged(Field::Nonce, NONCE_TAG)?;
        let issued_at = cur.tagged(Field::IssuedAt, ISSUED_AT_TAG)?;
        let expiration_time = cur.optional(EXPIRATION_TAG);
        let not_before = cur.optional(NOT_BEFORE_TAG);
        let request_id = cur.optional(REQUEST_ID_TAG);

        let mut resources = Vec::new();
        if cur.peek() == Some(RESOURCES_LINE) {
            let header_line = cur.pos + 1;
            cur.pos += 1;
            while let Some(line) = cur.peek() {
                let ln = cur.pos + 1;
                let Some(resource) = line.strip_prefix(RESOURCE_ITEM) else {
                    return Err(ParseError::new(ln, Field::Resources, format!("expected '- <uri>', found '{}'", shorten(line))));
                };
                resources.push(resource.to_owned());
                cur.pos += 1;
            }
            if resources.is_empty() {
                return Err(ParseError::new(header_line, Field::Resources, "'Resources:' lists no resource"));
            }
        }

        if let Some(line) = cur.peek() {
            let ln = cur.pos + 1;
            let reason = if line.is_empty() && cur.pos + 1 == lines.len() {
                "the message must not end with a newline".to_owned()
            } else {
                format!(
                    "unexpected line '{}' (optional fields appear at most once, in the order Expiration Time, Not Before, Request ID, Resources)",
                    shorten(line)
                )
            };
            return Err(ParseError::new(ln, Field::Trailing, reason));
        }

        let message = SignInMessage {
            namespace,
            scheme,
            domain,
            address: address.to_owned(),
            statement,
            uri,
            version,
            chain_id,
            nonce,
            issued_at,
            expiration_time,
            not_before,
            request_id,
            resources,
        };
        // The layout matched, so the text is the canonical rendering and the line numbers that
        // `validate` computes are those of the input.
        message.validate()?;
        Ok(message)
    }

    /// Check every field; the error names the line the field has in the rendered text.
    pub fn validate(&self) -> Result<(), ParseError> {
        if let Some(scheme) = &self.scheme {
            if !is_valid_scheme(scheme) {
                return Err(ParseError::new(1, Field::Scheme, format!("'{}' is not an RFC 3986 URI scheme", shorten(scheme))));
            }
        }
        if !is_valid_authority(&self.domain) {
            return Err(ParseError::new(1, Field::Domain, format!("'{}' is not an RFC 3986 authority (host[:port])", shorten(&self.domain))));
        }
        let address_check = match self.namespace {
            Namespace::Eip155 => check_evm_address(&self.address),
            Namespace::Solana => check_solana_address(&self.address),
            Namespace::Bip122 => check_bitcoin_address(&self.address),
            other => Err(InvalidAddress(format!("sign-in messages for {other} accounts are not supported"))),
        };
        address_check.map_err(|reason| ParseError::new(2, Field::Address, reason.0))?;

        let mut line = 5;
        if let Some(statement) = &self.statement {
            if statement.is_empty() {
                return Err(ParseError::new(4, Field::Statement, "a present statement must not be empty"));
            }
            if let Some(bad) = statement.chars().find(|&c| !is_statement_char(c)) {
                return Err(ParseError::new(
                    4,
                    Field::Statement,
                    format!("character {bad:?} is not allowed (ASCII letters, digits, spaces and RFC 3986 reserved/unreserved marks only)"),
                ));
            }
            line = 6;
        }
        if !is_valid_uri(&self.uri) {
            return Err(ParseError::new(line, Field::Uri, format!("'{}' is not an RFC 3986 URI", shorten(&self.uri))));
        }
        line += 1;
        if self.version != "1" {
            return Err(ParseError::new(line, Field::Version, format!("unsupported version '{}' (must be 1)", shorten(&self.version))));
        }
        line += 1;
        if !is_valid_chain_id(self.namespace, &self.chain_id) {
            let expected = match self.namespace {
                Namespace::Eip155 => "decimal digits",
                _ => "a CAIP-2 reference of 1-32 letters, digits, '-' or '_'",
            };
            return Err(ParseError::new(line, Field::ChainId, format!("'{}' is not a valid chain id ({expected})", shorten(&self.chain_id))));
        }
        line += 1;
        if !is_valid_nonce(&self.nonce) {
            return Err(ParseError::new(line, Field::Nonce, format!("'{}' is not a nonce (at least 8 ASCII letters or digits)", shorten(&self.nonce))));
        }
        line += 1;
        check_timestamp(line, Field::IssuedAt, &self.issued_at)?;
        for (field, value) in [(Field::ExpirationTime, &self.expiration_time), (Field::NotBefore, &self.not_before)] {
            if let Some(value) = value {
                line += 1;
                check_timestamp(line, field, value)?;
            }
        }
        if let Some(request_id) = &self.request_id {
            line += 1;
            if !pct_ok(request_id, |b| is_unreserved(b) || is_sub_delim(b) || b == b':' || b == b'@') {
                return Err(ParseError::new(line, Field::RequestId, format!("'{}' is not an RFC 3986 pchar sequence", shorten(request_id))));
            }
        }
        if !self.resources.is_empty() {
            line += 1;
            for resource in &self.resources {
                line += 1;
                if !is_valid_uri(resource) {
                    return Err(ParseError::new(line, Field::Resources, format!("'{}' is not an RFC 3986 URI", shorten(resource))));
                }
            }
        }
        Ok(())
    }

    /// `issued_at` as a date-time.
    pub fn issued_at_time(&self) -> Result<OffsetDateTime, TimeError> {
        parse_time(Field::IssuedAt, &self.issued_at)
    }

    /// `expiration_time` as a date-time, if present.
    pub fn expiration_time_value(&self) -> Result<Option<OffsetDateTime>, TimeError> {
        self.expiration_time.as_deref().map(|v| parse_time(Field::ExpirationTime, v)).transpose()
    }

    /// `not_before` as a date-time, if present.
    pub fn not_before_value(&self) -> Result<Option<OffsetDateTime>, TimeError> {
        self.not_before.as_deref().map(|v| parse_time(Field::NotBefore, v)).transpose()
    }

    /// Is the message valid at `now`? Expired when `now >= expiration_time`, not yet valid when
    /// `now < not_before`, refused when issued more than MAX_CLOCK_SKEW after `now`.
    pub fn check_time(&self, now: OffsetDateTime) -> Result<(), TimeError> {
        if let Some(expires) = self.expiration_time_value()? {
            if now >= expires {
                return Err(TimeError::Expired(self.expiration_time.clone().unwrap_or_default()));
            }
        }
        if let Some(not_before) = self.not_before_value()? {
            if now < not_before {
                return Err(TimeError::NotYetValid(self.not_before.clone().unwrap_or_default()));
            }
        }
        if self.issued_at_time()? > now + MAX_CLOCK_SKEW {
            return Err(TimeError::IssuedInFuture(self.issued_at.clone()));
        }
        Ok(())
    }
}

impl fmt::Display for SignInMessage {
    /// The exact EIP-4361 / CAIP-122 text (LF line ends, no trailing newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(scheme) = &self.scheme {
            write!(f, "{scheme}://")?;
        }
        write!(f, "{}{HEADER_MIDDLE}{}{HEADER_END}\n{}\n\n", self.domain, header_name(self.namespace).unwrap_or(self.namespace.as_str()), self.address)?;
        if let Some(statement) = &self.statement {
            writeln!(f, "{statement}")?;
        }
        write!(
            f,
            "\n{URI_TAG}{}\n{VERSION_TAG}{}\n{CHAIN_ID_TAG}{}\n{NONCE_TAG}{}\n{ISSUED_AT_TAG}{}",
            self.uri, self.version, self.chain_id, self.nonce, self.issued_at
        )?;
        if let Some(v) = &self.expiration_time {
            write!(f, "\n{EXPIRATION_TAG}{v}")?;
        }
        if let Some(v) = &self.not_before {
            write!(f, "\n{NOT_BEFORE_TAG}{v}")?;
        }
        if let Some(v) = &self.request_id {
            write!(f, "\n{REQUEST_ID_TAG}{v}")?;
        }
        if !self.resources.is_empty() {
            write!(f, "\n{RESOURCES_LINE}")?;
            for r in &self.resources {
                write!(f, "\n{RESOURCE_ITEM}{r}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for SignInMessage {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SignInMessage::parse(s)
    }
}

struct Cursor<'a> {
    lines: &'a [&'a str],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.lines.get(self.pos).copied()
    }

    /// The next line and its 1-based number, or an error that the message ends early.
    fn next(&mut self, field: Field) -> Result<(usize, &'a str), ParseError> {
        match self.peek() {
            Some(line) => {
                self.pos += 1;
                Ok((self.pos, line))
            }
            None => Err(ParseError::new(self.pos + 1, field, "missing: the message ends early")),
        }
    }

    fn blank(&mut self, reason: &str) -> Result<(), ParseError> {
        let (ln, line) = self.next(Field::BlankLine)?;
        if line.is_empty() {
            Ok(())
        } else {
            Err(ParseError::new(ln, Field::BlankLine, reason))
        }
    }

    fn tagged(&mut self, field: Field, tag: &str) -> Result<String, ParseError> {
        let (ln, line) = self.next(field)?;
        match line.strip_prefix(tag) {
            Some(value) => Ok(value.to_owned()),
            None => Err(ParseError::new(ln, field, format!("expected a line starting with '{tag}', found '{}'", shorten(line)))),
        }
    }

    fn optional(&mut self, tag: &str) -> Option<String> {
        let value = self.peek()?.strip_prefix(tag)?.to_owned();
        self.pos += 1;
        Some(value)
    }
}

/// At most 40 characters of untrusted text for an error message.
fn shorten(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(40).collect();
        out.push('…');
        out
    }
}

fn parse_time(field: Field, value: &str) -> Result<OffsetDateTime, TimeError> {
    OffsetDateTime::parse(value, &Rfc3339).map_err(|_| TimeError::InvalidTimestamp { field, value: value.to_owned() })
}

fn check_timestamp(line: usize, field: Field, value: &str) -> Result<(), ParseError> {
    parse_time(field, value).map(|_| ()).map_err(|_| ParseError::new(line, field, format!("'{}' is not an RFC 3339 date-time", shorten(value))))
}

/// Parse an RFC 3339 date-time (e.g. `2021-09-30T16:25:24.000Z`, as JavaScript's `toISOString` writes it).
pub fn parse_rfc3339(value: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(value, &Rfc3339).ok()
}

/// Format a date-time as RFC 3339 (e.g. `2021-09-30T16:25:24Z` in UTC), for building messages.
pub fn format_rfc3339(t: OffsetDateTime) -> String {
    // Formatting a valid OffsetDateTime as RFC 3339 only fails for years outside 0..=9999.
    t.format(&Rfc3339).unwrap_or_else(|_| t.to_string())
}

// ---- character classes (RFC 3986) ----

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(b: u8) -> bool {
    matches!(b, b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=')
}

fn is_gen_delim(b: u8) -> bool {
    matches!(b, b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@')
}

fn is_statement_char(c: char) -> bool {
    c.is_ascii() && {
        let b = c as u8;
        is_unreserved(b) || is_sub_delim(b) || is_gen_delim(b) || b == b' '
    }
}

/// Every byte is allowed or part of a well-formed `%XX` escape.
fn pct_ok(s: &str, allowed: impl Fn(u8) -> bool) -> bool {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if i + 2 >= bytes.len() {
                return false;
            }
            if !(bytes[i + 1].is_ascii_hexdigit() && bytes[i + 2].is_ascii_hexdigit()) {
                return false;
            }
            i += 3;
        } else if allowed(bytes[i]) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// An RFC 3986 scheme (`https`).
fn is_valid_scheme(s: &str) -> bool {
    fluent_uri::Uri::parse(format!("{s}:")).is_ok_and(|uri| uri.scheme().as_str() == s)
}

/// RFC 3986 `authority = [ userinfo "@" ] host [ ":" port ]`, with a non-empty host.
pub(crate) fn is_valid_authority(s: &str) -> bool {
    fluent_uri::Uri::parse(format!("x://{s}"))
        .is_ok_and(|uri| uri.path().as_str().is_empty() && uri.authority().is_some_and(|a| a.as_str() == s && !a.host().is_empty()))
}

/// An RFC 3986 URI (with a scheme) that the `url` crate, which the server parses it with
/// afterwards, also takes.
pub(crate) fn is_valid_uri(s: &str) -> bool {
    fluent_uri::Uri::parse(s).is_ok() && url::Url::parse(s).is_ok()
}

/// At least 8 ASCII letters or digits (EIP-4361 `nonce`).
pub fn is_valid_nonce(s: &str) -> bool {
    s.len() >= 8 && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn is_valid_chain_id(namespace: Namespace, s: &str) -> bool {
    match namespace {
        Namespace::Eip155 => !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()),
        _ => (1..=32).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
    }
}

// ---- addresses ----

/// How far ahead of the server's clock a message's Issued At may be (the signer's clock skew).
pub const MAX_CLOCK_SKEW: time::Duration = time::Duration::minutes(5);

/// An address in its one canonical form: EIP-55 for EVM (any case in), as given otherwise.
pub fn canonical_address(namespace: Namespace, address: &str) -> String {
    let mut raw = [0u8; 20];
    match (namespace, address.strip_prefix("0x").map(|h| hex::decode_to_slice(h, &mut raw))) {
        (Namespace::Eip155, Some(Ok(()))) => to_checksum_address(&raw),
        _ => address.to_owned(),
    }
}

/// The EIP-55 mixed-case checksum form of a 20-byte address, with `0x`.
pub fn to_checksum_address(address: &[u8; 20]) -> String {
    crate::evm::checksum(address)
}

/// Why an address is not one of its chain's: a human-readable reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidAddress(pub String);

/// Check an EVM address: `0x` + 40 hex digits; when it mixes upper- and lower-case letters it
/// must match its EIP-55 checksum.
pub fn check_evm_address(s: &str) -> Result<(), InvalidAddress> {
    let Some(hex_part) = s.strip_prefix("0x") else {
        return Err(InvalidAddress(format!("'{}' must start with 0x", shorten(s))));
    };
    if hex_part.len() != 40 || !hex_part.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(InvalidAddress(format!("'{}' is not 0x followed by 40 hex digits", shorten(s))));
    }
    let has_lower = hex_part.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = hex_part.bytes().any(|b| b.is_ascii_uppercase());
    if has_lower && has_upper {
        let mut raw = [0u8; 20];
        // Shape checked above, so decoding cannot fail.
        hex::decode_to_slice(hex_part, &mut raw).map_err(|e| InvalidAddress(e.to_string()))?;
        let expected = to_checksum_address(&raw);
        if expected != s {
            return Err(InvalidAddress(format!("'{s}' fails its EIP-55 checksum (expected {expected})")));
        }
    }
    Ok(())
}

/// Check a Solana address: base58 that decodes to a 32-byte public key.
/// Check a Bitcoin address: base58 (P2PKH, P2SH) or bech32/bech32m (segwit, taproot) with a
/// valid checksum, on any network (the chain id says which).
pub fn check_bitcoin_address(s: &str) -> Result<(), InvalidAddress> {
    s.parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>()
        .map(|_| ())
        .map_err(|e| InvalidAddress(format!("'{}' is not a Bitcoin address: {e}", shorten(s))))
}

pub fn check_solana_address(s: &str) -> Result<(), InvalidAddress> {
    match bs58::decode(s).into_vec() {
        Ok(bytes) if bytes.len() == 32 => Ok(()),
        Ok(bytes) => Err(InvalidAddress(format!("'{}' decodes to {} bytes, not a 32-byte public key", shorten(s), bytes.len()))),
        Err(_) => Err(InvalidAddress(format!("'{}' is not base58", shorten(s)))),
    }
}
