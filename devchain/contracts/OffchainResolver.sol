// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

/// @title OffchainResolver
/// @notice An ENSIP-10 wildcard resolver whose records are kept by a Sigil server: every
///         `resolve(name, data)` reverts with ERC-3668's `OffchainLookup`, sending the client
///         to the server's gateway (`/v1/profile/gateway/{sender}/{data}.json`) with the call
///         itself; the client then calls `resolveWithProof(answer, call)`. An answer is
///         `abi.encode(bytes result, uint64 expires, bytes signature)`, and it is taken only
///         when it has not expired and `signature` is by one of the signers over
///         `keccak256(0x1900 ‖ this resolver ‖ expires ‖ keccak256(call) ‖ keccak256(result))`
///         (the server's sigil_core::ccip::digest).
contract OffchainResolver {
    /// ERC-3668.
    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    /// The gateway's answer is past its expiry.
    error AnswerExpired(uint64 expires, uint256 now_);
    /// The answer is not signed by a signer of this resolver.
    error NotSigner(address recovered);
    /// The answer is not (bytes, uint64, bytes) with a 65-byte signature.
    error MalformedAnswer();

    // secp256k1 n / 2: a higher s is the malleable twin of a valid signature.
    uint256 internal constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    /// Where the gateway is: ERC-3668 URL templates ({sender}, {data}).
    string[] public urls;
    mapping(address => bool) public isSigner;

    event SignerAdded(address signer);

    constructor(string[] memory urls_, address[] memory signers) {
        require(urls_.length > 0, "OffchainResolver: no gateway URL");
        for (uint256 i = 0; i < urls_.length; i++) urls.push(urls_[i]);
        for (uint256 i = 0; i < signers.length; i++) {
            isSigner[signers[i]] = true;
            emit SignerAdded(signers[i]);
        }
    }

    /// ENSIP-10: every record of every name below the node this resolver is set on is off chain.
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory) {
        bytes memory call_ = abi.encodeWithSelector(this.resolve.selector, name, data);
        revert OffchainLookup(address(this), urls, call_, this.resolveWithProof.selector, call_);
    }

    /// ERC-3668's callback: the gateway's `answer` to `call_`, checked, then its result.
    function resolveWithProof(bytes calldata answer, bytes calldata call_) external view returns (bytes memory) {
        (bytes memory result, uint64 expires, bytes memory signature) = abi.decode(answer, (bytes, uint64, bytes));
        if (expires < block.timestamp) revert AnswerExpired(expires, block.timestamp);
        bytes32 digest = keccak256(abi.encodePacked(hex"1900", address(this), expires, keccak256(call_), keccak256(result)));
        address recovered = recover(digest, signature);
        if (recovered == address(0) || !isSigner[recovered]) revert NotSigner(recovered);
        return result;
    }

    /// ERC-165: ENSIP-10's resolve (0x9061b923) and ERC-165 itself.
    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x9061b923 || id == 0x01ffc9a7;
    }

    /// The signer of a 65-byte (r, s, v) signature over `digest` as given; zero when none.
    function recover(bytes32 digest, bytes memory signature) internal pure returns (address) {
        if (signature.length != 65) revert MalformedAnswer();
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) v += 27;
        if ((v != 27 && v != 28) || uint256(s) > HALF_N) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
