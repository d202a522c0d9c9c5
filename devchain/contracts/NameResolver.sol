// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

interface INameRegistryOwner {
    function owner(bytes32 node) external view returns (address);
}

/// @title NameResolver
/// @notice A minimal ENS-compatible resolver for the dev chain with the three record kinds
///         identity lookups read: addr(node) for forward resolution, name(node) on reverse
///         nodes, and text(node, key) (e.g. "avatar"). The node's owner in the registry sets them.
contract NameResolver {
    INameRegistryOwner public immutable registry;

    mapping(bytes32 => address) private addresses;
    mapping(bytes32 => string) private names;
    mapping(bytes32 => mapping(string => string)) private texts;

    event AddrChanged(bytes32 indexed node, address a);
    event NameChanged(bytes32 indexed node, string name);
    event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value);

    modifier authorised(bytes32 node) {
        require(registry.owner(node) == msg.sender, "NameResolver: not the node's owner");
        _;
    }

    constructor(INameRegistryOwner registry_) {
        registry = registry_;
    }

    function addr(bytes32 node) external view returns (address) {
        return addresses[node];
    }

    function name(bytes32 node) external view returns (string memory) {
        return names[node];
    }

    function text(bytes32 node, string calldata key) external view returns (string memory) {
        return texts[node][key];
    }

    function setAddr(bytes32 node, address a) external authorised(node) {
        addresses[node] = a;
        emit AddrChanged(node, a);
    }

    function setName(bytes32 node, string calldata newName) external authorised(node) {
        names[node] = newName;
        emit NameChanged(node, newName);
    }

    function setText(bytes32 node, string calldata key, string calldata value) external authorised(node) {
        texts[node][key] = value;
        emit TextChanged(node, key, key, value);
    }

    /// ERC-165: addr (0x3b3b57de), name (0x691f3431), text (0x59d1d43c), ERC-165 itself.
    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x3b3b57de || id == 0x691f3431 || id == 0x59d1d43c;
    }
}
