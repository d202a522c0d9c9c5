// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

/// What an ERC-1155 contract receiver answers: 0xf23a6e61 for one id, 0xbc197c81 for a batch.
interface IItemsReceiver {
    function onERC1155Received(address operator, address from, uint256 id, uint256 value, bytes calldata data)
        external
        returns (bytes4);

    function onERC1155BatchReceived(
        address operator,
        address from,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external returns (bytes4);
}

/// @title SigilItems
/// @notice A minimal ERC-1155 (with the metadata-URI extension) for Sigil's dev chain.
///         uri(id) is the constructor's template for every id; it contains `{id}`, which clients
///         replace with the id as 64 lower-case hex digits. `mint(to, id, amount)` is open to
///         anyone so tests can mint to the account they test: dev chain only.
contract SigilItems {
    string private template;

    mapping(uint256 => mapping(address => uint256)) private balances;
    mapping(address => mapping(address => bool)) private operators;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);

    constructor(string memory uriTemplate) {
        template = uriTemplate;
    }

    /// ERC-165: ERC-165 itself (0x01ffc9a7), ERC-1155 (0xd9b67a26), its metadata URI (0x0e89341c).
    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0xd9b67a26 || id == 0x0e89341c;
    }

    function uri(uint256) external view returns (string memory) {
        return template;
    }

    /// Mints `amount` of `id` to `to`. Open to anyone (dev chain).
    function mint(address to, uint256 id, uint256 amount) external {
        require(to != address(0), "SigilItems: zero address");
        balances[id][to] += amount;
        emit TransferSingle(msg.sender, address(0), to, id, amount);
        _checkSingle(address(0), to, id, amount, "");
    }

    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return balances[id][account];
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids)
        external
        view
        returns (uint256[] memory out)
    {
        require(accounts.length == ids.length, "SigilItems: length mismatch");
        out = new uint256[](accounts.length);
        for (uint256 i = 0; i < accounts.length; i++) {
            out[i] = balances[ids[i]][accounts[i]];
        }
    }

    function setApprovalForAll(address operator, bool approved) external {
        require(operator != msg.sender, "SigilItems: approving yourself");
        operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address account, address operator) external view returns (bool) {
        return operators[account][operator];
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata data) external {
        _authorised(from, to);
        _move(from, to, id, amount);
        emit TransferSingle(msg.sender, from, to, id, amount);
        _checkSingle(from, to, id, amount, data);
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata amounts,
        bytes calldata data
    ) external {
        require(ids.length == amounts.length, "SigilItems: length mismatch");
        _authorised(from, to);
        for (uint256 i = 0; i < ids.length; i++) {
            _move(from, to, ids[i], amounts[i]);
        }
        emit TransferBatch(msg.sender, from, to, ids, amounts);
        if (to.code.length == 0) return;
        try IItemsReceiver(to).onERC1155BatchReceived(msg.sender, from, ids, amounts, data) returns (bytes4 answer) {
            require(answer == IItemsReceiver.onERC1155BatchReceived.selector, "SigilItems: receiver refused");
        } catch {
            revert("SigilItems: receiver is not an ERC-1155 receiver");
        }
    }

    function _authorised(address from, address to) private view {
        require(to != address(0), "SigilItems: zero address");
        require(from == msg.sender || operators[from][msg.sender], "SigilItems: not owner or operator");
    }

    function _move(address from, address to, uint256 id, uint256 amount) private {
        uint256 have = balances[id][from];
        require(have >= amount, "SigilItems: balance");
        unchecked {
            balances[id][from] = have - amount;
        }
        balances[id][to] += amount;
    }

    function _checkSingle(address from, address to, uint256 id, uint256 amount, bytes memory data) private {
        if (to.code.length == 0) return;
        try IItemsReceiver(to).onERC1155Received(msg.sender, from, id, amount, data) returns (bytes4 answer) {
            require(answer == IItemsReceiver.onERC1155Received.selector, "SigilItems: receiver refused");
        } catch {
            revert("SigilItems: receiver is not an ERC-1155 receiver");
        }
    }
}
