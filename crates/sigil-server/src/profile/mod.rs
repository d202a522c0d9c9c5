//! Account names (`/v1/profile/*`, spec sections 4, 5, 7 and 8): `alice.sigil.id`-style names
//! under the operator's zones (`--names-zones`), registered by the address that signs for them
//! and kept in the database (store.rs), resolvable by anyone.
//!
//! - Registering (`POST /v1/profile/account`): the body's message is JSON
//!   `{"name", "attributes", "timestamp"}` signed with `personal_sign` by the address, checked
//!   by ecrecover and, for a contract account, EIP-1271 `isValidSignature` on the coin type's
//!   chain through the RPC proxy. The timestamp must be within `--names-timestamp-window`
//!   seconds of the server's time (which the refusal gives). A name is a label of letters,
//!   digits and hyphens, at least 4 characters, in its ENSIP-15 normal form, then one of the
//!   zones. The coin type is ENSIP-11's (60 for Ethereum, `0x80000000 | chainId` below 2^31)
//!   of a configured EVM chain. An address holds one name per zone unless
//!   `--names-per-address` allows more. Refusals carry the spec's message ('Error registering
//!   name {name}') and `reasons` whose first description says why.
//! - Reading: a name's record, the names of an address, and suggestions of free names.
//! - Resolving by anyone (gateway.rs): an ERC-3668 (CCIP-read) gateway answering an ENSIP-10
//!   offchain resolver's `resolve(name, data)` for `addr`, `addr(coinType)`, `text` and `name`,
//!   each answer signed with `--names-signer-key` for the resolver to check. A name gives an
//!   address only for the coin type it was registered for (ENSIP-19: no other chain's).

pub mod gateway;
pub mod routes;
pub mod store;

use std::time::Duration;

use alloy_signer_local::PrivateKeySigner;
use sigil_core::ens;

use crate::config::NamesSettings;

/// The area's routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(routes::register))
        .routes(utoipa_axum::routes!(routes::account))
        .routes(utoipa_axum::routes!(routes::reverse))
        .routes(utoipa_axum::routes!(routes::suggestions))
}

/// The CCIP-read gateway, outside the project gate: ENS clients call it, with no projectId,
/// from any page (every answer readable from any origin; a POST's preflight answered).
pub fn gateway_router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(gateway::lookup_get))
        .routes(utoipa_axum::routes!(gateway::lookup_post))
        .route("/v1/profile/gateway", axum::routing::options(gateway::preflight))
        .layer(axum::middleware::map_response(gateway::any_origin))
}

/// Shortest label (spec section 5).
pub const MIN_LABEL_LEN: usize = 4;
/// Longest label (a DNS label).
pub const MAX_LABEL_LEN: usize = 63;
/// Free names suggested beside the one asked for.
pub const SUGGESTIONS: usize = 5;
/// Text records one name may hold, and the longest key and value.
pub const MAX_ATTRIBUTES: usize = 10;
pub const MAX_ATTRIBUTE_KEY_LEN: usize = 64;
pub const MAX_ATTRIBUTE_VALUE_LEN: usize = 255;

/// The area's service: its settings, turned into what it needs.
pub struct Profile {
    /// The zones names are registered under, normalised, in the operator's order.
    pub zones: Vec<String>,
    pub timestamp_window: Duration,
    pub per_address: u32,
    /// The key gateway answers are signed with; the gateway answers 503 without it.
    pub signer: Option<PrivateKeySigner>,
    /// Signed gateway answers by (resolver, request), kept ANSWERS_KEPT: signing is most of an
    /// answer's cost, and a popular name is asked again and again. A registration here clears
    /// them; one on another server sharing the database shows here within ANSWERS_KEPT.
    pub answers: crate::cache::TtlCache<String, String>,
}

/// How long a signed gateway answer is served again (it stays valid gateway::ANSWER_TTL from signing).
pub const ANSWERS_KEPT: Duration = Duration::from_secs(60);
/// Signed gateway answers kept at most.
pub const ANSWERS_MAX: usize = 10_000;

impl Profile {
    pub fn new(settings: &NamesSettings) -> Profile {
        // Both were checked when the settings were read.
        let zones = parse_zones(&settings.zones).unwrap_or_default();
        let signer = settings.signer_key.as_ref().and_then(|k| parse_signer_key(k.expose()).ok());
        let answers = crate::cache::TtlCache::new(ANSWERS_KEPT, ANSWERS_MAX);
        Profile { zones, timestamp_window: settings.timestamp_window, per_address: settings.per_address, signer, answers }
    }

    /// `raw` as a registrable name: normalised, a label of the rules, one of the zones.
    pub fn parse_name(&self, raw: &str) -> Result<Name, String> {
        let Some(full) = ens::normalize(raw.trim()).filter(|n| !n.is_empty()) else {
            return Err(format!("'{raw}' is not a valid name (ENSIP-15)"));
        };
        let Some((label, zone)) = self.zones.iter().find_map(|z| full.strip_suffix(z.as_str())?.strip_suffix('.').map(|l| (l.to_owned(), z.clone()))) else {
            return Err(format!("The name must end with .{}", self.zones.join(" or .")));
        };
        check_label(&label)?;
        Ok(Name { full, label, zone })
    }

    /// The zone a suggestion is asked for: the one named, or the first.
    pub fn zone(&self, asked: Option<&str>) -> Result<String, String> {
        match asked {
            None => self.zones.first().cloned().ok_or_else(|| "No zone is configured".to_owned()),
            Some(z) => {
                let z = ens::normalize(z.trim().trim_start_matches('.')).unwrap_or_default();
                if self.zones.contains(&z) {
                    Ok(z)
                } else {
                    Err(format!("The zone must be one of: {}", self.zones.join(", ")))
                }
            }
        }
    }

    /// The configured zone `name` (normalised) is under, at any depth.
    pub fn zone_of(&self, name: &str) -> Option<&str> {
        self.zones.iter().map(String::as_str).find(|z| name.strip_suffix(z).is_some_and(|rest| rest.ends_with('.')))
    }
}

/// A registrable name, split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// label.zone
    pub full: String,
    pub label: String,
    pub zone: String,
}

/// A label's rules (spec section 5): letters, digits and hyphens (lower-case once
/// normalised), at least 4 characters.
pub fn check_label(label: &str) -> Result<(), String> {
    if label.is_empty() || label.contains('.') {
        return Err("The name must be one label followed by the zone, e.g. alice.sigil.id".to_owned());
    }
    if !label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Err("A name may only have letters, digits and hyphens".to_owned());
    }
    if label.len() < MIN_LABEL_LEN {
        return Err(format!("A name must be at least {MIN_LABEL_LEN} characters"));
    }
    if label.len() > MAX_LABEL_LEN {
        return Err(format!("A name must be at most {MAX_LABEL_LEN} characters"));
    }
    Ok(())
}

/// The EVM chain id of an ENSIP-11 coin type (60: Ethereum); None for any other coin type,
/// and for one that is not the chain's own (0x80000001 stands for no chain: Ethereum is 60).
pub fn chain_of_coin_type(coin_type: u64) -> Option<u64> {
    let chain = if coin_type == 60 { 1 } else { coin_type.checked_sub(0x8000_0000).filter(|c| *c < 0x8000_0000)? };
    (ens::evm_coin_type(chain) == Some(coin_type) && chain != 0).then_some(chain)
}

/// The comma-separated zones of `--names-zones`, each normalised and at least two labels.
pub fn parse_zones(text: &str) -> Result<Vec<String>, String> {
    let mut zones = Vec::new();
    for zone in text.split(',').map(str::trim).filter(|z| !z.is_empty()) {
        let normal = ens::normalize(zone.trim_start_matches('.')).filter(|z| ens::is_plausible_name(z));
        match normal {
            Some(z) if !zones.contains(&z) => zones.push(z),
            Some(_) => {}
            None => return Err(format!("'{zone}' is not a name such as sigil.id")),
        }
    }
    if zones.is_empty() {
        return Err("at least one zone is needed, e.g. sigil.id".to_owned());
    }
    Ok(zones)
}

/// A secp256k1 key of 64 hex digits (0x optional).
pub fn parse_signer_key(text: &str) -> Result<PrivateKeySigner, &'static str> {
    let digits = text.trim();
    let digits = digits.strip_prefix("0x").unwrap_or(digits);
    let bytes: [u8; 32] = hex::decode(digits).ok().and_then(|b| b.try_into().ok()).ok_or("expected 64 hex digits")?;
    PrivateKeySigner::from_slice(&bytes).map_err(|_| "not a valid secp256k1 key")
}

/// Labels suggested for `label`, best first: digits and words added (each still to be checked
/// against the rules and the store).
pub fn candidates(label: &str) -> Vec<String> {
    let mut out = Vec::new();
    for n in 1..=3 {
        out.push(format!("{label}{n}"));
    }
    for word in ["wallet", "web3", "id", "app"] {
        out.push(format!("{label}-{word}"));
    }
    for n in 4..=99 {
        out.push(format!("{label}{n}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(zones: &str) -> Profile {
        let answers = crate::cache::TtlCache::new(ANSWERS_KEPT, ANSWERS_MAX);
        Profile { zones: parse_zones(zones).unwrap(), timestamp_window: Duration::from_secs(120), per_address: 1, signer: None, answers }
    }

    #[test]
    fn names_follow_the_rules() {
        let p = profile("sigil.id, other.xyz");
        assert_eq!(p.parse_name("Alice.Sigil.ID").unwrap(), Name { full: "alice.sigil.id".into(), label: "alice".into(), zone: "sigil.id".into() });
        assert_eq!(p.parse_name("bob-1.other.xyz").unwrap().zone, "other.xyz");
        assert!(p.parse_name("abc.sigil.id").unwrap_err().contains("at least 4"));
        assert!(p.parse_name("al_ce.sigil.id").is_err());
        assert!(p.parse_name("alice.eth").unwrap_err().contains(".sigil.id or .other.xyz"));
        assert!(p.parse_name("a.alice.sigil.id").unwrap_err().contains("one label"));
        assert!(p.parse_name("sigil.id").is_err());
        assert!(p.parse_name("alicé.sigil.id").unwrap_err().contains("letters, digits"));
        assert!(p.parse_name(&format!("{}.sigil.id", "a".repeat(64))).unwrap_err().contains("at most"));
        assert_eq!(p.zone_of("x.alice.sigil.id"), Some("sigil.id"));
        assert_eq!(p.zone_of("xsigil.id"), None);
    }

    #[test]
    fn coin_types_map_to_chains() {
        assert_eq!(chain_of_coin_type(60), Some(1));
        assert_eq!(chain_of_coin_type(0x8000_0000 | 31337), Some(31337));
        assert_eq!(chain_of_coin_type(0x8000_0000 | 10), Some(10));
        assert_eq!(chain_of_coin_type(0x8000_0001), None);
        assert_eq!(chain_of_coin_type(0x8000_0000), None);
        assert_eq!(chain_of_coin_type(0), None);
        assert_eq!(chain_of_coin_type(501), None);
        assert_eq!(chain_of_coin_type(0x1_0000_0000), None);
    }

    #[test]
    fn zones_and_keys_are_checked() {
        assert_eq!(parse_zones("sigil.id,.Other.XYZ,sigil.id").unwrap(), ["sigil.id", "other.xyz"]);
        assert!(parse_zones("").is_err());
        assert!(parse_zones("nodot").is_err());
        assert!(parse_signer_key("0x12").is_err());
        assert!(parse_signer_key(&"0".repeat(64)).is_err());
        assert!(parse_signer_key(&"1".repeat(64)).is_ok());
    }
}
