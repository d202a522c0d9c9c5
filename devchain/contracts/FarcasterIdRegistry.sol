// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

/// @title FarcasterIdRegistry
/// @notice The read interface of Farcaster's ID registry for the dev chain: each Farcaster id
///         (fid) has a custody address, whose key signs Sign In With Farcaster messages.
///         custodyOf(fid) and idOf(custody) as on OP Mainnet; fids are numbered from 1. Only
///         the deployer registers (the real registry's signatures and recovery are left out).
contract FarcasterIdRegistry {
    address public immutable owner;
    uint256 public idCounter;
    mapping(uint256 => address) public custodyOf;
    mapping(address => uint256) public idOf;

    event Register(address indexed to, uint256 indexed id, address recovery);

    constructor() {
        owner = msg.sender;
    }

    /// @notice A new fid with `to` as its custody address.
    function register(address to) external returns (uint256 fid) {
        require(msg.sender == owner, "FarcasterIdRegistry: only the owner registers");
        require(to != address(0) && idOf[to] == 0, "FarcasterIdRegistry: address has an fid");
        fid = ++idCounter;
        custodyOf[fid] = to;
        idOf[to] = fid;
        emit Register(to, fid, address(0));
    }
}
