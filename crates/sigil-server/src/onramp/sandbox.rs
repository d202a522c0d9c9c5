//! The sandbox provider: this server plays an onramp provider on a dev chain, so `make demo`
//! and the tests run a whole purchase offline. It sells the chain's coin (and its USDC token,
//! when the chains config lists one, which the key's account must hold) from the account of
//! `--onramp-sandbox-key`. Prices come from the account area's source (a price pair, else the
//! static table), else `SANDBOX_USD_PRICE`. A purchase is paid on its own page
//! (`/onramp/sandbox/{id}`): the one UPDATE that moves the session to `paying` makes it single
//! use, then the bought amount is sent in an EIP-1559 transaction (the embedded wallet's signer,
//! families/evm.rs), its nonce from the pending count, the sandbox's sends one at a time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy_signer_local::PrivateKeySigner;
use serde_json::json;

use super::{Offer, PaymentCurrency, PurchaseCurrency, PurchaseNetwork};
use crate::chains::{ChainConfig, Chains};
use crate::rpc::jsonrpc::Reply;
use crate::rpc::Rpc;

/// How long a sandbox purchase may be paid after it was started.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 60);
/// How long a payment waits for its transaction's receipt.
pub const RECEIPT_WAIT: Duration = Duration::from_secs(20);
/// The USD price of the chain's coin when no price is known: 3000.
pub const SANDBOX_USD_PRICE: f64 = 3000.0;
/// The token the sandbox sells besides the coin, when the chain lists it.
pub const TOKEN_SYMBOL: &str = "USDC";

/// A sandbox key: 64 hex digits (0x optional), a valid secp256k1 secret.
pub fn parse_key(hex: &str) -> Result<PrivateKeySigner, &'static str> {
    let hex = hex.trim();
    let hex = hex.strip_prefix("0x").unwrap_or(hex);
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("expected a private key, 64 hex digits");
    }
    hex.parse::<PrivateKeySigner>().map_err(|_| "not a valid secp256k1 private key")
}

/// What the sandbox sells: the coin, or a token contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    pub symbol: String,
    pub name: String,
    pub decimals: u8,
    /// None for the chain's coin.
    pub contract: Option<String>,
}

pub struct Sandbox {
    key: PrivateKeySigner,
    pub chain: String,
    /// One send at a time, so two purchases never take the same nonce.
    sending: tokio::sync::Mutex<()>,
}

impl Sandbox {
    pub fn new(key: &str, chain: &str, chains: &Chains) -> Result<Sandbox, String> {
        let key = parse_key(key).map_err(str::to_owned)?;
        if !chain.starts_with("eip155:") || chains.get(chain).is_none() {
            return Err(format!("'{chain}' is not a configured EVM chain"));
        }
        Ok(Sandbox { key, chain: chain.to_owned(), sending: Default::default() })
    }

    /// The seller's address.
    pub fn address(&self) -> String {
        self.key.address().to_checksum(None)
    }

    /// The assets on sale: the coin, then the chain's USDC if listed.
    pub fn assets(chain: &ChainConfig) -> Vec<Asset> {
        let mut assets = vec![Asset { symbol: chain.native.symbol.clone(), name: chain.native.name.clone(), decimals: chain.native.decimals, contract: None }];
        if let Some(t) = chain.tokens.iter().find(|t| t.symbol.eq_ignore_ascii_case(TOKEN_SYMBOL)) {
            assets.push(Asset {
                symbol: t.symbol.clone(),
                name: t.name.clone(),
                decimals: t.decimals,
                contract: Some(sigil_core::evm::checksummed(&t.address)),
            });
        }
        assets
    }

    /// The asset `symbol` (any case), if on sale.
    pub fn asset(chain: &ChainConfig, symbol: &str) -> Option<Asset> {
        Sandbox::assets(chain).into_iter().find(|a| a.symbol.eq_ignore_ascii_case(symbol))
    }

    /// The network entry of the chain in options: its name in lower case with dashes.
    pub fn network(chain: &ChainConfig, contract: Option<&str>) -> PurchaseNetwork {
        PurchaseNetwork {
            name: chain.name.to_ascii_lowercase().split_whitespace().collect::<Vec<_>>().join("-"),
            display_name: chain.name.clone(),
            chain_id: chain.id.trim_start_matches("eip155:").to_owned(),
            contract_address: contract.unwrap_or("").to_owned(),
        }
    }

    /// The assets on sale now: the coin, and the token only while the seller holds some (one
    /// `balanceOf` through the proxy; not listed when the chain does not say).
    pub async fn on_sale(&self, rpc: &Rpc, chain: &ChainConfig) -> Vec<Asset> {
        let mut assets = Sandbox::assets(chain);
        if let Some(token) = assets.get(1).and_then(|a| a.contract.clone()) {
            let held = match crate::rpc::calls::balance_of(&token, &self.address()) {
                Some(call) => crate::rpc::calls::batch(rpc, &chain.id, &[call]).await.ok().and_then(|r| r.into_iter().next().flatten()),
                None => None,
            };
            if held.as_deref().is_none_or(sigil_core::amount::is_zero_hex) {
                assets.truncate(1);
            }
        }
        assets
    }

    /// What the sandbox offers, in every country: the sample payment currencies and what is on
    /// sale.
    pub async fn offer(&self, rpc: &Rpc, chain: &ChainConfig) -> Offer {
        let purchase = self
            .on_sale(rpc, chain)
            .await
            .into_iter()
            .map(|a| PurchaseCurrency {
                id: a.symbol.clone(),
                name: a.name.clone(),
                symbol: a.symbol.clone(),
                networks: vec![Sandbox::network(chain, a.contract.as_deref())],
            })
            .collect();
        let payment: Vec<PaymentCurrency> = super::sample_payment_currencies();
        Offer { payment, purchase }
    }

    /// The asset's USD price: the account area's source, else the sandbox's fixed ones
    /// (`SANDBOX_USD_PRICE` for the coin, 1 for USDC).
    pub async fn usd_price(rpc: &Rpc, chains: &Chains, chain: &ChainConfig, asset: &Asset) -> f64 {
        let known = crate::account::prices::usd_price(rpc, chains, chain, asset.contract.as_deref(), &asset.symbol).await;
        known.filter(|p| p.is_finite() && *p > 0.0).unwrap_or(if asset.contract.is_some() { 1.0 } else { SANDBOX_USD_PRICE })
    }

    /// Sends `amount` (the asset's smallest unit) to `to` and waits for the receipt: the
    /// transaction hash, or why it failed (no key, URL or node detail in it).
    pub async fn send(&self, rpc: &Arc<Rpc>, asset: &Asset, to: &str, amount: alloy_primitives::U256) -> Result<String, String> {
        let tx = match &asset.contract {
            None => json!({"to": to, "value": format!("{amount:#x}"), "gas": "0x5208"}),
            Some(token) => {
                let to = sigil_core::evm::parse_address(to).ok_or("the destination is not an EVM address")?;
                let data = format!("0xa9059cbb{:0>64}{:0>64}", hex::encode(to.as_slice()), format!("{amount:x}"));
                json!({"to": token, "value": "0x0", "data": data})
            }
        };
        let hash = {
            let _one_at_a_time = self.sending.lock().await;
            crate::families::evm::send_transaction(&self.key, rpc, &self.chain, &json!([tx])).await.map_err(|e| match e {
                crate::families::SignError::Refused(r) => format!("the chain refused the transfer: {}", r.message),
                _ => "the sandbox chain is not answering".to_owned(),
            })?
        };
        let deadline = Instant::now() + RECEIPT_WAIT;
        loop {
            let params = json!([hash]).to_string();
            if let Ok(Reply::Result(raw)) = rpc.call(&self.chain, "eth_getTransactionReceipt", Some(&params)).await {
                let receipt: serde_json::Value = serde_json::from_str(&raw).unwrap_or_default();
                if !receipt.is_null() {
                    return match receipt["status"].as_str() {
                        Some("0x1") => Ok(hash),
                        _ => Err(format!("the transfer {hash} failed on chain")),
                    };
                }
            }
            if Instant::now() >= deadline {
                return Err(format!("the transfer {hash} was not mined within {} s", RECEIPT_WAIT.as_secs()));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        assert!(parse_key("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80").is_ok());
        assert!(parse_key("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80").is_ok());
        assert!(parse_key("abc").is_err());
        assert!(parse_key(&"0".repeat(64)).is_err());
    }
}
