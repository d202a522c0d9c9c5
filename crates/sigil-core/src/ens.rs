//! ENS reverse resolution as pure data: namehash (EIP-137), the reverse node of an address
//! (`<hex>.addr.reverse`, ENSIP-3), the raw call data of the registry and resolver reads, and
//! the decoding of their ABI answers. The server sends the calls; this module has no I/O.

use crate::evm::{self, keccak256, B256};

/// Longest name accepted from a resolver (DNS's 253 plus room for long labels).
pub const MAX_NAME_LEN: usize = 255;

/// EIP-137 namehash of a dot-separated name ("" is the root), hashed as given: callers
/// normalise names first (`normalize`).
pub fn namehash(name: &str) -> [u8; 32] {
    let mut node = B256::ZERO;
    if name.is_empty() {
        return node.0;
    }
    for label in name.rsplit('.') {
        node = keccak256([node.as_slice(), keccak256(label.as_bytes()).as_slice()].concat());
    }
    node.0
}

/// The ENSIP-15 normalised form of a name, or None when it is not a valid ENS name. A name
/// read from a reverse record is normalised before its forward check, so a look-alike never
/// resolves as the name it imitates.
pub fn normalize(name: &str) -> Option<String> {
    // The normaliser's tables take long to build (seconds in a debug build): built once.
    static NORMALIZER: std::sync::OnceLock<ens_normalize_rs::EnsNameNormalizer> = std::sync::OnceLock::new();
    NORMALIZER.get_or_init(ens_normalize_rs::EnsNameNormalizer::default).normalize(name).ok()
}

/// The reverse name of an EVM address: lower-case hex without 0x, then `.addr.reverse`.
pub fn reverse_name(address: &str) -> String {
    format!("{}.addr.reverse", address.strip_prefix("0x").unwrap_or(address).to_ascii_lowercase())
}

/// Call data of `resolver(node)` on the registry.
pub fn resolver_call(node: &[u8; 32]) -> String {
    evm::call_data(&evm::resolverCall { node: (*node).into() })
}

/// Call data of `name(node)` on a resolver.
pub fn name_call(node: &[u8; 32]) -> String {
    evm::call_data(&evm::nameCall { node: (*node).into() })
}

/// Call data of `addr(node)` on a resolver.
pub fn addr_call(node: &[u8; 32]) -> String {
    evm::call_data(&evm::addrCall { node: (*node).into() })
}

/// Call data of `text(node, key)` on a resolver.
pub fn text_call(node: &[u8; 32], key: &str) -> String {
    evm::call_data(&evm::textCall { node: (*node).into(), key: key.to_owned() })
}

/// The address in a `resolver`/`addr` answer, lower-case and 0x-prefixed; None for an empty
/// or malformed answer or the zero address (no record).
pub fn decode_address(data: &str) -> Option<String> {
    let address = evm::decode_return::<evm::addrCall>(data)?;
    (!address.is_zero()).then(|| format!("{address:#x}"))
}

/// ENSIP-11's coin type of an EVM chain: 60 on Ethereum (chain 1), `0x80000000 | chainId`
/// elsewhere; None for a chain id of 31 bits or more (spec section 5: above the coin type's limit).
pub fn evm_coin_type(chain_id: u64) -> Option<u64> {
    match chain_id {
        1 => Some(60),
        id if id < 0x8000_0000 => Some(0x8000_0000 | id),
        _ => None,
    }
}

/// ENSIP-19's default EVM coin type: the address a name gives every EVM chain it names no other for.
pub const DEFAULT_EVM_COIN_TYPE: u64 = 0x8000_0000;

/// Call data of `addr(node, coinType)` on a resolver (ENSIP-9).
pub fn addr_for_coin_call(node: &[u8; 32], coin_type: u64) -> String {
    evm::call_data(&evm::MulticoinResolver::addrCall { node: (*node).into(), coinType: evm::U256::from(coin_type) })
}

/// The EVM address in an `addr(node, coinType)` answer (20 bytes), lower-case and 0x-prefixed;
/// None when empty, another length, or the zero address.
pub fn decode_coin_address(data: &str) -> Option<String> {
    let bytes = evm::decode_return::<evm::MulticoinResolver::addrCall>(data)?;
    (bytes.len() == 20 && bytes.iter().any(|b| *b != 0)).then(|| format!("0x{}", hex::encode(&bytes)))
}

/// The string in a `name`/`text` answer; None when malformed, empty or not UTF-8.
pub fn decode_string(data: &str) -> Option<String> {
    evm::decode_return::<evm::nameCall>(data).filter(|s| !s.is_empty())
}

/// Whether a name from a reverse record is worth a forward check: dot-separated non-empty
/// labels, no whitespace or control characters, at most [`MAX_NAME_LEN`] bytes.
pub fn is_plausible_name(name: &str) -> bool {
    name.len() <= MAX_NAME_LEN && name.contains('.') && name.split('.').all(|l| !l.is_empty()) && !name.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Longest avatar record returned (data: URLs can be large; answers are cached).
pub const MAX_AVATAR_LEN: usize = 32 * 1024;

/// An avatar text record the browser can show as it is: an http(s) URL or a data: image, at
/// most [`MAX_AVATAR_LEN`] bytes. Other forms (NFT references, ipfs://) would need a gateway.
pub fn displayable_avatar(value: &str) -> Option<String> {
    let v = value.trim();
    if v.len() > MAX_AVATAR_LEN {
        return None;
    }
    let lower = v.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with("data:image/")).then(|| v.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namehash_matches_eip137_vectors() {
        assert_eq!(namehash(""), [0u8; 32]);
        assert_eq!(hex::encode(namehash("eth")), "93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae");
        assert_eq!(hex::encode(namehash("foo.eth")), "de9b09fd7c5f901e23a3f19fecc54828e9c848539801e86591bd9801b019f84f");
        assert_eq!(hex::encode(namehash("addr.reverse")), "91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2");
    }

    #[test]
    fn reverse_name_is_lower_hex() {
        assert_eq!(reverse_name("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), "70997970c51812dc3a010c7d01b50e0d17dc79c8.addr.reverse");
    }

    #[test]
    fn encodes_calls() {
        let node = namehash("eth");
        assert_eq!(resolver_call(&node), format!("0x0178b8bf{}", hex::encode(node)));
        assert_eq!(name_call(&node), format!("0x691f3431{}", hex::encode(node)));
        assert_eq!(addr_call(&node), format!("0x3b3b57de{}", hex::encode(node)));
        let t = text_call(&node, "avatar");
        // selector + node + offset (0x40) + length 6 + "avatar" padded to 32 bytes
        assert_eq!(t, format!("0x59d1d43c{}{:064x}{:064x}{}{}", hex::encode(node), 64, 6, "617661746172", "0".repeat(52)));
        assert_eq!(text_call(&node, "").len(), 2 + 8 + 64 * 3);
    }

    #[test]
    fn normalises_names_per_ensip15() {
        assert_eq!(normalize("Alice.ETH").as_deref(), Some("alice.eth"));
        assert_eq!(normalize("alice.eth").as_deref(), Some("alice.eth"));
        // Invalid: a disallowed character, an empty label.
        assert_eq!(normalize("al\u{0000}ice.eth"), None);
        assert_eq!(normalize("alice..eth"), None);
    }

    #[test]
    fn decodes_addresses() {
        let word = format!("{}{}", "0".repeat(24), "70997970c51812dc3a010c7d01b50e0d17dc79c8");
        assert_eq!(decode_address(&format!("0x{word}")).as_deref(), Some("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"));
        assert_eq!(decode_address(&format!("0x{}", "0".repeat(64))), None);
        assert_eq!(decode_address("0x"), None);
        assert_eq!(decode_address(&format!("0x{}", "f".repeat(64))), None);
        assert_eq!(decode_address(&format!("0x{}zz", "0".repeat(62))), None);
    }

    #[test]
    fn coin_types_per_ensip11() {
        assert_eq!(evm_coin_type(1), Some(60));
        assert_eq!(evm_coin_type(10), Some(0x8000_000a));
        assert_eq!(evm_coin_type(31337), Some(0x8000_7a69));
        assert_eq!(evm_coin_type(0x8000_0000), None);
        let node = namehash("eth");
        assert_eq!(addr_for_coin_call(&node, 0x8000_000a), format!("0xf1cb7e06{}{:064x}", hex::encode(node), 0x8000_000au64));
        let answer = format!("0x{:064x}{:064x}{}{}", 32, 20, "70997970c51812dc3a010c7d01b50e0d17dc79c8", "0".repeat(24));
        assert_eq!(decode_coin_address(&answer).as_deref(), Some("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"));
        assert_eq!(decode_coin_address(&format!("0x{:064x}{:064x}", 32, 0)), None);
        assert_eq!(decode_coin_address("0x"), None);
    }

    #[test]
    fn decodes_strings() {
        let encoded = format!("0x{:064x}{:064x}{}{}", 32, 9, hex::encode("alice.eth"), "0".repeat(46));
        assert_eq!(decode_string(&encoded).as_deref(), Some("alice.eth"));
        assert_eq!(decode_string(&format!("0x{:064x}{:064x}", 32, 0)), None);
        assert_eq!(decode_string("0x"), None);
        assert_eq!(decode_string("garbage"), None);
        // length past the end, and an offset too large to be real
        assert_eq!(decode_string(&format!("0x{:064x}{:064x}", 32, 99)), None);
        assert_eq!(decode_string(&format!("0x{}{:064x}", "f".repeat(64), 1)), None);
        let bad_utf8 = format!("0x{:064x}{:064x}ff{}", 32, 1, "0".repeat(62));
        assert_eq!(decode_string(&bad_utf8), None);
    }

    #[test]
    fn name_and_avatar_rules() {
        assert!(is_plausible_name("alice.eth"));
        assert!(!is_plausible_name("alice"));
        assert!(!is_plausible_name("alice..eth"));
        assert!(!is_plausible_name("al ice.eth"));
        assert!(!is_plausible_name(&format!("{}.eth", "a".repeat(260))));
        assert_eq!(displayable_avatar(" https://x.test/a.png ").as_deref(), Some("https://x.test/a.png"));
        assert!(displayable_avatar("data:image/svg+xml;base64,AAA").is_some());
        assert_eq!(displayable_avatar("eip155:1/erc721:0xabc/1"), None);
        assert_eq!(displayable_avatar("ipfs://Qm"), None);
        assert_eq!(displayable_avatar("javascript:alert(1)"), None);
        assert_eq!(displayable_avatar(&format!("data:image/png;base64,{}", "A".repeat(MAX_AVATAR_LEN))), None);
    }
}
