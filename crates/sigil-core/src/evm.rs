//! Ethereum encoding through the alloy crates: keccak, EIP-55 addresses, EIP-191 message
//! hashes and signer recovery, and the contract calls the server makes (ENS, ERC-20, pair
//! reserves, EIP-1271, Uniswap-V2-style routers), declared once as Solidity signatures.

pub use alloy_primitives::{keccak256, Address, Bytes, FixedBytes, B256, U256};
use alloy_sol_types::SolCall;

alloy_sol_types::sol! {
    /// ENS registry (EIP-137).
    function resolver(bytes32 node) external view returns (address);
    /// ENS resolver: reverse record (ENSIP-3).
    function name(bytes32 node) external view returns (string);
    /// ENS resolver: forward record.
    function addr(bytes32 node) external view returns (address);
    /// ENS resolver: text record (ENSIP-5).
    function text(bytes32 node, string key) external view returns (string);
    /// ERC-20.
    function balanceOf(address owner) external view returns (uint256);
    /// Uniswap-v2-style pair.
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function token0() external view returns (address);
    /// EIP-1271 contract accounts.
    function isValidSignature(bytes32 hash, bytes signature) external view returns (bytes4);
    /// Farcaster ID registry: the custody address of a Farcaster id.
    function custodyOf(uint256 fid) external view returns (address);
    /// ERC-721 metadata: where a token's metadata JSON is.
    function tokenURI(uint256 tokenId) external view returns (string);
    /// ERC-1155 metadata URI: a template where `{id}` stands for the id in 64 lower-case hex digits.
    function uri(uint256 id) external view returns (string);
    /// ENS resolver: an address for another coin type (ENSIP-9; EVM chains' coin types are ENSIP-11's).
    interface MulticoinResolver {
        function addr(bytes32 node, uint256 coinType) external view returns (bytes);
    }
    /// ERC-20 allowances: what `spender` may move of `owner`'s tokens, and the approval.
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    /// A Uniswap-V2-style router (Router02): quotes along a path and the exact-input swaps.
    interface UniswapV2Router {
        function WETH() external view returns (address);
        function factory() external view returns (address);
        function getAmountsOut(uint256 amountIn, address[] path) external view returns (uint256[] amounts);
        function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) external payable returns (uint256[] amounts);
        function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) external returns (uint256[] amounts);
        function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) external returns (uint256[] amounts);
    }
    /// A Uniswap-V2-style factory: the pair of two tokens (the zero address when there is none).
    interface UniswapV2Factory {
        function getPair(address tokenA, address tokenB) external view returns (address pair);
    }
}

/// `isValidSignature`'s selector, also the EIP-1271 magic return value.
pub const EIP1271_MAGIC_VALUE: [u8; 4] = isValidSignatureCall::SELECTOR;

/// A JSON-RPC quantity (`0x` and 1 to 64 hex digits) as a number; None for anything else.
pub fn quantity(text: &str) -> Option<U256> {
    let digits = text.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 64 {
        return None;
    }
    U256::from_str_radix(digits, 16).ok()
}

/// The EIP-55 mixed-case form of an address, with `0x`.
pub fn checksum(address: &[u8; 20]) -> String {
    Address::from(*address).to_checksum(None)
}

/// An address as text (`0x` + 40 hex digits, any case) in its EIP-55 form; any other text
/// as it is.
pub fn checksummed(address: &str) -> String {
    parse_address(address).map_or_else(|| address.to_owned(), |a| a.to_checksum(None))
}

/// `0x` + 40 hex digits, any case; None otherwise.
pub fn parse_address(s: &str) -> Option<Address> {
    let hex = s.strip_prefix("0x")?;
    (hex.len() == 40).then(|| hex.parse().ok()).flatten()
}

/// The EIP-191 `personal_sign` hash of a message.
pub fn eip191_hash(message: impl AsRef<[u8]>) -> B256 {
    alloy_primitives::eip191_hash_message(message)
}

/// Why no signer could be recovered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecoverError {
    #[error("the signature must be 65 bytes, got {0}")]
    Length(usize),
    #[error("invalid recovery id v={0} (expected 27, 28, 0 or 1)")]
    RecoveryId(u8),
    #[error("the signature is malformed (r or s out of range, or no key recovers from it)")]
    Malformed,
}

/// The address whose key made a 65-byte `r || s || v` `personal_sign` signature over
/// `message`; `v` may be 27/28 or 0/1.
pub fn recover_personal_sign(message: impl AsRef<[u8]>, signature: &[u8]) -> Result<Address, RecoverError> {
    let bytes: &[u8; 65] = signature.try_into().map_err(|_| RecoverError::Length(signature.len()))?;
    let v = bytes[64];
    let parity = match v {
        27 | 28 => v == 28,
        0 | 1 => v == 1,
        _ => return Err(RecoverError::RecoveryId(v)),
    };
    let signature = alloy_primitives::Signature::from_bytes_and_parity(&bytes[..64], parity);
    signature.recover_address_from_msg(message).map_err(|_| RecoverError::Malformed)
}

/// ABI call data, `0x`-prefixed hex.
pub fn call_data(call: &impl SolCall) -> String {
    format!("0x{}", alloy_primitives::hex::encode(call.abi_encode()))
}

/// The decoded return of `C` from `eth_call` return data (hex, `0x` optional).
pub fn decode_return<C: SolCall>(data: &str) -> Option<C::Return> {
    let bytes = alloy_primitives::hex::decode(data).ok()?;
    // Strict: high bytes of an address word must be zero, strings must be UTF-8.
    C::abi_decode_returns_validate(&bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities() {
        assert_eq!(quantity("0x0"), Some(U256::ZERO));
        assert_eq!(quantity("0x1bc16d674ec80000"), Some(U256::from(2_000_000_000_000_000_000u128)));
        assert_eq!(quantity(&format!("0x{}", "f".repeat(64))), Some(U256::MAX));
        for bad in ["", "0x", "12", "0xg1", "0x-1", &format!("0x{}", "1".repeat(65))] {
            assert_eq!(quantity(bad), None, "{bad}");
        }
    }

    #[test]
    fn checksums_and_parses_addresses() {
        let raw: [u8; 20] = alloy_primitives::hex::decode("f39fd6e51aad88f6f4ce6ab8827279cfffb92266").unwrap().try_into().unwrap();
        assert_eq!(checksum(&raw), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assert_eq!(checksummed("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assert_eq!(checksummed("0x12"), "0x12");
        assert_eq!(parse_address("0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266").map(|a| a.0 .0), Some(raw));
        assert_eq!(parse_address("f39fd6e51aad88f6f4ce6ab8827279cfffb92266"), None);
        assert_eq!(parse_address("0x1234"), None);
    }

    #[test]
    fn recovers_anvil_account_0() {
        // personal_sign("hello") by anvil's account 0 (its well-known dev key).
        let sig = alloy_primitives::hex::decode(
            "0xf16ea9a3478698f695fd1401bfe27e9e4a7e8e3da94aa72b021125e31fa899cc573c48ea3fe1d4ab61a9db10c19032026e3ed2dbccba5a178235ac27f94504311c",
        )
        .unwrap();
        assert_eq!(recover_personal_sign("hello", &sig).unwrap().to_checksum(None), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        let mut zero_v = sig.clone();
        zero_v[64] -= 27;
        assert_eq!(recover_personal_sign("hello", &zero_v).unwrap().to_checksum(None), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        zero_v[64] = 5;
        assert_eq!(recover_personal_sign("hello", &zero_v), Err(RecoverError::RecoveryId(5)));
        assert_eq!(recover_personal_sign("hello", &sig[..64]), Err(RecoverError::Length(64)));
    }

    #[test]
    fn encodes_and_decodes_calls() {
        let owner = parse_address("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266").unwrap();
        assert_eq!(call_data(&balanceOfCall { owner }), "0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266");
        assert_eq!(EIP1271_MAGIC_VALUE, [0x16, 0x26, 0xba, 0x7e]);
        let word = format!("0x{}", "0".repeat(62) + "2a");
        assert_eq!(decode_return::<balanceOfCall>(&word), Some(U256::from(42)));
        assert_eq!(decode_return::<balanceOfCall>("0x12"), None);
    }
}
