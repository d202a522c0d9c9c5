// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

interface IBalanceOf {
    function balanceOf(address account) external view returns (uint256);
}

/// @title SigilPair
/// @notice A minimal price pair with the read interface of a Uniswap-v2-style pair
///         (token0, token1, getReserves), used by Sigil's on-chain price source in tests.
///         There is no factory, no swapping and no liquidity token: tokens are transferred
///         to the pair and `sync()` records its balances as the reserves.
contract SigilPair {
    address public immutable token0;
    address public immutable token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    event Sync(uint112 reserve0, uint112 reserve1);

    constructor(address tokenA, address tokenB) {
        require(tokenA != tokenB, "SigilPair: identical tokens");
        (address a, address b) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(a != address(0), "SigilPair: zero address");
        token0 = a;
        token1 = b;
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// @notice Set the reserves to the pair's current token balances.
    function sync() external {
        uint256 b0 = IBalanceOf(token0).balanceOf(address(this));
        uint256 b1 = IBalanceOf(token1).balanceOf(address(this));
        require(b0 <= type(uint112).max && b1 <= type(uint112).max, "SigilPair: overflow");
        reserve0 = uint112(b0);
        reserve1 = uint112(b1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }
}
