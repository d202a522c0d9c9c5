// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

/// @title NoReturnToken
/// @notice An ERC-20 that behaves like mainnet USDT where clients trip over it:
///         `transfer`, `transferFrom` and `approve` return nothing (no bool), so a caller that
///         decodes a bool from the return data fails on an empty `0x`; and `approve` from a
///         non-zero allowance to another non-zero value reverts (set it to 0 first).
///         The whole initial supply goes to the deployer. Dev chain only.
contract NoReturnToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 initialSupply) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = initialSupply;
        balanceOf[msg.sender] = initialSupply;
        emit Transfer(address(0), msg.sender, initialSupply);
    }

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function approve(address spender, uint256 value) external {
        require(value == 0 || allowance[msg.sender][spender] == 0, "NoReturnToken: reset allowance to 0 first");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "NoReturnToken: allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "NoReturnToken: zero address");
        uint256 have = balanceOf[from];
        require(have >= value, "NoReturnToken: balance");
        unchecked {
            balanceOf[from] = have - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
