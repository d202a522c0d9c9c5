// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

/// What an ERC-721 contract receiver answers (its selector, 0x150b7a02).
interface IBadgeReceiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}

/// @title SigilBadge
/// @notice A minimal ERC-721 (with the metadata extension) for Sigil's dev chain: "Sigil Badge"
///         (SBG), ids from 1, tokenURI(id) = baseURI + id in decimal. `mint(to)` is open to
///         anyone so tests can mint to the account they test: dev chain only.
contract SigilBadge {
    string public constant name = "Sigil Badge";
    string public constant symbol = "SBG";
    string public baseURI;
    /// Badges minted so far; the last id.
    uint256 public totalSupply;

    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) private approvals;
    mapping(address => mapping(address => bool)) private operators;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    constructor(string memory baseURI_) {
        baseURI = baseURI_;
    }

    /// ERC-165: ERC-165 itself (0x01ffc9a7), ERC-721 (0x80ac58cd), its metadata (0x5b5e139f).
    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f;
    }

    /// Mints the next id to `to`. Open to anyone (dev chain).
    function mint(address to) external returns (uint256 id) {
        require(to != address(0), "SigilBadge: zero address");
        id = ++totalSupply;
        owners[id] = to;
        balances[to] += 1;
        emit Transfer(address(0), to, id);
    }

    function balanceOf(address owner) external view returns (uint256) {
        require(owner != address(0), "SigilBadge: zero address");
        return balances[owner];
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = owners[tokenId];
        require(owner != address(0), "SigilBadge: no such token");
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return string.concat(baseURI, _decimal(tokenId));
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        require(msg.sender == owner || operators[owner][msg.sender], "SigilBadge: not owner or operator");
        approvals[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return approvals[tokenId];
    }

    function setApprovalForAll(address operator, bool approved) external {
        operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return operators[owner][operator];
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address owner = ownerOf(tokenId);
        require(owner == from, "SigilBadge: from is not the owner");
        require(to != address(0), "SigilBadge: zero address");
        require(
            msg.sender == owner || approvals[tokenId] == msg.sender || operators[owner][msg.sender],
            "SigilBadge: not owner, approved or operator"
        );
        delete approvals[tokenId];
        unchecked {
            balances[from] -= 1;
        }
        balances[to] += 1;
        owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    /// Like transferFrom; a contract `to` must answer onERC721Received with its selector.
    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        if (to.code.length == 0) return;
        try IBadgeReceiver(to).onERC721Received(msg.sender, from, tokenId, data) returns (bytes4 answer) {
            require(answer == IBadgeReceiver.onERC721Received.selector, "SigilBadge: receiver refused");
        } catch {
            revert("SigilBadge: receiver is not an ERC-721 receiver");
        }
    }

    function _decimal(uint256 value) private pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 v = value; v != 0; v /= 10) digits++;
        bytes memory out = new bytes(digits);
        for (uint256 i = digits; i > 0; value /= 10) {
            out[--i] = bytes1(uint8(48 + (value % 10)));
        }
        return string(out);
    }
}
