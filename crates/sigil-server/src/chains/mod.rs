//! Chains as configuration: for each CAIP-2 id, upstream JSON-RPC endpoints, the native
//! currency, a token list and a testnet flag. Built in from config/chains.toml, or a file given
//! with `--chains`.

pub mod routes;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use sigil_core::caip::{is_evm_address, ChainId, ChainKind, Namespace};

const BUILT_IN: &str = include_str!("../../../../config/chains.toml");

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NativeCurrency {
    pub name: String,
    pub symbol: String,
    pub decimals: u8,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Token {
    pub address: String,
    pub symbol: String,
    pub name: String,
    pub decimals: u8,
    pub icon: Option<String>,
}

impl ChainConfig {
    /// The listed token at `address` (case-insensitive).
    pub fn token(&self, address: &str) -> Option<&Token> {
        self.tokens.iter().find(|t| t.address.eq_ignore_ascii_case(address))
    }

    /// The chain's kind, from its CAIP-2 namespace (checked when the chains were loaded).
    pub fn kind(&self) -> ChainKind {
        self.id.parse::<ChainId>().ok().and_then(|id| id.known_namespace()).map_or(ChainKind::Other, Namespace::kind)
    }

    /// Every method the proxy forwards for this chain.
    pub fn allowed_methods(&self) -> impl Iterator<Item = &str> {
        let namespace = self.id.parse::<ChainId>().ok().and_then(|id| id.known_namespace());
        let defaults = namespace.map(sigil_core::rpc_methods::default_allowed).unwrap_or_default();
        defaults.iter().copied().chain(self.allow_methods.iter().map(String::as_str))
    }
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChainConfig {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub testnet: bool,
    pub rpc: Vec<String>,
    #[serde(default)]
    pub ws: Vec<String>,
    pub native: NativeCurrency,
    #[serde(default)]
    pub tokens: Vec<Token>,
    pub ens_registry: Option<String>,
    /// Tokens priced from a Uniswap-v2-style pair's reserves against a stablecoin.
    #[serde(default)]
    pub price_pairs: Vec<PricePair>,
    /// Esplora-compatible API (electrs, mempool.space) of a Bitcoin chain: its balances.
    pub esplora: Option<String>,
    /// JSON-RPC methods the proxy forwards for this chain beyond its namespace's defaults
    /// (sigil_core::rpc_methods); signing and node-admin methods are refused.
    #[serde(default)]
    pub allow_methods: Vec<String>,
    /// How the chain's transaction history is indexed (EVM chains).
    #[serde(default)]
    pub history: ChainHistory,
    /// Where the chain's swaps are quoted and built (the convert area); none: 'Network not
    /// supported for Swaps'.
    #[serde(default)]
    pub swap: Option<SwapSource>,
    /// EIP-7702 smart accounts for the embedded wallet on this chain (a Prague node and the
    /// implementation deployed); none: its accounts stay plain EOAs.
    #[serde(default)]
    pub smart_account: Option<SmartAccount>,
}

/// `smart_account = { implementation = "0x.." }`: the Simple7702Account (eth-infinitism's
/// account-abstraction v0.8) that embedded wallets delegate to. With `bundler` and `paymaster`
/// (off by default), batches are ERC-4337 user operations whose gas the paymaster service
/// (ERC-7677) pays: `{ implementation = "0x..", bundler = "https://..", paymaster = "https://.." }`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SmartAccount {
    pub implementation: String,
    /// An ERC-4337 bundler's JSON-RPC URL (eth_estimateUserOperationGas, eth_sendUserOperation,
    /// eth_getUserOperationReceipt).
    #[serde(default)]
    pub bundler: Option<String>,
    /// An ERC-7677 paymaster service's URL (pm_getPaymasterStubData, pm_getPaymasterData).
    #[serde(default)]
    pub paymaster: Option<String>,
    /// The EntryPoint v0.8 (default: its canonical address, the one Simple7702Account trusts).
    #[serde(default)]
    pub entry_point: Option<String>,
}

/// A chain's swap source, one key of its `swap` table:
/// `swap = { uniswap_v2 = { router = "0x..", base_tokens = ["0x.."], reset_allowance = ["0x.."] } }`,
/// or an aggregator reached over HTTP with an API key:
/// `swap = { oneinch = { url = "https://api.1inch.dev", api_key_env = "ONEINCH_API_KEY" } }`
/// (likewise `zerox` and `lifi`).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum SwapSource {
    /// A Uniswap-V2-style router on the chain, read with `eth_call` (no API key).
    UniswapV2(UniswapV2Source),
    /// 1inch's Swap API v6 (its API key is required).
    #[serde(rename = "oneinch")]
    OneInch(AggregatorSource),
    /// 0x's Swap API v2, allowance-holder flavour (its API key is required).
    #[serde(rename = "zerox")]
    ZeroX(AggregatorSource),
    /// LI.FI's quote API, same-chain swaps (its API key is optional).
    #[serde(rename = "lifi")]
    LiFi(AggregatorSource),
}

/// A swap aggregator's API: `{ url = "https://api.1inch.dev", api_key_env = "ONEINCH_API_KEY" }`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AggregatorSource {
    /// The API's base URL (its documented paths are added).
    pub url: String,
    /// The environment variable holding the API key (read at each request; never logged nor
    /// answered).
    pub api_key_env: Option<String>,
}

/// A Uniswap-V2-style router (Router02's interface) and how routes are sought through it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UniswapV2Source {
    /// The router's address; its factory and wrapped native token are read from it.
    pub router: String,
    /// Tokens a route may pass through (one hop between the two traded tokens), besides the
    /// router's wrapped native token, which always is one.
    #[serde(default)]
    pub base_tokens: Vec<String>,
    /// Tokens whose allowance must go back to 0 before it is set to another non-zero amount
    /// (mainnet USDT): an approval of them says so and gives the reset transaction.
    #[serde(default)]
    pub reset_allowance: Vec<String>,
}

/// `history = { from_block = 0 }` or `history = { enabled = false }` in a chain's entry.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChainHistory {
    /// The first block indexed; unset: the chain's head when indexing first starts (a public
    /// chain is not read from its genesis).
    pub from_block: Option<u64>,
    /// false: the chain's history is not indexed.
    pub enabled: Option<bool>,
    /// An explorer that fills an address's history older than `from_block` (required with it),
    /// once per address, when its pages reach the bottom of the index (history/upstream.rs).
    pub upstream: Option<HistoryUpstream>,
}

/// `upstream = { kind = "blockscout", url = "https://eth.blockscout.com" }` or
/// `{ kind = "etherscan", url = "https://api.etherscan.io", api_key_env = "ETHERSCAN_API_KEY" }`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HistoryUpstream {
    pub kind: UpstreamKind,
    /// The explorer's base URL (its API paths are added).
    pub url: String,
    /// The environment variable holding the API key (read when a fill starts; never logged).
    pub api_key_env: Option<String>,
}

/// The wire style of a history upstream.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum UpstreamKind {
    /// Blockscout's REST API v2 (/api/v2/addresses/{a}/...), paged by `next_page_params`.
    Blockscout,
    /// Etherscan's API v2 (/v2/api?chainid=..&module=account&action=..), paged by `endblock`.
    Etherscan,
}

/// `token` is priced from `pair`'s reserves against `quote`, a USD stablecoin; both tokens must
/// be in the chain's token list (for their decimals).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PricePair {
    pub token: String,
    pub pair: String,
    pub quote: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChainsFile {
    chains: Vec<ChainConfig>,
    /// USD prices by token symbol (a static source, for development).
    #[serde(default)]
    static_prices: BTreeMap<String, f64>,
}

#[derive(Debug, thiserror::Error)]
pub enum ChainsError {
    #[error("cannot read chains file {0}: {1}")]
    Read(String, std::io::Error),
    #[error("chains file {0}: {1}")]
    Parse(String, String),
    #[error("chain {0}: {1}")]
    Invalid(String, String),
}

/// Every configured chain, by CAIP-2 id.
#[derive(Debug, Clone, Default)]
pub struct Chains {
    pub by_id: BTreeMap<String, ChainConfig>,
    /// USD price by upper-case symbol.
    pub static_prices: BTreeMap<String, f64>,
    /// The chain whose ENS registry answers identity lookups: a dev deployment's names, else
    /// Ethereum's, else the first chain with a registry.
    pub ens_chain: Option<String>,
}

impl Chains {
    pub fn built_in() -> Chains {
        Self::parse(BUILT_IN, "built-in config/chains.toml").expect("built-in chains are valid")
    }

    pub fn from_file(path: &Path) -> Result<Chains, ChainsError> {
        let text = std::fs::read_to_string(path).map_err(|e| ChainsError::Read(path.display().to_string(), e))?;
        Self::parse(&text, &path.display().to_string())
    }

    pub fn parse(text: &str, origin: &str) -> Result<Chains, ChainsError> {
        let file: ChainsFile = toml::from_str(text).map_err(|e| ChainsError::Parse(origin.to_owned(), e.message().to_owned()))?;
        let mut chains = Self::from_list(file.chains)?;
        chains.static_prices = file.static_prices.into_iter().map(|(k, v)| (k.to_ascii_uppercase(), v)).collect();
        Ok(chains)
    }

    pub fn from_list(list: Vec<ChainConfig>) -> Result<Chains, ChainsError> {
        let mut by_id = BTreeMap::new();
        for chain in list {
            let invalid = |m: String| ChainsError::Invalid(chain.id.clone(), m);
            let id: ChainId = chain.id.parse().map_err(|e: sigil_core::caip::CaipError| invalid(e.to_string()))?;
            id.known_namespace().ok_or_else(|| invalid(format!("namespace '{}' is not one of eip155, solana, bip122, polkadot, cosmos", id.namespace())))?;
            if chain.rpc.is_empty() && !(chain.kind() == ChainKind::Bitcoin && chain.esplora.is_some()) {
                return Err(invalid("needs at least one rpc URL (a Bitcoin chain: an esplora URL)".into()));
            }
            for u in chain.rpc.iter().chain(chain.ws.iter()).chain(chain.esplora.iter()) {
                let parsed = url::Url::parse(u).map_err(|e| invalid(format!("'{u}' is not a URL: {e}")))?;
                if !matches!(parsed.scheme(), "http" | "https" | "ws" | "wss") {
                    return Err(invalid(format!("'{u}' must be http(s) or ws(s)")));
                }
            }
            if chain.kind() == ChainKind::Evm {
                for t in &chain.tokens {
                    if !is_evm_address(&t.address) {
                        return Err(invalid(format!("token {} address '{}' is not an EVM address", t.symbol, t.address)));
                    }
                }
            }
            for p in &chain.price_pairs {
                for addr in [&p.token, &p.quote] {
                    if chain.token(addr).is_none() {
                        return Err(invalid(format!("price pair token {addr} is not in the chain's token list")));
                    }
                }
                if !is_evm_address(&p.pair) {
                    return Err(invalid(format!("price pair address '{}' is not an EVM address", p.pair)));
                }
            }
            if let Some(m) = chain.allow_methods.iter().find(|m| sigil_core::rpc_methods::is_never_allowed(m)) {
                return Err(invalid(format!("allow_methods: {m} signs with a node-held key or administers the node, and is never forwarded")));
            }
            if let Some(upstream) = &chain.history.upstream {
                if chain.kind() != ChainKind::Evm {
                    return Err(invalid("history.upstream is for EVM chains".into()));
                }
                if chain.history.from_block.is_none() {
                    return Err(invalid("history.upstream needs history.from_block: it fills what is older".into()));
                }
                let parsed = url::Url::parse(&upstream.url).map_err(|e| invalid(format!("history.upstream url '{}' is not a URL: {e}", upstream.url)))?;
                if !matches!(parsed.scheme(), "http" | "https") {
                    return Err(invalid(format!("history.upstream url '{}' must be http(s)", upstream.url)));
                }
            }
            if let Some(SwapSource::UniswapV2(v2)) = &chain.swap {
                if chain.kind() != ChainKind::Evm {
                    return Err(invalid("swap.uniswap_v2 is for EVM chains".into()));
                }
                let mut addresses = std::iter::once(&v2.router).chain(&v2.base_tokens).chain(&v2.reset_allowance);
                if let Some(bad) = addresses.find(|a| sigil_core::evm::parse_address(a).is_none()) {
                    return Err(invalid(format!("swap.uniswap_v2: '{bad}' is not an EVM address (0x and 40 hex digits)")));
                }
                if v2.base_tokens.len() > crate::convert::uniswap_v2::MAX_BASE_TOKENS {
                    return Err(invalid(format!("swap.uniswap_v2.base_tokens: at most {}", crate::convert::uniswap_v2::MAX_BASE_TOKENS)));
                }
            }
            if let Some(SwapSource::OneInch(a) | SwapSource::ZeroX(a) | SwapSource::LiFi(a)) = &chain.swap {
                let key = match &chain.swap {
                    Some(SwapSource::OneInch(_)) => "oneinch",
                    Some(SwapSource::ZeroX(_)) => "zerox",
                    _ => "lifi",
                };
                if chain.kind() != ChainKind::Evm {
                    return Err(invalid(format!("swap.{key} is for EVM chains")));
                }
                let parsed = url::Url::parse(&a.url).map_err(|e| invalid(format!("swap.{key}.url '{}' is not a URL: {e}", a.url)))?;
                if !matches!(parsed.scheme(), "http" | "https") {
                    return Err(invalid(format!("swap.{key}.url '{}' must be http(s)", a.url)));
                }
                if key != "lifi" && a.api_key_env.as_deref().is_none_or(str::is_empty) {
                    return Err(invalid(format!("swap.{key} needs api_key_env: the environment variable holding its API key")));
                }
            }
            if let Some(account) = &chain.smart_account {
                if chain.kind() != ChainKind::Evm || sigil_core::evm::parse_address(&account.implementation).is_none() {
                    return Err(invalid(format!("smart_account.implementation '{}' must be an EVM address on an eip155 chain", account.implementation)));
                }
                if account.bundler.is_some() != account.paymaster.is_some() {
                    return Err(invalid("smart_account: bundler and paymaster go together (sponsored batches need both)".into()));
                }
                for url in account.bundler.iter().chain(&account.paymaster) {
                    if !url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https")) {
                        return Err(invalid(format!("smart_account: '{url}' is not an http(s) URL")));
                    }
                }
                if let Some(entry_point) = account.entry_point.as_deref().filter(|e| sigil_core::evm::parse_address(e).is_none()) {
                    return Err(invalid(format!("smart_account.entry_point '{entry_point}' is not an EVM address")));
                }
            }
            if let Some(registry) = &chain.ens_registry {
                if chain.kind() != ChainKind::Evm || !is_evm_address(registry) {
                    return Err(invalid(format!("ens_registry '{registry}' must be an EVM address on an eip155 chain")));
                }
            }
            if by_id.insert(id.to_string(), chain.clone()).is_some() {
                return Err(invalid("listed twice".into()));
            }
        }
        let with_registry = |id: &&String| by_id.get(*id).is_some_and(|c: &ChainConfig| c.ens_registry.is_some());
        let ens_chain = ["eip155:1".to_owned()].iter().find(with_registry).or_else(|| by_id.keys().find(with_registry)).cloned();
        Ok(Chains { by_id, static_prices: BTreeMap::new(), ens_chain })
    }

    /// Static USD price for a symbol.
    pub fn static_price(&self, symbol: &str) -> Option<f64> {
        self.static_prices.get(&symbol.to_ascii_uppercase()).copied()
    }

    pub fn get(&self, id: &str) -> Option<&ChainConfig> {
        self.by_id.get(id)
    }

    /// Adds the tokens, price pairs and swap router of a dev-chain deployment
    /// (devchain/deploy.mjs output) to the chain it names, and points that chain at its RPC URL.
    pub fn apply_deployment(&mut self, json: &str) -> Result<(), ChainsError> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Deployment {
            chain_id: String,
            rpc_url: String,
            tokens: Vec<DeployedToken>,
            #[serde(default)]
            pairs: Vec<DeployedPair>,
            ens: Option<DeployedNames>,
            uniswap_v2: Option<DeployedUniswap>,
            smart_account: Option<SmartAccount>,
        }
        /// A deployed token; `noReturn` marks a USDT-like token (its allowance is reset to 0
        /// before it changes); other fields are for other readers.
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct DeployedToken {
            address: String,
            symbol: String,
            name: String,
            decimals: u8,
            #[serde(default)]
            no_return: bool,
        }
        /// Uniswap V2 on the dev chain: the router, and its pools by the symbols they trade.
        #[derive(Deserialize)]
        struct DeployedUniswap {
            router: String,
            #[serde(default)]
            pools: Vec<DeployedPool>,
        }
        #[derive(Deserialize)]
        struct DeployedPool {
            tokens: Vec<String>,
        }
        #[derive(Deserialize)]
        struct DeployedNames {
            registry: String,
        }
        #[derive(Deserialize)]
        struct DeployedPair {
            address: String,
            base: String,
            quote: String,
        }
        let d: Deployment = serde_json::from_str(json).map_err(|e| ChainsError::Parse("deployment".into(), e.to_string()))?;
        let chain = self
            .by_id
            .get_mut(&d.chain_id)
            .ok_or_else(|| ChainsError::Invalid(d.chain_id.clone(), "deployment names a chain that is not configured".into()))?;
        chain.ws = crate::rpc::head::ws_url_for(&d.rpc_url).into_iter().collect();
        chain.rpc = vec![d.rpc_url];
        let by_symbol = |sym: &str| d.tokens.iter().find(|t| t.symbol == sym).map(|t| t.address.clone());
        for p in &d.pairs {
            let (Some(token), Some(quote)) = (by_symbol(&p.base), by_symbol(&p.quote)) else {
                return Err(ChainsError::Invalid(d.chain_id.clone(), format!("pair {} names tokens the deployment lacks", p.address)));
            };
            chain.price_pairs.push(PricePair { token, pair: p.address.clone(), quote });
        }
        if let Some(v2) = &d.uniswap_v2 {
            if sigil_core::evm::parse_address(&v2.router).is_none() {
                return Err(ChainsError::Invalid(d.chain_id.clone(), format!("uniswapV2 router '{}' is not an EVM address", v2.router)));
            }
            // Every deployed token with a pool is a base of routes (the native token's wrapper
            // is one anyway, read from the router).
            let pooled = |sym: &str| v2.pools.iter().any(|p| p.tokens.iter().any(|t| t == sym));
            chain.swap = Some(SwapSource::UniswapV2(UniswapV2Source {
                router: v2.router.clone(),
                base_tokens: d.tokens.iter().filter(|t| pooled(&t.symbol)).map(|t| t.address.clone()).collect(),
                reset_allowance: d.tokens.iter().filter(|t| t.no_return).map(|t| t.address.clone()).collect(),
            }));
        }
        if let Some(account) = d.smart_account {
            if sigil_core::evm::parse_address(&account.implementation).is_none() {
                return Err(ChainsError::Invalid(d.chain_id, format!("smartAccount implementation '{}' is not an EVM address", account.implementation)));
            }
            chain.smart_account = Some(account);
        }
        for t in d.tokens {
            if chain.token(&t.address).is_none() {
                chain.tokens.push(Token { address: t.address, symbol: t.symbol, name: t.name, decimals: t.decimals, icon: None });
            }
        }
        if let Some(ens) = d.ens {
            if !is_evm_address(&ens.registry) {
                return Err(ChainsError::Invalid(d.chain_id, format!("ens registry '{}' is not an EVM address", ens.registry)));
            }
            chain.ens_registry = Some(ens.registry);
            self.ens_chain = Some(d.chain_id);
        }
        Ok(())
    }

    /// Points the local dev chain (eip155:31337) at `url` (and its WebSocket twin: anvil
    /// serves both on one port).
    pub fn set_dev_rpc(&mut self, url: &str) {
        if let Some(dev) = self.by_id.get_mut("eip155:31337") {
            dev.ws = crate::rpc::head::ws_url_for(url).into_iter().collect();
            dev.rpc = vec![url.to_owned()];
        }
    }
}

/// Chain routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::supported_chains))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_chains() {
        let c = Chains::built_in();
        let ids: Vec<&str> = c.by_id.keys().map(String::as_str).collect();
        assert_eq!(
            ids,
            [
                "bip122:000000000019d6689c085ae165831e93",
                "bip122:000000000933ea01ad0ee984209779ba",
                "eip155:1",
                "eip155:10",
                "eip155:137",
                "eip155:31337",
                "eip155:42161",
                "eip155:8453",
                "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z",
                "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
                "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"
            ]
        );
        assert_eq!(c.get("bip122:000000000019d6689c085ae165831e93").unwrap().kind(), ChainKind::Bitcoin);
        assert_eq!(c.get("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp").unwrap().native.decimals, 9);
        assert!(c.get("eip155:31337").unwrap().testnet);
        assert_eq!(c.get("eip155:1").unwrap().tokens[0].symbol, "USDC");
    }

    #[test]
    fn history_upstreams() {
        let chain = |history: &str| {
            format!("[[chains]]\nid = \"eip155:5\"\nname = \"x\"\nrpc = [\"http://a\"]\nnative = {{ name = \"E\", symbol = \"E\", decimals = 18 }}\nhistory = {history}\n")
        };
        let ok = Chains::parse(&chain(r#"{ from_block = 7, upstream = { kind = "etherscan", url = "https://api.etherscan.io", api_key_env = "K" } }"#), "t")
            .unwrap();
        assert_eq!(
            ok.get("eip155:5").unwrap().history.upstream,
            Some(HistoryUpstream { kind: UpstreamKind::Etherscan, url: "https://api.etherscan.io".into(), api_key_env: Some("K".into()) })
        );
        let err = Chains::parse(&chain(r#"{ upstream = { kind = "blockscout", url = "https://eth.blockscout.com" } }"#), "t").unwrap_err();
        assert_eq!(err.to_string(), "chain eip155:5: history.upstream needs history.from_block: it fills what is older");
        let err = Chains::parse(&chain(r#"{ from_block = 7, upstream = { kind = "blockscout", url = "ftp://x" } }"#), "t").unwrap_err();
        assert!(err.to_string().contains("must be http(s)"), "{err}");
        assert!(Chains::parse(&chain(r#"{ from_block = 7, upstream = { kind = "covalent", url = "https://x" } }"#), "t").is_err());
    }

    #[test]
    fn swap_sources() {
        let chain = |swap: &str| {
            format!("[[chains]]\nid = \"eip155:5\"\nname = \"x\"\nrpc = [\"http://a\"]\nnative = {{ name = \"E\", symbol = \"E\", decimals = 18 }}\nswap = {swap}\n")
        };
        let router = "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D";
        let ok = Chains::parse(&chain(&format!(r#"{{ uniswap_v2 = {{ router = "{router}", base_tokens = ["{router}"] }} }}"#)), "t").unwrap();
        assert_eq!(
            ok.get("eip155:5").unwrap().swap,
            Some(SwapSource::UniswapV2(UniswapV2Source { router: router.into(), base_tokens: vec![router.into()], reset_allowance: vec![] }))
        );
        let err = Chains::parse(&chain(r#"{ uniswap_v2 = { router = "0x12" } }"#), "t").unwrap_err();
        assert_eq!(err.to_string(), "chain eip155:5: swap.uniswap_v2: '0x12' is not an EVM address (0x and 40 hex digits)");
        assert!(Chains::parse(&chain(r#"{ sushi = { router = "0x12" } }"#), "t").is_err());
        let nine = vec![format!("\"{router}\""); 9].join(",");
        assert!(Chains::parse(&chain(&format!(r#"{{ uniswap_v2 = {{ router = "{router}", base_tokens = [{nine}] }} }}"#)), "t")
            .unwrap_err()
            .to_string()
            .contains("at most 8"));
        let ok = Chains::parse(&chain(r#"{ oneinch = { url = "https://api.1inch.dev", api_key_env = "ONEINCH_API_KEY" } }"#), "t").unwrap();
        assert_eq!(
            ok.get("eip155:5").unwrap().swap,
            Some(SwapSource::OneInch(AggregatorSource { url: "https://api.1inch.dev".into(), api_key_env: Some("ONEINCH_API_KEY".into()) }))
        );
        let ok = Chains::parse(&chain(r#"{ lifi = { url = "https://li.quest" } }"#), "t").unwrap();
        assert_eq!(ok.get("eip155:5").unwrap().swap, Some(SwapSource::LiFi(AggregatorSource { url: "https://li.quest".into(), api_key_env: None })));
        let err = Chains::parse(&chain(r#"{ zerox = { url = "https://api.0x.org" } }"#), "t").unwrap_err();
        assert_eq!(err.to_string(), "chain eip155:5: swap.zerox needs api_key_env: the environment variable holding its API key");
        let err = Chains::parse(&chain(r#"{ oneinch = { url = "ftp://x", api_key_env = "K" } }"#), "t").unwrap_err();
        assert!(err.to_string().contains("must be http(s)"), "{err}");
        assert!(Chains::parse(&chain(r#"{ lifi = { url = "https://li.quest", api_key = "secret" } }"#), "t").is_err());
        let built_in = Chains::built_in();
        let with_swaps: Vec<&str> = built_in.by_id.values().filter(|c| c.swap.is_some()).map(|c| c.id.as_str()).collect();
        assert_eq!(with_swaps, ["eip155:1", "eip155:10", "eip155:137", "eip155:42161", "eip155:8453"]);
    }

    #[test]
    fn rejects_bad_chains() {
        let err =
            Chains::parse("[[chains]]\nid = \"eip155\"\nname = \"x\"\nrpc = [\"http://a\"]\nnative = { name = \"E\", symbol = \"E\", decimals = 18 }\n", "t")
                .unwrap_err();
        assert!(err.to_string().starts_with("chain eip155:"), "{err}");
        let err = Chains::parse("[[chains]]\nid = \"eip155:5\"\nname = \"x\"\nrpc = []\nnative = { name = \"E\", symbol = \"E\", decimals = 18 }\n", "t")
            .unwrap_err();
        assert_eq!(err.to_string(), "chain eip155:5: needs at least one rpc URL (a Bitcoin chain: an esplora URL)");
        let err = Chains::parse("[[chains]]\nid = \"eip155:5\"\nname = \"x\"\nrpc = [\"http://a\"]\nnative = { name = \"E\", symbol = \"E\", decimals = 18 }\ntokens = [{ address = \"0x12\", symbol = \"T\", name = \"T\", decimals = 1 }]\n", "t").unwrap_err();
        assert!(err.to_string().contains("not an EVM address"));
        let err = Chains::parse("[[chains]]\nid = \"eip155:5\"\nname = \"x\"\nrpc = [\"http://a\"]\nnative = { name = \"E\", symbol = \"E\", decimals = 18 }\nallow_methods = [\"trace_block\", \"anvil_setBalance\"]\n", "t").unwrap_err();
        assert_eq!(
            err.to_string(),
            "chain eip155:5: allow_methods: anvil_setBalance signs with a node-held key or administers the node, and is never forwarded"
        );
    }

    #[test]
    fn allowed_methods_are_the_namespace_defaults_plus_the_chain_s_own() {
        let c = Chains::parse("[[chains]]\nid = \"eip155:5\"\nname = \"x\"\nrpc = [\"http://a\"]\nnative = { name = \"E\", symbol = \"E\", decimals = 18 }\nallow_methods = [\"trace_block\"]\n", "t").unwrap();
        let methods: Vec<&str> = c.get("eip155:5").unwrap().allowed_methods().collect();
        assert!(methods.contains(&"eth_call") && methods.contains(&"eth_sendRawTransaction") && methods.contains(&"trace_block"));
        assert!(!methods.contains(&"eth_sendTransaction") && !methods.contains(&"anvil_setBalance"));
    }
}

#[cfg(test)]
mod deployment_tests {
    use super::*;

    #[test]
    fn applies_a_deployment_to_the_dev_chain() {
        let mut c = Chains::built_in();
        let json = r#"{"chainId":"eip155:31337","rpcUrl":"http://127.0.0.1:9999","deployer":"0x1",
            "tokens":[{"address":"0x5FbDB2315678afecb367f032d93F642f64180aa3","symbol":"SGL","name":"Sigil","decimals":18},
                      {"address":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512","symbol":"USDC","name":"USD Coin (test)","decimals":6},
                      {"address":"0xa82fF9aFd8f496c3d6ac40E2a0F282E47488CFc9","symbol":"USDT","name":"Tether USD (test)","decimals":6,"noReturn":true}],
            "pairs":[{"address":"0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0","base":"SGL","quote":"USDC"}]}"#;
        c.apply_deployment(json).unwrap();
        let dev = c.get("eip155:31337").unwrap();
        assert_eq!(dev.rpc, ["http://127.0.0.1:9999"]);
        assert_eq!(dev.ws, ["ws://127.0.0.1:9999"]);
        assert_eq!(dev.tokens.iter().map(|t| t.symbol.as_str()).collect::<Vec<_>>(), ["SGL", "USDC", "USDT"]);
        assert_eq!(dev.price_pairs[0].token, "0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assert_eq!(dev.swap, None, "no router in this deployment");
        assert!(c.apply_deployment(r#"{"chainId":"eip155:5","rpcUrl":"x","tokens":[]}"#).is_err());
    }

    #[test]
    fn a_deployments_uniswap_router_is_the_dev_chains_swap_source() {
        let mut c = Chains::built_in();
        let json = r#"{"chainId":"eip155:31337","rpcUrl":"http://127.0.0.1:9999",
            "tokens":[{"address":"0x5FbDB2315678afecb367f032d93F642f64180aa3","symbol":"SGL","name":"Sigil","decimals":18},
                      {"address":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512","symbol":"USDC","name":"USD Coin (test)","decimals":6},
                      {"address":"0xa82fF9aFd8f496c3d6ac40E2a0F282E47488CFc9","symbol":"USDT","name":"Tether USD (test)","decimals":6,"noReturn":true}],
            "uniswapV2":{"router":"0x9A676e781A523b5d0C0e43731313A708CB607508","factory":"0x0B306BF915C4d645ff596e518fAf3F9669b97016",
                         "pools":[{"tokens":["ETH","SGL"]},{"tokens":["SGL","USDT"]}]}}"#;
        c.apply_deployment(json).unwrap();
        let dev = c.get("eip155:31337").unwrap();
        assert_eq!(
            dev.swap,
            Some(SwapSource::UniswapV2(UniswapV2Source {
                router: "0x9A676e781A523b5d0C0e43731313A708CB607508".into(),
                base_tokens: vec!["0x5FbDB2315678afecb367f032d93F642f64180aa3".into(), "0xa82fF9aFd8f496c3d6ac40E2a0F282E47488CFc9".into()],
                reset_allowance: vec!["0xa82fF9aFd8f496c3d6ac40E2a0F282E47488CFc9".into()],
            }))
        );
        let bad = r#"{"chainId":"eip155:31337","rpcUrl":"http://x","tokens":[],"uniswapV2":{"router":"0x12"}}"#;
        assert!(c.apply_deployment(bad).unwrap_err().to_string().contains("uniswapV2 router '0x12'"));
    }

    #[test]
    fn names_come_from_ethereum_unless_a_deployment_brings_its_own() {
        let mut c = Chains::built_in();
        assert_eq!(c.ens_chain.as_deref(), Some("eip155:1"));
        let json = r#"{"chainId":"eip155:31337","rpcUrl":"http://127.0.0.1:9999","tokens":[],
            "ens":{"registry":"0x610178dA211FEF7D417bC0e6FeD39F05609AD788","resolver":"0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e"}}"#;
        c.apply_deployment(json).unwrap();
        assert_eq!(c.ens_chain.as_deref(), Some("eip155:31337"));
        assert_eq!(c.get("eip155:31337").unwrap().ens_registry.as_deref(), Some("0x610178dA211FEF7D417bC0e6FeD39F05609AD788"));
        let bad = r#"{"chainId":"eip155:31337","rpcUrl":"http://x","tokens":[],"ens":{"registry":"0x12"}}"#;
        assert!(c.apply_deployment(bad).unwrap_err().to_string().contains("ens registry '0x12'"));
        let none =
            Chains::parse("[[chains]]\nid = \"eip155:5\"\nname = \"x\"\nrpc = [\"http://a\"]\nnative = { name = \"E\", symbol = \"E\", decimals = 18 }\n", "t")
                .unwrap();
        assert_eq!(none.ens_chain, None);
    }
}
