//! CAIP-2 chain ids (`namespace:reference`) and CAIP-10 account ids
//! (`namespace:reference:address`), with the namespaces Sigil knows.

use std::fmt;
use std::str::FromStr;

/// A chain namespace the product knows (spec section 3): one type for CAIP ids, chain
/// configuration and sign-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Namespace {
    Eip155,
    Solana,
    Polkadot,
    Bip122,
    Cosmos,
}

impl Namespace {
    pub const ALL: [Namespace; 5] = [Namespace::Eip155, Namespace::Solana, Namespace::Polkadot, Namespace::Bip122, Namespace::Cosmos];

    pub fn as_str(self) -> &'static str {
        match self {
            Namespace::Eip155 => "eip155",
            Namespace::Solana => "solana",
            Namespace::Polkadot => "polkadot",
            Namespace::Bip122 => "bip122",
            Namespace::Cosmos => "cosmos",
        }
    }
}

/// What kind of chain a namespace's chains are: what the server does for them (balances,
/// names, sign-in, proxy methods) is chosen by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChainKind {
    Evm,
    Solana,
    Bitcoin,
    /// Known to CAIP but not served yet (polkadot, cosmos).
    Other,
}

impl Namespace {
    pub fn kind(self) -> ChainKind {
        match self {
            Namespace::Eip155 => ChainKind::Evm,
            Namespace::Solana => ChainKind::Solana,
            Namespace::Bip122 => ChainKind::Bitcoin,
            Namespace::Polkadot | Namespace::Cosmos => ChainKind::Other,
        }
    }
}

impl FromStr for Namespace {
    type Err = CaipError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Namespace::ALL.into_iter().find(|n| n.as_str() == s).ok_or_else(|| CaipError::UnknownNamespace(s.to_owned()))
    }
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaipError {
    #[error("'{0}' is not a CAIP-2 network id (expected namespace:reference)")]
    NetworkId(String),
    #[error("'{0}' is not a CAIP-10 address (expected namespace:reference:address)")]
    Address(String),
    #[error("unknown chain namespace '{0}'")]
    UnknownNamespace(String),
}

/// EVM address rule (spec section 5): 40 hex digits, with or without 0x.
pub fn is_evm_address(s: &str) -> bool {
    let hex = s.strip_prefix("0x").unwrap_or(s);
    hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A CAIP-2 chain id such as `eip155:1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChainId {
    namespace: String,
    reference: String,
}

impl ChainId {
    pub fn namespace(&self) -> &str {
        &self.namespace
    }
    /// The namespace, when it is one the product knows.
    pub fn known_namespace(&self) -> Option<Namespace> {
        self.namespace.parse().ok()
    }
    pub fn reference(&self) -> &str {
        &self.reference
    }
}

// CAIP-2: namespace [-a-z0-9]{3,8}, reference [-_a-zA-Z0-9]{1,32}.
fn valid_namespace(s: &str) -> bool {
    (3..=8).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn valid_reference(s: &str) -> bool {
    (1..=32).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `s` is a CAIP-2 chain id (the check of `ChainId::from_str`, without allocating).
pub fn is_chain_id(s: &str) -> bool {
    let mut parts = s.split(':');
    matches!((parts.next(), parts.next(), parts.next()), (Some(ns), Some(reference), None) if valid_namespace(ns) && valid_reference(reference))
}

impl FromStr for ChainId {
    type Err = CaipError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut parts = s.split(':');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(ns), Some(reference), None) if valid_namespace(ns) && valid_reference(reference) => {
                Ok(ChainId { namespace: ns.to_owned(), reference: reference.to_owned() })
            }
            _ => Err(CaipError::NetworkId(s.to_owned())),
        }
    }
}

impl fmt::Display for ChainId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.namespace, self.reference)
    }
}

/// A CAIP-10 account id such as `eip155:1:0xab...`; the namespace must be a known one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccountId {
    pub chain: ChainId,
    pub address: String,
}

impl FromStr for AccountId {
    type Err = CaipError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(':').collect();
        let [ns, reference, address] = parts.as_slice() else {
            return Err(CaipError::Address(s.to_owned()));
        };
        let chain: ChainId = format!("{ns}:{reference}").parse().map_err(|_| CaipError::Address(s.to_owned()))?;
        ns.parse::<Namespace>()?;
        if address.is_empty() || address.len() > 128 || !address.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.%".contains(&b)) {
            return Err(CaipError::Address(s.to_owned()));
        }
        Ok(AccountId { chain, address: (*address).to_owned() })
    }
}

impl AccountId {
    /// The id with its address in canonical form (EIP-55 for EVM; others as given, since
    /// base58 and bech32 addresses are case-sensitive or already canonical).
    pub fn canonical(&self) -> String {
        match self.chain.known_namespace() {
            Some(Namespace::Eip155) => format!("{}:{}", self.chain, crate::siwx::canonical_address(crate::siwx::Namespace::Eip155, &self.address)),
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.chain, self.address)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_chain_ids() {
        let id: ChainId = "eip155:1".parse().unwrap();
        assert_eq!((id.namespace(), id.reference()), ("eip155", "1"));
        let sol: ChainId = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".parse().unwrap();
        assert_eq!(sol.to_string(), "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
    }

    #[test]
    fn rejects_bad_chain_ids() {
        for bad in ["", "eip155", "eip155:", ":1", "eip155:1:2", "EIP155:1", "ab:1", "eip155:1 ", "e!p155:1", "eip155:012345678901234567890123456789012"] {
            assert_eq!(bad.parse::<ChainId>(), Err(CaipError::NetworkId(bad.to_owned())), "{bad:?}");
        }
    }

    #[test]
    fn evm_addresses() {
        assert!(is_evm_address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"));
        assert!(is_evm_address("f39fd6e51aad88f6f4ce6ab8827279cfffb92266"));
        assert!(!is_evm_address("0x123"));
        assert!(!is_evm_address("0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266"));
    }

    #[test]
    fn parses_account_ids() {
        let a: AccountId = "eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb".parse().unwrap();
        assert_eq!(a.chain.to_string(), "eip155:1");
        assert_eq!(a.address, "0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb");
        assert_eq!(a.to_string(), "eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb");
    }

    #[test]
    fn rejects_bad_account_ids() {
        assert!(matches!("eip155:1".parse::<AccountId>(), Err(CaipError::Address(_))));
        assert!(matches!("eip155:1:".parse::<AccountId>(), Err(CaipError::Address(_))));
        assert_eq!("foo:1:0xab".parse::<AccountId>(), Err(CaipError::UnknownNamespace("foo".into())));
    }
}
