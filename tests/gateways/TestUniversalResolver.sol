// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IExtendedResolver {
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory);
}

/// The batch gateway protocol (ENSIP-21): one lookup per query, each with its own sender.
interface IBatchGateway {
    struct Request {
        address sender;
        string[] urls;
        bytes data;
    }

    function query(Request[] memory) external view returns (bool[] memory failures, bytes[] memory responses);
}

/// What viem's getEnsAddress and getEnsText call (the universal resolver's resolveWithGateways),
/// reduced to one parent whose resolver is given. When that resolver reverts with OffchainLookup,
/// it sends the lookup on through the batch gateway the client names (viem answers
/// `x-batch-gateway:true` itself), as ENS's universal resolver does: the gateway is then asked
/// with the resolver as the sender, which is what the resolver's signature check binds.
contract TestUniversalResolver {
    address public immutable resolver;

    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);

    constructor(address parentResolver) {
        resolver = parentResolver;
    }

    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata gateways)
        external
        view
        returns (bytes memory, address)
    {
        try IExtendedResolver(resolver).resolve(name, data) returns (bytes memory result) {
            return (result, resolver);
        } catch (bytes memory reason) {
            require(reason.length >= 4 && bytes4(reason) == OffchainLookup.selector, "resolver failed");
            (address sender, string[] memory urls, bytes memory callData, bytes4 callback, bytes memory extraData) =
                abi.decode(withoutSelector(reason), (address, string[], bytes, bytes4, bytes));
            require(sender == resolver, "lookup from another contract");
            IBatchGateway.Request[] memory requests = new IBatchGateway.Request[](1);
            requests[0] = IBatchGateway.Request(sender, urls, callData);
            revert OffchainLookup(
                address(this),
                gateways,
                abi.encodeCall(IBatchGateway.query, (requests)),
                this.resolveCallback.selector,
                abi.encode(callback, extraData)
            );
        }
    }

    function resolveCallback(bytes calldata response, bytes calldata extraData) external view returns (bytes memory, address) {
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        require(!failures[0], "the gateway failed");
        (bytes4 callback, bytes memory inner) = abi.decode(extraData, (bytes4, bytes));
        (bool ok, bytes memory returned) = resolver.staticcall(abi.encodeWithSelector(callback, responses[0], inner));
        if (!ok) {
            assembly {
                revert(add(returned, 32), mload(returned))
            }
        }
        return (abi.decode(returned, (bytes)), resolver);
    }

    function withoutSelector(bytes memory data) internal pure returns (bytes memory out) {
        out = new bytes(data.length - 4);
        for (uint256 i = 0; i < out.length; i++) out[i] = data[i + 4];
    }
}
