//! Known image ids for the directory's asset, currency and token image routes, with the label
//! their generated logo shows. Wallet logos come from the directory data instead.

/// Network and namespace images (`/public/getAssetImage/{id}`), keyed by CAIP-2 id, namespace
/// or network name (the modal's networks name theirs: `ethereum`, `polygon`, ...).
pub const ASSETS: &[(&str, &str)] = &[
    ("ethereum", "Ethereum"),
    ("arbitrum", "Arbitrum"),
    ("polygon", "Polygon"),
    ("base", "Base"),
    ("optimism", "Optimism"),
    ("bitcoin", "Bitcoin"),
    ("sigil-dev", "Sigil Dev"),
    ("eip155", "Ethereum"),
    ("solana", "Solana"),
    ("bip122", "Bitcoin"),
    ("polkadot", "Polkadot"),
    ("cosmos", "Cosmos"),
    ("eip155:1", "Ethereum"),
    ("eip155:10", "Optimism"),
    ("eip155:56", "BNB Chain"),
    ("eip155:100", "Gnosis"),
    ("eip155:137", "Polygon"),
    ("eip155:8453", "Base"),
    ("eip155:42161", "Arbitrum"),
    ("eip155:43114", "Avalanche"),
    ("eip155:11155111", "Sepolia"),
    ("eip155:31337", "Sigil Dev"),
    ("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "Solana"),
    ("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "Solana Devnet"),
    ("solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z", "Solana Testnet"),
    ("bip122:000000000019d6689c085ae165831e93", "Bitcoin"),
    ("bip122:000000000933ea01ad0ee984209779ba", "Bitcoin Testnet"),
];

/// Fiat currency images (`/public/getCurrencyImage/{id}`), by ISO 4217 code.
pub const CURRENCIES: &[(&str, &str)] = &[
    ("USD", "US Dollar"),
    ("EUR", "Euro"),
    ("GBP", "Pound Sterling"),
    ("JPY", "Yen"),
    ("CAD", "Canadian Dollar"),
    ("AUD", "Australian Dollar"),
    ("CHF", "Swiss Franc"),
    ("BRL", "Brazilian Real"),
    ("INR", "Indian Rupee"),
    ("SGD", "Singapore Dollar"),
];

/// Token images (`/public/getTokenImage/{id}`), by symbol.
pub const TOKENS: &[(&str, &str)] = &[
    ("ETH", "Ether"),
    ("WETH", "Wrapped Ether"),
    ("USDC", "USD Coin"),
    ("USDT", "Tether"),
    ("DAI", "Dai"),
    ("WBTC", "Wrapped Bitcoin"),
    ("BTC", "Bitcoin"),
    ("SOL", "Sol"),
    ("POL", "Polygon"),
    ("MATIC", "Matic"),
    ("ARB", "Arbitrum"),
    ("OP", "Optimism"),
    ("BNB", "BNB"),
    ("AVAX", "Avalanche"),
    ("LINK", "Chainlink"),
    ("UNI", "Uniswap"),
    ("SGL", "Sigil Token"),
];

/// The label for `id` in `table`, matched exactly (assets) or case-insensitively (codes, symbols).
pub fn label<'a>(table: &'a [(&'a str, &'a str)], id: &str) -> Option<&'a str> {
    table.iter().find(|(k, _)| k.eq_ignore_ascii_case(id)).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups() {
        assert_eq!(label(CURRENCIES, "usd"), Some("US Dollar"));
        assert_eq!(label(TOKENS, "ETH"), Some("Ether"));
        assert_eq!(label(ASSETS, "eip155:31337"), Some("Sigil Dev"));
        assert_eq!(label(ASSETS, "polygon"), Some("Polygon"));
        assert_eq!(label(TOKENS, "NOPE"), None);
    }
}
