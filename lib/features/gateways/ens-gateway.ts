import 'server-only';
import { decodeFunctionData, encodeAbiParameters, encodePacked, hexToBytes, keccak256, parseAbi, type Hex } from 'viem';
import { privateKeyToAddress, sign } from 'viem/accounts';
import type { EnsGatewayConfig } from '@/lib/core/config';
import { AppError } from '@/lib/core/errors';
import { isCanonicalTag } from '@/lib/core/tag';
import type { Db } from '@/lib/db';
import { findActiveIdentityAtSlot } from '@/lib/features/identity/active';
import { resolverCallResult } from './ens-records';

/*
 * The ENS CCIP-Read gateway (EIP-3668, ENSIP-10; DESIGN.md "Reach beyond Solana clients"). The
 * parent name's resolver is ENS's reference offchain resolver (ensdomains/offchain-resolver): its
 * `resolve(name, data)` reverts with OffchainLookup, the client brings the revert's callData here,
 * and the resolver's `resolveWithProof` accepts the answer only when signed by a key it trusts.
 * The answer is `abi.encode(bytes result, uint64 expires, bytes sig)`, `sig` the gateway key's
 * secp256k1 signature over keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(callData) ‖
 * keccak256(result)). A name with no live tag (unknown, blocked, resting: the mirror holds no
 * active row) gets a signed empty answer, as an ENS resolver answers a name it holds nothing for.
 */

/** How long a signed answer stays valid: the resolver refuses it after `expires`. */
export const ENS_ANSWER_TTL_SECONDS = 300;

const GATEWAY_CALL = parseAbi(['function resolve(bytes name, bytes data) view returns (bytes)']);

/** One gateway request: the resolver that reverted (`sender`) and the callData of its OffchainLookup. */
export interface EnsLookup {
  sender: Hex;
  data: Hex;
}

/** What GET /v1/ens publishes, what an operator deploys the resolver with. */
export interface EnsGatewayInfo {
  /** The URL template the resolver contract is constructed with. */
  gateway: string;
  /** The address the resolver must trust (its `signers`). */
  signer: Hex;
  /** The ENS name whose subnames are the tags. */
  parent: string;
}

const signers = new Map<Hex, Hex>();

/** The signing key's Ethereum address (derived once per key). */
export function ensSignerAddress(key: Hex): Hex {
  let address = signers.get(key);
  if (!address) signers.set(key, (address = privateKeyToAddress(key)));
  return address;
}

export function ensGatewayInfo(config: EnsGatewayConfig, origin: string): EnsGatewayInfo {
  return {
    gateway: `${origin}/v1/ens/{sender}/{data}.json`,
    signer: ensSignerAddress(config.signerKey),
    parent: config.parentName,
  };
}

const UTF8 = new TextDecoder();

/** A DNS wire-format name (RFC 1035 §3.1, as ENSIP-10 passes it) → its dotted text; 400 when malformed. */
export function dnsDecodeName(wire: Uint8Array): string {
  const labels: string[] = [];
  let at = 0;
  for (;;) {
    const length = wire[at];
    if (length === undefined) throw new AppError('invalid_request', 'The DNS-encoded name has no terminating zero.');
    if (length === 0) break;
    const label = wire.subarray(at + 1, at + 1 + length);
    if (label.length !== length) throw new AppError('invalid_request', 'A label of the DNS-encoded name is cut short.');
    labels.push(UTF8.decode(label));
    at += 1 + length;
  }
  if (at !== wire.length - 1) throw new AppError('invalid_request', 'The DNS-encoded name has bytes after its end.');
  return labels.join('.');
}

/** `alice.<parent>` → `alice`; null for any other name (the parent itself, a deeper name, another parent). */
export function tagOfName(name: string, parent: string): string | null {
  const suffix = `.${parent}`;
  if (!name.endsWith(suffix)) return null;
  const label = name.slice(0, -suffix.length);
  return isCanonicalTag(label) ? label : null;
}

/** The callData of an OffchainLookup → the DNS-decoded name and the resolver call; 400 when it is not `resolve(bytes,bytes)`. */
function decodeLookup(data: Hex): { name: string; call: Hex } {
  let args: readonly [Hex, Hex];
  try {
    ({ args } = decodeFunctionData({ abi: GATEWAY_CALL, data }));
  } catch {
    throw new AppError('invalid_request', '`data` must be the callData of resolve(bytes name, bytes data).');
  }
  return { name: dnsDecodeName(hexToBytes(args[0])), call: args[1] };
}

/** The answer and the slot the mirror reflected (X-Indexed-Slot). */
export interface EnsAnswer {
  value: { data: Hex };
  indexedSlot: string;
}

/**
 * One gateway request → the signed answer. The tag is read with the same batched, prepared
 * read as /v1/resolve (lib/features/identity/active.ts): a change reaches both at once.
 */
export async function answerEnsLookup(
  db: Db,
  config: EnsGatewayConfig,
  pageOrigin: string,
  lookup: EnsLookup,
  now: Date,
): Promise<EnsAnswer> {
  const { name, call } = decodeLookup(lookup.data);
  const tag = tagOfName(name, config.parentName);
  const { value: row, indexedSlot } = await findActiveIdentityAtSlot(db, tag ?? '');
  const records = tag && row ? { identity: row, pageUrl: `${pageOrigin}/@${tag}` } : null;
  const result = resolverCallResult(call, name, records);
  const expires = BigInt(Math.floor(now.getTime() / 1000) + ENS_ANSWER_TTL_SECONDS);
  const hash = keccak256(
    encodePacked(
      ['bytes', 'address', 'uint64', 'bytes32', 'bytes32'],
      ['0x1900', lookup.sender, expires, keccak256(lookup.data), keccak256(result)],
    ),
  );
  const sig = await sign({ hash, privateKey: config.signerKey, to: 'hex' });
  return {
    value: {
      data: encodeAbiParameters([{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }], [result, expires, sig]),
    },
    indexedSlot,
  };
}
