//! Deposits from an exchange (issue 27's `pay`; the AppKit client's "fund from exchange"): the
//! exchanges a visitor may deposit from, the URL of a deposit at one of them, and whether the
//! deposit arrived, as JSON-RPC 2.0 at `POST /v1/json-rpc` (`reown_getExchanges`,
//! `reown_getExchangePayUrl`, `reown_getExchangeBuyStatus`, the AppKit client's names and
//! fields).
//!
//! Exchanges are the operator's: each is an id, a name, an image and a URL template
//! (`--pay-exchanges`, a TOML file; the partner URLs of real exchanges are the operator's own),
//! and `--pay-sandbox-key` adds the sandbox exchange, a page of this server's that deposits on
//! a dev chain from that key, so a whole deposit runs offline. Nothing is on unless configured.
//!
//! A deposit's status is read from the chain, never taken from the client: the recipient's
//! balance of the asset is stored when the session is made (store.rs) and the status is SUCCESS
//! once the balance rose by the amount, FAILED once the session expired (or the sandbox's
//! deposit was cancelled), IN_PROGRESS before. So one deposit satisfies one session only, at
//! most one session per recipient and asset is open: a new one supersedes (fails) the older.

pub mod routes;
pub mod store;

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use alloy_primitives::U256;

use crate::chains::{ChainConfig, Chains};
use crate::config::PaySettings;
use crate::onramp::sandbox::Sandbox;

/// The area's JSON-RPC endpoint, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::json_rpc))
}

/// The sandbox exchange's page, outside the project gate (the visitor's browser opens it).
pub fn sandbox_router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::sandbox_page, routes::sandbox_action))
}

/// The sandbox exchange's id.
pub const SANDBOX_ID: &str = "sigil-sandbox";
/// Exchanges a page of `reown_getExchanges` lists.
pub const PAGE_SIZE: usize = 10;
/// The placeholders a URL template may hold.
pub const PLACEHOLDERS: [&str; 7] = ["address", "network", "chainId", "asset", "amount", "symbol", "sessionId"];

/// An exchange as the operator configured it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exchange {
    pub id: String,
    pub name: String,
    pub image_url: String,
    /// The deposit page, with placeholders (`{address}`, `{sessionId}`, ...; see `PLACEHOLDERS`).
    pub url: String,
    /// CAIP-19 assets it deposits; absent: any.
    #[serde(default)]
    pub assets: Option<Vec<String>>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ExchangesFile {
    #[serde(default)]
    exchange: Vec<Exchange>,
}

fn http_url(s: &str) -> bool {
    url::Url::parse(s).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
}

/// Fills a URL template: each placeholder's value URL-encoded.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let encoded: Vec<(&str, String)> = values.iter().map(|(name, value)| (*name, url::form_urlencoded::byte_serialize(value.as_bytes()).collect())).collect();
    let values: Vec<(&str, &str)> = encoded.iter().map(|(name, value)| (*name, value.as_str())).collect();
    sigil_core::template::fill(template, &values)
}

/// The placeholders of a template that are not known ones, or a malformed brace.
fn check_template(url: &str) -> Result<(), String> {
    let mut rest = url;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else { return Err(format!("'{url}' has an unclosed '{{'")) };
        let name = &rest[start + 1..start + len];
        if !PLACEHOLDERS.contains(&name) {
            return Err(format!("'{url}' has an unknown placeholder {{{name}}}: one of {}", PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")));
        }
        rest = &rest[start + len + 1..];
    }
    if rest.contains('}') {
        return Err(format!("'{url}' has a '}}' without '{{'"));
    }
    let sample = fill(url, &PLACEHOLDERS.map(|p| (p, "x")));
    if !http_url(&sample) {
        return Err(format!("'{url}' is not an http(s) URL"));
    }
    Ok(())
}

/// The exchanges of a `--pay-exchanges` file, checked: ids unique (letters, digits, '-', '_',
/// at most 64), names 1 to 64 characters, an http(s) image, a URL template with known
/// placeholders, assets CAIP-19.
pub fn load_exchanges(path: &Path) -> Result<Vec<Exchange>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_exchanges(&text)
}

pub fn parse_exchanges(text: &str) -> Result<Vec<Exchange>, String> {
    let file: ExchangesFile = toml::from_str(text).map_err(|e| format!("not a pay exchanges file: {}", e.message()))?;
    let mut seen = HashSet::new();
    for e in &file.exchange {
        if e.id.is_empty() || e.id.len() > 64 || !e.id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err(format!("exchange id '{}': letters, digits, '-' and '_', at most 64", e.id));
        }
        if e.id == SANDBOX_ID || !seen.insert(e.id.clone()) {
            return Err(format!("exchange id '{}' is taken", e.id));
        }
        if e.name.trim().is_empty() || e.name.chars().count() > 64 {
            return Err(format!("exchange '{}': a name of 1 to 64 characters", e.id));
        }
        if !http_url(&e.image_url) {
            return Err(format!("exchange '{}': image_url '{}' is not an http(s) URL", e.id, e.image_url));
        }
        check_template(&e.url).map_err(|m| format!("exchange '{}': url {m}", e.id))?;
        for a in e.assets.iter().flatten() {
            parse_asset(a).map_err(|m| format!("exchange '{}': asset '{a}': {m}", e.id))?;
        }
    }
    Ok(file.exchange)
}

/// A CAIP-19 asset on an EVM chain: its chain and, for a token, its contract (lower case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetId {
    /// CAIP-2.
    pub chain: String,
    /// None for the chain's coin (`slip44:60`).
    pub token: Option<String>,
}

impl AssetId {
    pub fn caip19(&self) -> String {
        match &self.token {
            None => format!("{}/slip44:60", self.chain),
            Some(t) => format!("{}/erc20:{t}", self.chain),
        }
    }
}

/// What `parse_asset` expects, for error messages.
pub const ASSET_SHAPE: &str = "a CAIP-19 asset id such as eip155:1/slip44:60 (the coin) or eip155:1/erc20:0x… (a token)";

/// Parses a CAIP-19 asset id of the eip155 namespace.
pub fn parse_asset(s: &str) -> Result<AssetId, String> {
    let (chain, asset) = s.split_once('/').ok_or_else(|| format!("expected {ASSET_SHAPE}"))?;
    if !sigil_core::caip::is_chain_id(chain) {
        return Err(format!("expected {ASSET_SHAPE}"));
    }
    if !chain.starts_with("eip155:") {
        return Err("only EVM (eip155) assets can be deposited".to_owned());
    }
    match asset.split_once(':') {
        Some(("slip44", "60")) => Ok(AssetId { chain: chain.to_owned(), token: None }),
        Some(("erc20", addr)) if sigil_core::caip::is_evm_address(addr) && addr.starts_with("0x") => {
            Ok(AssetId { chain: chain.to_owned(), token: Some(addr.to_ascii_lowercase()) })
        }
        _ => Err(format!("expected {ASSET_SHAPE}")),
    }
}

/// An asset as the chain knows it: symbol and decimals.
#[derive(Debug, Clone)]
pub struct KnownAsset {
    pub symbol: String,
    pub name: String,
    pub decimals: u8,
}

/// The asset on its configured chain: the coin, or a token of the chain's list.
pub fn known_asset(chain: &ChainConfig, asset: &AssetId) -> Option<KnownAsset> {
    match &asset.token {
        None => Some(KnownAsset { symbol: chain.native.symbol.clone(), name: chain.native.name.clone(), decimals: chain.native.decimals }),
        Some(t) => chain.token(t).map(|t| KnownAsset { symbol: t.symbol.clone(), name: t.name.clone(), decimals: t.decimals }),
    }
}

/// A decimal amount in the asset's units: digits, at most `decimals` after the point, above 0.
/// The amount as given (without a trailing point) and in the smallest unit.
pub fn parse_amount(s: &str, decimals: u8) -> Result<(String, U256), String> {
    let s = s.trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) || s.len() > 80 {
        return Err("expected a decimal number such as 0.05".to_owned());
    }
    if frac.len() > usize::from(decimals) {
        return Err(format!("at most {decimals} decimals"));
    }
    let units = crate::onramp::to_units(if frac.is_empty() { whole } else { s }, decimals).ok_or_else(|| "too large".to_owned())?;
    if units.is_zero() {
        return Err("must be above 0".to_owned());
    }
    let shown = if frac.is_empty() { whole.to_owned() } else { format!("{whole}.{frac}") };
    Ok((shown, units))
}

/// A number in exponent form as JavaScript's `Number.prototype.toString` writes very small or
/// large amounts (`1e-7`, `1.5e+21`; the AppKit client sends `Number(amount).toString()`), written
/// out as a plain decimal; anything else as it is.
pub fn plain_decimal(s: &str) -> String {
    let t = s.trim();
    let Some((mantissa, exponent)) = t.split_once(['e', 'E']) else { return t.to_owned() };
    let Ok(exponent) = exponent.strip_prefix('+').unwrap_or(exponent).parse::<i32>() else { return t.to_owned() };
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() || !whole.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) || !(-80..=80).contains(&exponent) {
        return t.to_owned();
    }
    let digits = format!("{whole}{frac}");
    // Where the point goes in `digits`.
    let point = whole.len() as i32 + exponent;
    let out = if point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    };
    let out = if out.contains('.') { out.trim_end_matches('0').trim_end_matches('.').to_owned() } else { out };
    let trimmed = out.trim_start_matches('0');
    if trimmed.is_empty() || trimmed.starts_with('.') {
        format!("0{trimmed}")
    } else {
        trimmed.to_owned()
    }
}

/// The pay area: the exchanges, the sandbox's sender, the sessions' rules.
pub struct Pay {
    pub exchanges: Vec<Exchange>,
    pub sandbox: Option<Sandbox>,
    pub session_ttl: Duration,
    pub sessions_per_hour: u32,
}

impl Pay {
    pub fn new(settings: &PaySettings, chains: &Chains, public_url: &str) -> Pay {
        let mut exchanges = match &settings.exchanges {
            Some(path) => load_exchanges(path).unwrap_or_else(|e| {
                tracing::error!(error = %e, "pay exchanges are off");
                Vec::new()
            }),
            None => Vec::new(),
        };
        let sandbox = settings.sandbox_key.as_ref().and_then(|key| match Sandbox::new(key.expose(), &settings.sandbox_chain, chains) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::error!(error = %e, "the pay sandbox exchange is off");
                None
            }
        });
        if let Some(s) = &sandbox {
            exchanges.push(Exchange {
                id: SANDBOX_ID.to_owned(),
                name: "Sigil sandbox exchange".to_owned(),
                image_url: format!("{public_url}/public/getTokenImage/SBX"),
                url: format!("{public_url}/pay/sandbox/{{sessionId}}"),
                assets: Some(vec![format!("{}/*", s.chain)]),
            });
        }
        Pay { exchanges, sandbox, session_ttl: settings.session_ttl, sessions_per_hour: settings.sessions_per_hour }
    }

    pub fn exchange(&self, id: &str) -> Option<&Exchange> {
        self.exchanges.iter().find(|e| e.id == id)
    }
}

impl Exchange {
    /// Whether it deposits `asset` (its list, where it has one; `chain/*` is any asset there).
    pub fn serves(&self, asset: &AssetId) -> bool {
        let Some(list) = &self.assets else { return true };
        let id = asset.caip19();
        list.iter().any(|a| a.eq_ignore_ascii_case(&id) || a.strip_suffix("/*").is_some_and(|chain| chain == asset.chain))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assets() {
        assert_eq!(parse_asset("eip155:1/slip44:60").unwrap(), AssetId { chain: "eip155:1".into(), token: None });
        let t = parse_asset("eip155:8453/erc20:0x833589FCD6EDB6E08F4C7C32D4F71B54BDA02913").unwrap();
        assert_eq!(t.token.as_deref(), Some("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"));
        assert_eq!(t.caip19(), "eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913");
        for bad in
            ["", "eip155:1", "eip155:1/slip44:501", "eip155:1/erc20:0x12", "eip155/slip44:60", "eip155:1/erc721:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"]
        {
            assert!(parse_asset(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_asset("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/slip44:501").unwrap_err(), "only EVM (eip155) assets can be deposited");
    }

    #[test]
    fn amounts() {
        assert_eq!(parse_amount("0.05", 18).unwrap(), ("0.05".to_owned(), U256::from(50_000_000_000_000_000u64)));
        assert_eq!(parse_amount("2", 6).unwrap(), ("2".to_owned(), U256::from(2_000_000u64)));
        assert_eq!(parse_amount("1.", 6).unwrap(), ("1".to_owned(), U256::from(1_000_000u64)));
        assert_eq!(parse_amount("1.1234567", 6).unwrap_err(), "at most 6 decimals");
        assert_eq!(parse_amount("0", 6).unwrap_err(), "must be above 0");
        for bad in ["", "-1", "1e3", ".5", "0x10", "1,5", "NaN"] {
            assert!(parse_amount(bad, 18).is_err(), "{bad}");
        }
        assert!(parse_amount(&"9".repeat(79), 0).is_err());
    }

    #[test]
    fn exponents_as_javascript_writes_them() {
        assert_eq!(plain_decimal("1e-7"), "0.0000001");
        assert_eq!(plain_decimal("1.5e-7"), "0.00000015");
        assert_eq!(plain_decimal("1.5e+21"), "1500000000000000000000");
        assert_eq!(plain_decimal("2E3"), "2000");
        assert_eq!(plain_decimal("0.05"), "0.05");
        assert_eq!(plain_decimal("1e-999"), "1e-999");
        assert_eq!(plain_decimal("-1e3"), "-1e3");
        assert_eq!(parse_amount(&plain_decimal("1e-7"), 18).unwrap().1, U256::from(100_000_000_000u64));
    }

    #[test]
    fn templates() {
        let file = r#"
[[exchange]]
id = "acme"
name = "Acme"
image_url = "https://acme.example/logo.png"
url = "https://acme.example/deposit?to={address}&asset={asset}&amount={amount}&ref={sessionId}"
"#;
        let ex = parse_exchanges(file).unwrap();
        assert_eq!(ex[0].id, "acme");
        let url = fill(&ex[0].url, &[("address", "0xab"), ("asset", "eip155:1/slip44:60"), ("amount", "1.5"), ("sessionId", "s1")]);
        assert_eq!(url, "https://acme.example/deposit?to=0xab&asset=eip155%3A1%2Fslip44%3A60&amount=1.5&ref=s1");
        assert!(parse_exchanges(&file.replace("{address}", "{addr}")).unwrap_err().contains("unknown placeholder {addr}"));
        assert!(parse_exchanges(&file.replace("https://acme.example/deposit", "javascript:alert(1)//")).unwrap_err().contains("not an http(s) URL"));
        assert!(parse_exchanges(&file.replace("\"acme\"", "\"sigil-sandbox\"")).unwrap_err().contains("taken"));
        assert!(parse_exchanges(&format!("{file}{file}")).unwrap_err().contains("taken"));
    }
}
