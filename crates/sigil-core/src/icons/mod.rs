//! Real icons for the image routes, from openly licensed sets (data/icons/NOTICE.md): networks,
//! tokens and wallets from @web3icons/core (MIT), Sigil's own for the dev chain. Compiled in, so
//! the server needs no files or network for them. `scripts/icons.mjs` refreshes the set
//! (`set.rs` and the SVGs); where it has nothing, the routes draw the generated initials
//! (`crate::logo`).

mod set;

/// A wallet the set has, and what a directory record must show to take its icon.
pub struct WalletIcon {
    /// The set's name for it (the file under data/icons/wallets/).
    pub icon: &'static str,
    /// Names it goes by, in lowercase letters and digits only.
    pub names: &'static [&'static str],
    /// Its homepage's hosts (a subdomain counts).
    pub hosts: &'static [&'static str],
    /// Its EIP-6963 reverse-DNS ids.
    pub rdns: &'static [&'static str],
    pub svg: &'static str,
}

/// A network or namespace icon, by the image id of /public/getAssetImage/{id} (a CAIP-2 id, a
/// namespace or a network name).
pub fn asset(id: &str) -> Option<&'static str> {
    set::ASSETS.iter().find(|(k, _)| *k == id).map(|(_, svg)| *svg)
}

/// A token icon, by symbol (any case) or by contract or mint address (EVM addresses in any case).
pub fn token(symbol_or_address: &str) -> Option<&'static str> {
    let symbol = match set::TOKEN_ADDRESSES.iter().find(
        |(a, _, _)| {
            if a.starts_with("0x") {
                a.eq_ignore_ascii_case(symbol_or_address)
            } else {
                *a == symbol_or_address
            }
        },
    ) {
        Some((_, _, symbol)) => symbol,
        None => symbol_or_address,
    };
    set::TOKENS.iter().find(|(s, _)| s.eq_ignore_ascii_case(symbol)).map(|(_, svg)| *svg)
}

/// A wallet icon by the set's name for it (`coinbase`, `ledger`, ...).
pub fn wallet_named(icon: &str) -> Option<&'static str> {
    set::WALLETS.iter().find(|w| w.icon == icon).map(|w| w.svg)
}

fn plain(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// A homepage's host in lowercase, without "www.".
fn host(link: &str) -> Option<String> {
    let rest = link.split_once("://")?.1;
    let host = rest.split(['/', '?', '#', ':']).next()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
    (!host.is_empty()).then_some(host)
}

/// The set's icon for a directory wallet, matched conservatively: the name must be one the icon
/// goes by, and the homepage must be the wallet's site or the rdns its id; a record with neither
/// goes by its name alone.
pub fn wallet(name: &str, homepage: Option<&str>, rdns: Option<&str>) -> Option<&'static WalletIcon> {
    let name = plain(name);
    let host = homepage.and_then(host);
    let rdns = rdns.map(str::to_ascii_lowercase);
    set::WALLETS.iter().find(|w| {
        if !w.names.contains(&name.as_str()) {
            return false;
        }
        let site = host.as_deref().is_some_and(|h| w.hosts.iter().any(|s| h == *s || h.ends_with(&format!(".{s}"))));
        let id = rdns.as_deref().is_some_and(|r| w.rdns.contains(&r));
        site || id || (host.is_none() && rdns.is_none())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;

    #[test]
    fn networks_tokens_and_the_dev_chain() {
        let eth = asset("eip155:1").unwrap();
        assert_eq!(asset("ethereum"), Some(eth));
        assert!(eth.starts_with("<svg"));
        assert_ne!(asset("eip155:42161"), Some(eth));
        assert_ne!(asset("eip155:137"), Some(eth));
        // The dev chain has its own icon, not Ethereum's.
        assert_eq!(asset("sigil-dev"), asset("eip155:31337"));
        assert!(asset("eip155:31337").is_some_and(|d| d != eth));
        assert_eq!(asset("eip155:999999"), None);
        assert_eq!(token("usdc"), token("USDC"));
        assert_eq!(token("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"), token("USDC"));
        assert_eq!(token("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"), token("USDC"));
        assert_eq!(token("epjfwdd5aufqsseqm2qn1xzybapc8g4wegGkZwyTDt1v"), None);
        assert_eq!(token("SGL"), None);
        // Every icon is an image id or symbol the catalogue knows (so the routes answer it).
        for (id, _) in set::ASSETS {
            assert!(catalogue::label(catalogue::ASSETS, id).is_some(), "{id}");
        }
        for (symbol, _) in set::TOKENS {
            assert!(catalogue::label(catalogue::TOKENS, symbol).is_some(), "{symbol}");
        }
    }

    #[test]
    fn wallets_match_conservatively() {
        let icon = |name, homepage, rdns| wallet(name, homepage, rdns).map(|w| w.icon);
        assert_eq!(icon("Phantom", Some("https://phantom.app/"), Some("app.phantom")), Some("phantom"));
        assert_eq!(icon("Ronin Wallet", Some("https://wallet.roninchain.com/"), None), Some("ronin"));
        assert_eq!(icon("Coinbase Wallet", Some("https://www.coinbase.com/wallet/"), None), Some("coinbase"));
        assert_eq!(icon("Gemini Wallet", None, Some("com.gemini.wallet")), Some("gemini"));
        assert_eq!(icon("Trezor", None, None), Some("trezor"));
        // A name alone is not enough when the site says otherwise.
        assert_eq!(icon("SafeWallet", Some("https://safecryptowallet.io"), None), None);
        assert_eq!(icon("Safe", Some("https://safe.global/"), None), Some("safe"));
        assert_eq!(icon("Phantom", Some("https://phantom.example"), Some("com.other")), None);
        assert_eq!(icon("Phantom Finance", Some("https://phantom.app/"), None), None);
        assert_eq!(icon("Bitpie", None, None), None);
    }
}
