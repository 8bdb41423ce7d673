import { decodeFunctionData, encodeAbiParameters, namehash, parseAbi, toHex, type Hex } from 'viem';
import { AppError } from '@/lib/core/errors';
import { decodePublicKey } from '@/lib/core/keys';
import type { PublicIdentityColumns } from '@/lib/features/identity/identity-response';

/*
 * What a tag answers to the resolver calls an ENS client makes (ENSIP-1, ENSIP-5, ENSIP-9/11),
 * ABI-encoded as the resolver function itself returns it. An identity is given only for a live
 * tag whose name matched the call's node; anything else answers every record empty.
 */

/** SLIP-44 coin type of Solana (ENSIP-9; ENSIP-11 keeps it for non-EVM chains). */
export const SOLANA_COIN_TYPE = 501n;

const RESOLVER_CALLS = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
  'function multicall(bytes[] data) returns (bytes[] results)',
]);

/** What the text records of a tag are made of: the identity, and the address of its /@tag page. */
export interface TagRecords {
  identity: Pick<PublicIdentityColumns, 'wallet' | 'displayName' | 'avatar' | 'bio'>;
  pageUrl: string;
}

const ZERO_ADDRESS = `0x${'00'.repeat(20)}` as const;

/** The text records a tag answers (ENSIP-5's global keys); every other key is empty. */
function textRecord({ identity, pageUrl }: TagRecords, key: string): string {
  switch (key) {
    case 'avatar':
      return identity.avatar ?? '';
    case 'description':
      return identity.bio ?? '';
    case 'url':
      return pageUrl;
    case 'name':
      return identity.displayName ?? '';
    default:
      return '';
  }
}

/**
 * The ABI-encoded result of one resolver call for the name `name`, whose records are `records`
 * (null: a name with no live tag). A call for another node than the name's answers empty, as a
 * resolver answers for a node it holds nothing for. 400 for a call no resolver profile defines.
 */
export function resolverCallResult(call: Hex, name: string, records: TagRecords | null): Hex {
  let decoded;
  try {
    decoded = decodeFunctionData({ abi: RESOLVER_CALLS, data: call });
  } catch {
    throw new AppError(
      'invalid_request',
      'The resolver call must be addr(bytes32), addr(bytes32,uint256), text(bytes32,string), contenthash(bytes32) or multicall(bytes[]).',
    );
  }
  if (decoded.functionName === 'multicall')
    return encodeAbiParameters(
      [{ type: 'bytes[]' }],
      [decoded.args[0].map((inner) => resolverCallResult(inner, name, records))],
    );
  const mine = records && decoded.args[0] === namehash(name) ? records : null;
  switch (decoded.functionName) {
    case 'addr':
      if (decoded.args.length === 1) return encodeAbiParameters([{ type: 'address' }], [ZERO_ADDRESS]);
      return encodeAbiParameters([{ type: 'bytes' }], [coinAddress(mine, decoded.args[1])]);
    case 'text':
      return encodeAbiParameters([{ type: 'string' }], [mine ? textRecord(mine, decoded.args[1]) : '']);
    case 'contenthash':
      return encodeAbiParameters([{ type: 'bytes' }], ['0x']);
  }
}

/** addr(node, coinType): the payout wallet's 32 bytes for Solana; every other coin (Ethereum's 60 too) empty. */
function coinAddress(records: TagRecords | null, coinType: bigint): Hex {
  if (!records || coinType !== SOLANA_COIN_TYPE) return '0x';
  const bytes = decodePublicKey(records.identity.wallet);
  return bytes ? toHex(bytes) : '0x';
}
