// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

/// @title NameRegistry
/// @notice A minimal ENS-compatible registry for the dev chain: each node (a namehash) has an
///         owner and a resolver, and only a node's owner may change it or create subnodes.
///         It answers the registry calls a reverse lookup makes: owner(node), resolver(node).
contract NameRegistry {
    struct Record {
        address owner;
        address resolver;
    }

    mapping(bytes32 => Record) private records;

    event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner);
    event NewResolver(bytes32 indexed node, address resolver);

    modifier onlyOwner(bytes32 node) {
        require(records[node].owner == msg.sender, "NameRegistry: not the node's owner");
        _;
    }

    constructor() {
        records[bytes32(0)].owner = msg.sender;
    }

    function owner(bytes32 node) external view returns (address) {
        return records[node].owner;
    }

    function resolver(bytes32 node) external view returns (address) {
        return records[node].resolver;
    }

    function setSubnodeOwner(bytes32 node, bytes32 label, address newOwner) external onlyOwner(node) returns (bytes32 subnode) {
        subnode = keccak256(abi.encodePacked(node, label));
        records[subnode].owner = newOwner;
        emit NewOwner(node, label, newOwner);
    }

    function setResolver(bytes32 node, address newResolver) external onlyOwner(node) {
        records[node].resolver = newResolver;
        emit NewResolver(node, newResolver);
    }
}
