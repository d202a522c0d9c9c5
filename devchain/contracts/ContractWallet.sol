// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

/// @title ContractWallet
/// @notice A minimal EIP-1271 contract account for sign-in tests: a signature is valid
///         when it is a 65-byte ECDSA signature (r, s, v) by the owner EOA over `hash`
///         exactly as given (no prefix is added here).
contract ContractWallet {
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;
    // secp256k1 n / 2: signatures with a higher s are malleable and rejected.
    uint256 internal constant HALF_N =
        0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    address public immutable owner;

    constructor(address owner_) {
        require(owner_ != address(0), "ContractWallet: zero owner");
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return INVALID;
        if (uint256(s) > HALF_N) return INVALID;
        address signer = ecrecover(hash, v, r, s);
        if (signer == address(0) || signer != owner) return INVALID;
        return MAGIC_VALUE;
    }

    receive() external payable {}
}
