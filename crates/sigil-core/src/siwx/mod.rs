//! Sign in with a wallet (SIWX, spec sections 3 and 5): the CAIP-122 / EIP-4361 sign-in
//! message (build, strict parse, time checks) and signature verification for EVM (EIP-191,
//! EIP-1271 call data) and Solana (ed25519). Pure logic, no I/O: the server makes the
//! `eth_call` for contract accounts and owns nonces and sessions.

mod message;
mod verify;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fuzz;

pub use message::{
    canonical_address, check_bitcoin_address, check_evm_address, check_solana_address, format_rfc3339, is_valid_nonce, parse_rfc3339, to_checksum_address,
    Field, InvalidAddress, Namespace, ParseError, SignInMessage, TimeError, MAX_CLOCK_SKEW,
};
pub use verify::{
    decode_hex, eip1271_call_data, eip191_hash, is_eip1271_magic, recover_eip191, verify_bitcoin, verify_eip191, verify_message, verify_solana, VerifyError,
    EIP1271_MAGIC_VALUE,
};

/// Date-times in this API are `time::OffsetDateTime`.
pub use time::OffsetDateTime;
