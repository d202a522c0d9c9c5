//! Chain families: the one place on the server that knows what differs between EVM, Solana and
//! Bitcoin chains. A `Family` is read once from a chain's CAIP-2 id; areas ask it instead of
//! matching namespaces themselves:
//! - address rules (`check_address`),
//! - what an account holds (`holdings`: balances before pricing),
//! - sign-in verification (`verify_sign_in`: the signature schemes, EIP-1271 on chain),
//! - the embedded wallet's keys and requests (`embedded_key`, `wallet_request`, `sign`).
//!
//! A new family is a module here and an arm in each of these, nothing elsewhere.

pub mod bitcoin;
pub mod evm;
pub mod evm_calls;
pub mod evm_sponsored;
pub mod solana;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sigil_core::caip::{ChainId, Namespace};
use sigil_core::siwx::{self, SignInMessage, VerifyError};

use crate::chains::ChainConfig;
use crate::error::{ApiError, ApiResult};
use crate::rpc::Rpc;
use crate::wallet::keys::KeyKind;
pub use evm_calls::AccountType;
use utoipa::ToSchema;

/// A chain family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    Evm,
    Solana,
    Bitcoin,
}

/// What an account holds of one asset, before pricing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    /// The token's address or mint; None for the chain's own currency.
    pub token: Option<String>,
    pub name: String,
    pub symbol: String,
    pub decimals: u8,
    pub icon: Option<String>,
    /// In the smallest unit, decimal digits.
    pub integer: String,
}

impl Holding {
    /// The chain's own currency, `integer` in its smallest unit.
    pub fn native(chain: &ChainConfig, integer: String) -> Holding {
        let native = &chain.native;
        Holding { token: None, name: native.name.clone(), symbol: native.symbol.clone(), decimals: native.decimals, icon: None, integer }
    }
}

/// Spec section 6 and the frame's own wording.
pub const NOT_ALLOWED: &str = "Requested RPC call is not allowed";

/// Why an embedded wallet's request was not signed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SignError {
    #[error("{NOT_ALLOWED}")]
    NotAllowed,
    #[error("Invalid params: {0}")]
    Params(String),
    /// The chain's node answered with a JSON-RPC error (funds, a revert, a nonce): the wallet
    /// gets that error as it is, not a server failure.
    #[error("{}", .0.message)]
    Refused(RpcError),
    /// The node could not be asked, or answered something that is not JSON-RPC.
    #[error("{0}")]
    Unreachable(String),
}

/// A JSON-RPC error object, as a node answered it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub data: Option<Value>,
}

impl RpcError {
    /// Reads a node's raw `error` member; one that is not an error object still refuses.
    pub fn from_raw(raw: &str) -> RpcError {
        serde_json::from_str(raw).unwrap_or_else(|_| RpcError { code: -32603, message: "the chain refused the call".into(), data: None })
    }
}

/// How the embedded wallet answers a request on a chain of a family.
#[derive(Debug, Clone, PartialEq)]
pub enum Handling {
    /// Answered from what the server knows (the account, the chain id).
    Local(Value),
    /// Signed with the user's key of the family (after the user approved it in the frame).
    Sign,
    /// Answered by the family from the chain, without the key (a batch's status, capabilities).
    Ask,
    /// Anything else: a read through the proxy, if the chain allows the method.
    Read,
}

impl Family {
    /// Every family, in the order accounts are listed.
    pub const ALL: [Family; 3] = [Family::Evm, Family::Solana, Family::Bitcoin];

    pub fn of_namespace(namespace: Namespace) -> Option<Family> {
        match namespace {
            Namespace::Eip155 => Some(Family::Evm),
            Namespace::Solana => Some(Family::Solana),
            Namespace::Bip122 => Some(Family::Bitcoin),
            Namespace::Polkadot | Namespace::Cosmos => None,
        }
    }

    /// The family of a CAIP-2 chain id, when it is one Sigil serves.
    pub fn of_chain(chain_id: &str) -> Option<Family> {
        chain_id.parse::<ChainId>().ok()?.known_namespace().and_then(Family::of_namespace)
    }

    /// The CAIP namespace of the family's chains.
    pub fn namespace(self) -> Namespace {
        match self {
            Family::Evm => Namespace::Eip155,
            Family::Solana => Namespace::Solana,
            Family::Bitcoin => Namespace::Bip122,
        }
    }

    /// The address as this family stores and compares it, or what was expected.
    pub fn check_address(self, address: &str) -> Result<String, &'static str> {
        match self {
            Family::Evm => evm::check_address(address),
            Family::Solana => solana::check_address(address),
            Family::Bitcoin => bitcoin::check_address(address),
        }
    }

    /// What `owner` holds on `chain`: the chain's currency first, then its tokens.
    pub async fn holdings(self, rpc: &Arc<Rpc>, chain: &ChainConfig, owner: &str) -> ApiResult<Vec<Holding>> {
        match self {
            Family::Evm => evm::holdings(rpc, chain, owner).await,
            Family::Solana => solana::holdings(rpc, chain, owner).await,
            Family::Bitcoin => bitcoin::holdings(rpc, chain, owner).await,
        }
    }

    /// Whether sign-in messages may name `chain` (a configured chain, or a Solana cluster).
    pub fn signs_in_on(self, chain: &str, rpc: &Arc<Rpc>) -> bool {
        rpc.chains().get(chain).is_some() || (self == Family::Solana && solana::is_cluster(chain))
    }

    /// Checks a sign-in message's signature: the scheme of its family (core's siwx), and for an
    /// EVM contract account, EIP-1271 on chain through the proxy.
    pub async fn verify_sign_in(self, rpc: &Arc<Rpc>, message: &SignInMessage, text: &str, signature: &str) -> Result<(), SignInRefusal> {
        match siwx::verify_message(message, signature) {
            Ok(()) => Ok(()),
            Err(VerifyError::AddressMismatch { .. }) if self == Family::Evm => evm::verify_contract_signature(rpc, message, text, signature).await,
            Err(VerifyError::BadSignature | VerifyError::AddressMismatch { .. }) => Err(SignInRefusal::Invalid),
            Err(e) => Err(SignInRefusal::Malformed(e.to_string())),
        }
    }

    /// The embedded wallet's key for this family's chains, when it has one.
    pub fn embedded_key(self) -> Option<KeyKind> {
        match self {
            Family::Evm => Some(KeyKind::Secp256k1),
            Family::Solana => Some(KeyKind::Ed25519),
            Family::Bitcoin => None,
        }
    }

    /// The family an embedded key signs for.
    pub fn of_key(kind: KeyKind) -> Family {
        match kind {
            KeyKind::Secp256k1 => Family::Evm,
            KeyKind::Ed25519 => Family::Solana,
        }
    }

    /// An embedded wallet's account address for a secret key of this family.
    pub fn embedded_address(self, secret: &[u8; 32]) -> Option<String> {
        match self {
            Family::Evm => Some(evm::address_of(secret)),
            Family::Solana => Some(solana::address_of(secret)),
            Family::Bitcoin => None,
        }
    }

    /// How the embedded wallet answers `method` on `chain` for `account`.
    pub fn wallet_request(self, method: &str, chain: &str, account: &str) -> Result<Handling, SignError> {
        match self {
            Family::Evm => evm::wallet_request(method, chain, account),
            Family::Solana => Ok(solana::wallet_request(method)),
            Family::Bitcoin => Ok(Handling::Read),
        }
    }

    /// Signs (and for a transaction, sends) an approved request with the user's key.
    pub async fn sign(self, secret: &[u8; 32], method: &str, params: &Value, rpc: &Arc<Rpc>, chain: &str, preference: AccountType) -> Result<Value, SignError> {
        match self {
            Family::Evm => evm::sign(secret, method, params, rpc, chain, preference).await,
            Family::Solana => solana::sign(secret, method, params),
            Family::Bitcoin => Err(SignError::NotAllowed),
        }
    }

    /// Answers a request of Handling::Ask for `account`.
    pub async fn ask(self, method: &str, params: &Value, rpc: &Arc<Rpc>, account: &str, preference: AccountType) -> Result<Value, SignError> {
        match self {
            Family::Evm => evm::ask(method, params, rpc, account, preference).await,
            Family::Solana | Family::Bitcoin => Err(SignError::NotAllowed),
        }
    }

    /// Upstream calls a request answered by the family makes, at most (for the upstream
    /// budget): eth_sendTransaction reads the nonce, fee tip, latest block and gas estimate, then
    /// broadcasts; a batch reads the account's code too, or sends each call; a batch's status
    /// reads each receipt; capabilities read the account's code on each smart-account chain.
    pub fn upstream_calls(self, method: &str, params: &Value) -> usize {
        let first = || params.get(0);
        match (self, method) {
            (Family::Evm, "eth_sendTransaction") => 5,
            (Family::Evm, "wallet_sendCalls") => {
                let calls = first().and_then(|b| b.get("calls")).and_then(Value::as_array).map_or(1, Vec::len);
                1 + 5 * calls.clamp(1, evm_calls::MAX_CALLS)
            }
            (Family::Evm, "wallet_getCallsStatus") => {
                first().and_then(Value::as_str).and_then(evm_calls::parse_batch_id).map_or(1, |(_, _, hashes)| hashes.len())
            }
            (Family::Evm, "wallet_getCapabilities") => 1,
            _ => 0,
        }
    }
}

/// Why a sign-in signature was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInRefusal {
    /// Not the account's signature.
    Invalid,
    /// Not a signature at all (its wording).
    Malformed(String),
    /// The chain was needed (EIP-1271) and did not answer.
    ChainUnavailable,
}

impl From<SignInRefusal> for ApiError {
    fn from(r: SignInRefusal) -> ApiError {
        use crate::error::ErrorCode;
        match r {
            SignInRefusal::Invalid => ApiError::new(axum::http::StatusCode::UNAUTHORIZED, ErrorCode::InvalidSignature, "Invalid signature"),
            SignInRefusal::Malformed(why) => ApiError::bad_request(ErrorCode::InvalidSignature, format!("Invalid signature: {why}")),
            SignInRefusal::ChainUnavailable => ApiError::unavailable("EIP-1271 check: chain unavailable"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_come_from_chain_ids() {
        assert_eq!(Family::of_chain("eip155:1"), Some(Family::Evm));
        assert_eq!(Family::of_chain("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"), Some(Family::Solana));
        assert_eq!(Family::of_chain("bip122:000000000019d6689c085ae165831e93"), Some(Family::Bitcoin));
        assert_eq!(Family::of_chain("cosmos:cosmoshub-4"), None);
        assert_eq!(Family::of_chain("nope"), None);
        for f in Family::ALL {
            assert_eq!(Family::of_namespace(f.namespace()), Some(f));
        }
        assert_eq!(Family::of_key(KeyKind::Ed25519), Family::Solana);
    }
}
