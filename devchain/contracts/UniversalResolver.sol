// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

interface IRegistryResolver {
    function resolver(bytes32 node) external view returns (address);
}

/// ERC-3668 batch gateways' call (what viem's local batch gateway, `x-batch-gateway:true`, answers).
interface IBatchGateway {
    struct Query {
        address sender;
        string[] urls;
        bytes data;
    }

    function query(Query[] memory queries) external view returns (bool[] memory failures, bytes[] memory responses);
}

/// @title UniversalResolver
/// @notice The dev chain's entry point for ENS clients (viem's getEnsAddress, getEnsName):
///         `resolveWithGateways(name, data, gateways)` finds the name's resolver in the
///         NameRegistry by ENSIP-10's rule (the name's own, else the closest parent's, which
///         must then support `resolve(bytes,bytes)`), calls it, and when the resolver reverts
///         with ERC-3668's `OffchainLookup` passes the lookup on as a batch-gateway query
///         (`query([{sender: resolver, urls, data}])` to `gateways`) with itself as sender and
///         its own callback, so a client that checks the sender against the contract it called
///         follows it; the callback hands the gateway's answer to the resolver's callback.
///         `reverseWithGateways(address, coinType, gateways)` reads the name of the address's
///         reverse node for that coin type (`<hex>.addr.reverse` for 60, ENSIP-19's
///         `<hex>.<coinType hex>.reverse` otherwise) and answers it only when the name resolves
///         back to the address for the same coin type. The errors are the ones viem reads as
///         "no name" (ResolverNotFound, ResolverError, ReverseAddressMismatch).
contract UniversalResolver {
    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    error ResolverNotFound(bytes name);
    error ResolverError(bytes errorData);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error DNSDecodingFailed(bytes dns);
    error DNSEncodingFailed(string ens);

    bytes4 internal constant OFFCHAIN_LOOKUP = 0x556f1830;
    bytes4 internal constant EXTENDED_RESOLVE = 0x9061b923;
    bytes4 internal constant SUPPORTS_INTERFACE = 0x01ffc9a7;
    bytes4 internal constant ADDR = 0x3b3b57de;
    bytes4 internal constant ADDR_OF_COIN = 0xf1cb7e06;
    bytes4 internal constant NAME = 0x691f3431;
    uint256 internal constant ETHEREUM = 60;

    IRegistryResolver public immutable registry;

    constructor(IRegistryResolver registry_) {
        registry = registry_;
    }

    // ---- forward ----

    /// The answer of `data` (a resolver call for the name) and the resolver that gave it.
    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata gateways)
        external
        view
        returns (bytes memory, address)
    {
        return lookup(name, data, gateways, this.resolveCallback.selector, "");
    }

    /// ERC-3668 callback of resolveWithGateways.
    function resolveCallback(bytes calldata response, bytes calldata extraData) external view returns (bytes memory, address) {
        (bytes memory result, address resolver,) = finish(response, extraData);
        return (result, resolver);
    }

    // ---- reverse ----

    /// The primary name of `lookupAddress` for `coinType`, verified forward; its forward
    /// resolver and its reverse resolver.
    function reverseWithGateways(bytes calldata lookupAddress, uint256 coinType, string[] calldata gateways)
        external
        view
        returns (string memory, address, address)
    {
        bytes memory name = reverseName(lookupAddress, coinType);
        bytes memory data = abi.encodeWithSelector(NAME, namehash(name, 0));
        bytes memory context = abi.encode(lookupAddress, coinType, gateways);
        (bytes memory result, address reverseResolver) = lookup(name, data, gateways, this.reverseCallback.selector, context);
        return verify(result, reverseResolver, lookupAddress, coinType, gateways);
    }

    /// ERC-3668 callback: the reverse node's name arrived.
    function reverseCallback(bytes calldata response, bytes calldata extraData) external view returns (string memory, address, address) {
        (bytes memory result, address reverseResolver, bytes memory context) = finish(response, extraData);
        (bytes memory lookupAddress, uint256 coinType, string[] memory gateways) = abi.decode(context, (bytes, uint256, string[]));
        return verify(result, reverseResolver, lookupAddress, coinType, gateways);
    }

    /// ERC-3668 callback: the primary name's forward address arrived.
    function reverseForwardCallback(bytes calldata response, bytes calldata extraData) external view returns (string memory, address, address) {
        (bytes memory result, address resolver, bytes memory context) = finish(response, extraData);
        return matching(result, resolver, context);
    }

    /// The reverse record's name, then its forward address for the same coin type.
    function verify(bytes memory result, address reverseResolver, bytes memory lookupAddress, uint256 coinType, string[] memory gateways)
        internal
        view
        returns (string memory, address, address)
    {
        string memory primary = abi.decode(result, (string));
        if (bytes(primary).length == 0) return ("", address(0), reverseResolver);
        bytes memory context = abi.encode(lookupAddress, coinType, primary, reverseResolver);
        (bytes memory forward, address resolver) = lookupForward(primary, coinType, gateways, context);
        return matching(forward, resolver, context);
    }

    /// `addr(node)` (coin type 60) or `addr(node, coinType)` of the primary name.
    function lookupForward(string memory primary, uint256 coinType, string[] memory gateways, bytes memory context)
        internal
        view
        returns (bytes memory, address)
    {
        bytes memory name = dnsEncode(primary);
        bytes32 node = namehash(name, 0);
        bytes memory data = coinType == ETHEREUM ? abi.encodeWithSelector(ADDR, node) : abi.encodeWithSelector(ADDR_OF_COIN, node, coinType);
        return lookup(name, data, gateways, this.reverseForwardCallback.selector, context);
    }

    /// The primary name when its forward address is the looked-up address.
    function matching(bytes memory forward, address resolver, bytes memory context) internal pure returns (string memory, address, address) {
        (bytes memory lookupAddress, uint256 coinType, string memory primary, address reverseResolver) =
            abi.decode(context, (bytes, uint256, string, address));
        bytes memory given = coinType == ETHEREUM ? abi.encodePacked(abi.decode(forward, (address))) : abi.decode(forward, (bytes));
        if (keccak256(given) != keccak256(lookupAddress)) revert ReverseAddressMismatch(primary, given);
        return (primary, resolver, reverseResolver);
    }

    // ---- one lookup, on chain or off ----

    /// Calls the name's resolver with `data`; an OffchainLookup from it is passed on to
    /// `gateways` with `callback` (of this contract) to finish it, carrying `context`.
    function lookup(bytes memory name, bytes memory data, string[] memory gateways, bytes4 callback, bytes memory context)
        internal
        view
        returns (bytes memory, address)
    {
        (address resolver, bool exact) = findResolver(name);
        if (resolver == address(0) || resolver.code.length == 0) revert ResolverNotFound(name);
        bool extended = supportsExtended(resolver);
        if (!extended && !exact) revert ResolverNotFound(name);
        bytes memory call_ = extended ? abi.encodeWithSelector(EXTENDED_RESOLVE, name, data) : data;
        (bool ok, bytes memory ret) = resolver.staticcall(call_);
        if (ok) return (extended ? abi.decode(ret, (bytes)) : ret, resolver);
        if (selectorOf(ret) == OFFCHAIN_LOOKUP) passOn(ret, resolver, extended, gateways, callback, context);
        revert ResolverError(ret);
    }

    /// The resolver's OffchainLookup (`revertData`) as a batch-gateway query with this contract
    /// as sender; a lookup that names another sender is the resolver's error.
    function passOn(bytes memory revertData, address resolver, bool extended, string[] memory gateways, bytes4 callback, bytes memory context)
        internal
        view
    {
        (address sender, string[] memory urls, bytes memory callData, bytes4 innerCallback, bytes memory innerExtra) =
            abi.decode(withoutSelector(revertData), (address, string[], bytes, bytes4, bytes));
        if (sender != resolver) revert ResolverError(revertData);
        IBatchGateway.Query[] memory queries = new IBatchGateway.Query[](1);
        queries[0] = IBatchGateway.Query(sender, urls, callData);
        revert OffchainLookup(
            address(this), gateways, abi.encodeCall(IBatchGateway.query, (queries)), callback, abi.encode(resolver, extended, innerCallback, innerExtra, context)
        );
    }

    /// The batch gateway's answer handed to the resolver's own callback: its result, the
    /// resolver and the lookup's context.
    function finish(bytes calldata response, bytes calldata extraData) internal view returns (bytes memory, address, bytes memory) {
        (address resolver, bool extended, bytes4 innerCallback, bytes memory innerExtra, bytes memory context) =
            abi.decode(extraData, (address, bool, bytes4, bytes, bytes));
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != 1 || responses.length != 1) revert ResolverError(response);
        if (failures[0]) revert ResolverError(responses[0]);
        (bool ok, bytes memory ret) = resolver.staticcall(abi.encodeWithSelector(innerCallback, responses[0], innerExtra));
        if (!ok) revert ResolverError(ret);
        return (extended ? abi.decode(ret, (bytes)) : ret, resolver, context);
    }

    /// ENSIP-10: the resolver of the name, else of its closest parent that has one (`exact`:
    /// the name's own).
    function findResolver(bytes memory name) internal view returns (address, bool) {
        uint256 offset = 0;
        while (true) {
            address resolver = registry.resolver(namehash(name, offset));
            if (resolver != address(0)) return (resolver, offset == 0);
            uint256 len = uint8(name[offset]);
            if (len == 0) return (address(0), false);
            offset += len + 1;
        }
        return (address(0), false);
    }

    function supportsExtended(address resolver) internal view returns (bool) {
        (bool ok, bytes memory ret) = resolver.staticcall{gas: 30000}(abi.encodeWithSelector(SUPPORTS_INTERFACE, EXTENDED_RESOLVE));
        return ok && ret.length == 32 && uint256(bytes32(ret)) == 1;
    }

    // ---- names ----

    /// EIP-137 namehash of the DNS-encoded name from `offset` on.
    function namehash(bytes memory name, uint256 offset) internal pure returns (bytes32) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 len = uint8(name[offset]);
        if (len == 0) {
            if (offset != name.length - 1) revert DNSDecodingFailed(name);
            return bytes32(0);
        }
        if (offset + len + 1 >= name.length) revert DNSDecodingFailed(name);
        bytes32 label;
        assembly {
            label := keccak256(add(add(name, 33), offset), len)
        }
        return keccak256(abi.encodePacked(namehash(name, offset + len + 1), label));
    }

    /// A dotted name in DNS wire format.
    function dnsEncode(string memory text) internal pure returns (bytes memory out) {
        bytes memory b = bytes(text);
        out = new bytes(b.length + 2);
        uint256 start = 0;
        for (uint256 i = 0; i <= b.length; i++) {
            if (i == b.length || b[i] == ".") {
                uint256 len = i - start;
                if (len == 0 || len > 255) revert DNSEncodingFailed(text);
                out[start] = bytes1(uint8(len));
                for (uint256 j = start; j < i; j++) out[j + 1] = b[j];
                start = i + 1;
            }
        }
    }

    /// `<hex>.addr.reverse` (coin type 60) or `<hex>.<coin type hex>.reverse`, DNS-encoded.
    function reverseName(bytes memory lookupAddress, uint256 coinType) internal pure returns (bytes memory) {
        bytes memory hexAddress = toHex(lookupAddress);
        bytes memory namespace = coinType == ETHEREUM ? bytes("addr") : uintToHex(coinType);
        return abi.encodePacked(uint8(hexAddress.length), hexAddress, uint8(namespace.length), namespace, uint8(7), "reverse", uint8(0));
    }

    function toHex(bytes memory data) internal pure returns (bytes memory out) {
        bytes16 digits = "0123456789abcdef";
        out = new bytes(data.length * 2);
        for (uint256 i = 0; i < data.length; i++) {
            out[2 * i] = digits[uint8(data[i]) >> 4];
            out[2 * i + 1] = digits[uint8(data[i]) & 0x0f];
        }
    }

    /// Lower-case hex without leading zeros ("0" for zero).
    function uintToHex(uint256 value) internal pure returns (bytes memory out) {
        uint256 len = 1;
        for (uint256 v = value >> 4; v != 0; v >>= 4) len++;
        bytes16 digits = "0123456789abcdef";
        out = new bytes(len);
        for (uint256 i = len; i > 0; i--) {
            out[i - 1] = digits[value & 0x0f];
            value >>= 4;
        }
    }

    function selectorOf(bytes memory data) internal pure returns (bytes4 selector) {
        if (data.length < 4) return bytes4(0);
        assembly {
            selector := mload(add(data, 32))
        }
    }

    function withoutSelector(bytes memory data) internal pure returns (bytes memory out) {
        out = new bytes(data.length - 4);
        for (uint256 i = 0; i < out.length; i++) out[i] = data[i + 4];
    }
}
