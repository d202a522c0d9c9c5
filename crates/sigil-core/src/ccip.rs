//! An ENSIP-10 offchain resolver's gateway (ERC-3668, CCIP-read) as pure data: the request a
//! resolver sends (`resolve(bytes name, bytes data)` with the name DNS-encoded and the inner
//! resolver call), the records it asks for, and the signed answer
//! `abi.encode(bytes result, uint64 expires, bytes signature)`. The signature is over
//! `keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖ keccak256(result))`, which
//! `devchain/contracts/OffchainResolver.sol` recomputes before it trusts a result.

use alloy_sol_types::{SolCall, SolValue};

use crate::evm::{self, keccak256, Address, Bytes, B256, U256};

alloy_sol_types::sol! {
    /// ENSIP-10's wildcard resolution.
    function resolve(bytes name, bytes data) external view returns (bytes);
}

/// ENSIP-10's `resolve(bytes,bytes)` selector, also its ERC-165 interface id.
pub const RESOLVE_SELECTOR: [u8; 4] = resolveCall::SELECTOR;

/// A record a resolver is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// `addr(node)`: the Ethereum address (coin type 60).
    Addr,
    /// `addr(node, coinType)` (ENSIP-9, ENSIP-11).
    AddrOf(U256),
    /// `text(node, key)` (ENSIP-5).
    Text(String),
    /// `name(node)`: a reverse node's name (ENSIP-3, ENSIP-19).
    Name,
}

/// A decoded gateway request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The name, dot-separated, as the client encoded it (already normalised by it).
    pub name: String,
    /// The node the inner call names.
    pub node: B256,
    pub record: Record,
}

/// Why a request cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("the data is not a call of resolve(bytes,bytes)")]
    NotResolve,
    #[error("the name is not DNS-encoded")]
    BadName,
    #[error("the inner call is not addr, addr(coinType), text or name")]
    Unsupported,
}

/// Reads `resolve(name, data)` call data.
pub fn decode_request(data: &[u8]) -> Result<Request, RequestError> {
    let call = resolveCall::abi_decode_validate(data).map_err(|_| RequestError::NotResolve)?;
    let name = dns_decode(&call.name).ok_or(RequestError::BadName)?;
    let inner = &call.data[..];
    let (node, record) = if let Ok(c) = evm::addrCall::abi_decode_validate(inner) {
        (c.node, Record::Addr)
    } else if let Ok(c) = evm::MulticoinResolver::addrCall::abi_decode_validate(inner) {
        (c.node, Record::AddrOf(c.coinType))
    } else if let Ok(c) = evm::textCall::abi_decode_validate(inner) {
        (c.node, Record::Text(c.key))
    } else if let Ok(c) = evm::nameCall::abi_decode_validate(inner) {
        (c.node, Record::Name)
    } else {
        return Err(RequestError::Unsupported);
    };
    Ok(Request { name, node, record })
}

/// `resolve(name, inner)` call data, the name DNS-encoded (what a client asks a resolver);
/// None for a name with an empty or over-long label.
pub fn encode_request(name: &str, inner: &[u8]) -> Option<Vec<u8>> {
    Some(resolveCall { name: dns_encode(name)?.into(), data: Bytes::copy_from_slice(inner) }.abi_encode())
}

/// A DNS wire-format name (length-prefixed labels, a zero at the end) as dotted text; None
/// when malformed, a label holds a dot, or it is not UTF-8.
pub fn dns_decode(bytes: &[u8]) -> Option<String> {
    let mut labels = Vec::new();
    let mut at = 0;
    loop {
        let len = *bytes.get(at)? as usize;
        at += 1;
        if len == 0 {
            break;
        }
        let label = std::str::from_utf8(bytes.get(at..at + len)?).ok()?;
        if label.contains('.') {
            return None;
        }
        labels.push(label);
        at += len;
    }
    (at == bytes.len()).then(|| labels.join("."))
}

/// A dotted name in DNS wire format; None when a label is empty or longer than 255 bytes.
pub fn dns_encode(name: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len() + 2);
    if !name.is_empty() {
        for label in name.split('.') {
            let len = u8::try_from(label.len()).ok().filter(|l| *l > 0)?;
            out.push(len);
            out.extend_from_slice(label.as_bytes());
        }
    }
    out.push(0);
    Some(out)
}

/// The ABI answer of `record` (what the inner call returns): an address word for `addr(node)`,
/// bytes for `addr(node, coinType)` (empty: none), a string for `text` and `name`. `address`
/// is the address for the record's coin type, `text` the text record or name.
pub fn encode_result(record: &Record, address: Option<Address>, text: Option<&str>) -> Vec<u8> {
    match record {
        Record::Addr => address.unwrap_or(Address::ZERO).abi_encode(),
        Record::AddrOf(_) => Bytes::from(address.map(|a| a.to_vec()).unwrap_or_default()).abi_encode(),
        Record::Text(_) | Record::Name => text.unwrap_or("").to_owned().abi_encode(),
    }
}

/// The hash the gateway signs and the resolver checks.
pub fn digest(resolver: Address, expires: u64, request: &[u8], result: &[u8]) -> B256 {
    let mut packed = Vec::with_capacity(2 + 20 + 8 + 32 + 32);
    packed.extend_from_slice(&[0x19, 0x00]);
    packed.extend_from_slice(resolver.as_slice());
    packed.extend_from_slice(&expires.to_be_bytes());
    packed.extend_from_slice(keccak256(request).as_slice());
    packed.extend_from_slice(keccak256(result).as_slice());
    keccak256(packed)
}

/// `abi.encode(bytes result, uint64 expires, bytes signature)`.
pub fn encode_answer(result: &[u8], expires: u64, signature: &[u8]) -> Vec<u8> {
    (Bytes::copy_from_slice(result), expires, Bytes::copy_from_slice(signature)).abi_encode_params()
}

/// The parts of an answer; None when it is not `(bytes, uint64, bytes)`.
pub fn decode_answer(data: &[u8]) -> Option<(Vec<u8>, u64, Vec<u8>)> {
    let (result, expires, signature) = <(Bytes, u64, Bytes)>::abi_decode_params_validate(data).ok()?;
    Some((result.to_vec(), expires, signature.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ens::namehash;

    fn request(name: &str, inner: Vec<u8>) -> Vec<u8> {
        resolveCall { name: dns_encode(name).unwrap().into(), data: inner.into() }.abi_encode()
    }

    #[test]
    fn dns_names_round_trip() {
        assert_eq!(dns_encode("alice.sigil.id").unwrap(), b"\x05alice\x05sigil\x02id\x00");
        assert_eq!(dns_decode(b"\x05alice\x05sigil\x02id\x00").as_deref(), Some("alice.sigil.id"));
        assert_eq!(dns_encode("").unwrap(), [0]);
        assert_eq!(dns_decode(&[0]).as_deref(), Some(""));
        assert_eq!(dns_encode("a..b"), None);
        assert_eq!(dns_decode(b"\x05alice"), None);
        assert_eq!(dns_decode(b"\x01a\x00extra"), None);
        assert_eq!(dns_decode(b"\x03a.b\x00"), None);
    }

    #[test]
    fn requests_are_read() {
        let node = B256::from(namehash("alice.sigil.id"));
        let addr = request("alice.sigil.id", evm::addrCall { node }.abi_encode());
        assert_eq!(decode_request(&addr).unwrap(), Request { name: "alice.sigil.id".into(), node, record: Record::Addr });
        let coin = request("alice.sigil.id", evm::MulticoinResolver::addrCall { node, coinType: U256::from(60) }.abi_encode());
        assert_eq!(decode_request(&coin).unwrap().record, Record::AddrOf(U256::from(60)));
        let text = request("alice.sigil.id", evm::textCall { node, key: "bio".into() }.abi_encode());
        assert_eq!(decode_request(&text).unwrap().record, Record::Text("bio".into()));
        let name = request("alice.sigil.id", evm::nameCall { node }.abi_encode());
        assert_eq!(decode_request(&name).unwrap().record, Record::Name);
        assert_eq!(decode_request(&request("alice.sigil.id", vec![1, 2, 3, 4])), Err(RequestError::Unsupported));
        assert_eq!(decode_request(&[0x90, 0x61, 0xb9, 0x23]), Err(RequestError::NotResolve));
        assert_eq!(decode_request(&addr[4..]), Err(RequestError::NotResolve));
        let bad_name = resolveCall { name: vec![9, 1].into(), data: evm::addrCall { node }.abi_encode().into() }.abi_encode();
        assert_eq!(decode_request(&bad_name), Err(RequestError::BadName));
        assert_eq!(hex::encode(RESOLVE_SELECTOR), "9061b923");
    }

    #[test]
    fn results_and_answers_are_abi() {
        let a: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8".parse().unwrap();
        assert_eq!(encode_result(&Record::Addr, Some(a), None), a.abi_encode());
        assert_eq!(encode_result(&Record::Addr, None, None), [0u8; 32]);
        assert_eq!(
            crate::ens::decode_coin_address(&format!("0x{}", hex::encode(encode_result(&Record::AddrOf(U256::from(60)), Some(a), None)))).as_deref(),
            Some("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")
        );
        assert_eq!(
            crate::ens::decode_string(&format!("0x{}", hex::encode(encode_result(&Record::Name, None, Some("alice.sigil.id"))))).as_deref(),
            Some("alice.sigil.id")
        );
        let answer = encode_answer(b"result", 1_700_000_000, &[7; 65]);
        assert_eq!(decode_answer(&answer), Some((b"result".to_vec(), 1_700_000_000, vec![7; 65])));
        // abi.encodePacked(hex"1900", resolver, uint64 expires, keccak256(request), keccak256(result))
        let d = digest(a, 1, b"req", b"res");
        let mut packed = hex::decode("1900").unwrap();
        packed.extend(a.as_slice());
        packed.extend([0, 0, 0, 0, 0, 0, 0, 1]);
        packed.extend(keccak256(b"req").as_slice());
        packed.extend(keccak256(b"res").as_slice());
        assert_eq!(d, keccak256(packed));
    }
}
