// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The logic of ENS's reference offchain resolver (ensdomains/offchain-resolver), written again
/// for the tests: resolve() sends the client to the gateway (EIP-3668), resolveWithProof()
/// accepts the gateway's answer only when a trusted key signed it and it has not expired.
contract TagOffchainResolver {
    string public url;
    mapping(address => bool) public signers;

    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);

    constructor(string memory gatewayUrl, address[] memory trusted) {
        url = gatewayUrl;
        for (uint256 i = 0; i < trusted.length; i++) signers[trusted[i]] = true;
    }

    /// ENSIP-10: `name` DNS-encoded, `data` the resolver call (addr, text, …).
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory) {
        bytes memory callData = abi.encodeWithSelector(this.resolve.selector, name, data);
        string[] memory urls = new string[](1);
        urls[0] = url;
        revert OffchainLookup(address(this), urls, callData, this.resolveWithProof.selector, abi.encode(callData, address(this)));
    }

    function resolveWithProof(bytes calldata response, bytes calldata extraData) external view returns (bytes memory) {
        (bytes memory result, uint64 expires, bytes memory sig) = abi.decode(response, (bytes, uint64, bytes));
        (bytes memory callData, address sender) = abi.decode(extraData, (bytes, address));
        require(expires >= block.timestamp, "answer expired");
        bytes32 digest = keccak256(abi.encodePacked(hex"1900", sender, expires, keccak256(callData), keccak256(result)));
        require(signers[signerOf(digest, sig)], "untrusted signer");
        return result;
    }

    function signerOf(bytes32 digest, bytes memory sig) internal pure returns (address) {
        require(sig.length == 65, "signature must be 65 bytes");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(sig, 32))
            s := mload(add(sig, 64))
            v := byte(0, mload(add(sig, 96)))
        }
        // one signature per message: the low s only (EIP-2)
        require(uint256(s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0, "high s");
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "invalid signature");
        return signer;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x9061b923; // ERC-165, ENSIP-10
    }
}
