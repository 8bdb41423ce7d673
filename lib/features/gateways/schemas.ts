import { z } from 'zod';

/*
 * The gateways' request and answer shapes (ENS CCIP-Read, WebFinger, NIP-05): the same schemas
 * parse the requests and write the OpenAPI document.
 */

/** Longest callData taken: a resolve(name, multicall(…)) of a few dozen records fits many times over. */
const MAX_CALL_DATA_HEX = 16 * 1024;

/** resolve(dns("alice.tags.example.eth"), addr(namehash, 501)): what a wallet asking alice's Solana address sends. */
const ENS_CALL_DATA_EXAMPLE =
  '0x9061b92300000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000080000000000000000000000000000000000000000000000000000000000000001805616c6963650474616773076578616d706c65036574680000000000000000000000000000000000000000000000000000000000000000000000000000000044f1cb7e06474a6cc2ff3934f8f5ac12dfde4e3526bfb16e00acd5c559f3f5e80054a02b6200000000000000000000000000000000000000000000000000000000000001f500000000000000000000000000000000000000000000000000000000';

export const EnsSender = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be the resolver address: 0x and 40 hex digits')
  .transform((v) => v.toLowerCase() as `0x${string}`)
  .meta({
    description: 'The resolver contract that reverted with OffchainLookup',
    example: '0x8464135c8f25da09e49bc8782676a84730c318bc',
  });

export const EnsCallData = z
  .string()
  .max(MAX_CALL_DATA_HEX, `must be at most ${MAX_CALL_DATA_HEX} characters`)
  .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex bytes')
  .transform((v) => v.toLowerCase() as `0x${string}`)
  .meta({
    description:
      "The OffchainLookup's callData: `resolve(bytes name, bytes data)` of the ENS name (DNS-encoded) and its resolver call",
    example: ENS_CALL_DATA_EXAMPLE,
  });

/** The path form (`/v1/ens/{sender}/{data}.json`): the `.json` is the URL template's, not the data's. */
export const EnsLookupPath = z.object({
  sender: EnsSender,
  data: z.preprocess((v) => (typeof v === 'string' ? v.replace(/\.json$/, '') : v), EnsCallData),
});

/** The POST form (EIP-3668: a gateway URL without `{data}` is sent `{data, sender}`). */
export const EnsLookupBody = z
  .strictObject({ sender: EnsSender, data: EnsCallData })
  .meta({ id: 'EnsLookup', description: 'An OffchainLookup, as EIP-3668 POSTs it' });

export const EnsGatewayAnswer = z
  .object({
    data: z.string().meta({
      description:
        "abi.encode(bytes result, uint64 expires, bytes sig): the resolver call's result, its expiry (unix seconds, now + 300) and the gateway's secp256k1 signature over keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(callData) ‖ keccak256(result))",
    }),
  })
  .meta({
    id: 'EnsGatewayAnswer',
    description: "A signed answer, as ENS's offchain resolver reads it in resolveWithProof",
  });

export const EnsGatewayInfo = z
  .object({
    gateway: z.string().meta({ description: 'The gateway URL template the resolver contract is deployed with' }),
    signer: z.string().meta({ description: 'The address whose signatures the resolver must trust' }),
    parent: z.string().meta({ description: 'The ENS name whose subnames are the tags: `alice.<parent>`' }),
  })
  .meta({
    id: 'EnsGatewayInfo',
    description: "What an operator deploys ENS's offchain resolver with for the parent name",
    example: {
      gateway: 'https://tags.example.com/v1/ens/{sender}/{data}.json',
      signer: '0x4a9f0a3b0c2c8d7e7d59e6f0e4b3a1e8b1c2d3e4',
      parent: 'tags.example.eth',
    },
  });
