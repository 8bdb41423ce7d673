import { createHash } from 'node:crypto';
import { getAddressDecoder, getAddressEncoder, isOffCurveAddress, type Address, type Commitment } from '@solana/kit';
import { accountBytesOf, type AccountBytes } from '@/lib/chain/account-bytes';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { parseTagRecord, type TagRecordFields } from '@/packages/tag-registry/src';

/** A tag record as the program stores it, its keys as addresses (packages/tag-registry/src/tag-record.ts). */
export type TagRecord = TagRecordFields;

/** getMultipleAccounts answers at most this many accounts per call. */
export const MAX_ACCOUNTS_PER_CALL = 100;

/** The PDA seed of a tag record, before the tag's bytes (the IDL's `["tag", tag]`). */
const TAG_SEED = new TextEncoder().encode('tag');
const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');

/**
 * What the chain holds at a tag record's address: the live record, or null when there is none
 * (never created, closed, or resting after a release: `liveRecord`).
 */
export type RecordStates = Map<string, TagRecord | null>;

/**
 * The tag records at `addresses` as the cluster holds them at `commitment` (the indexer reads
 * at `finalized`), up to 100 per getMultipleAccounts call, the calls in parallel. 503 when
 * the cluster cannot be reached.
 */
export async function readRecordStates(
  rpc: SolanaRpc,
  programAddress: Address,
  addresses: readonly string[],
  commitment: Commitment = 'finalized',
): Promise<RecordStates> {
  const unique = [...new Set(addresses)] as Address[];
  const chunks: Address[][] = [];
  for (let i = 0; i < unique.length; i += MAX_ACCOUNTS_PER_CALL)
    chunks.push(unique.slice(i, i + MAX_ACCOUNTS_PER_CALL));
  const answers = await Promise.all(
    chunks.map((chunk) => rpcCall(() => rpc.getMultipleAccounts(chunk, { encoding: 'base64', commitment }).send())),
  );
  const states: RecordStates = new Map();
  chunks.forEach((chunk, c) =>
    chunk.forEach((address, i) =>
      states.set(address, liveRecord(recordAt(programAddress, address, accountBytesOf(answers[c]!.value[i] ?? null)))),
    ),
  );
  return states;
}

/**
 * The record an account holds, or null. Only the program writes its records, so an account
 * the program does not own (an emptied address someone sent lamports to), data that is not a
 * TagRecord, or a record that does not sit at the PDA of its own tag is no record at all.
 */
export function recordAt(programAddress: Address, address: string, account: AccountBytes | null): TagRecord | null {
  if (!account || account.owner !== programAddress) return null;
  const record = parseTagRecord(account.data);
  if (!record) return null;
  return isAddressOf(record, address, programAddress) ? record : null;
}

/**
 * With the stored canonical bump, one hash (not a search over bumps) checks the address: the
 * runtime's PDA rule, sha256(seeds, bump, program, "ProgramDerivedAddress"), off the curve.
 */
function isAddressOf(record: TagRecord, address: string, programAddress: Address): boolean {
  const hash = createHash('sha256')
    .update(TAG_SEED)
    .update(new TextEncoder().encode(record.tag))
    .update(Uint8Array.of(record.bump))
    .update(getAddressEncoder().encode(programAddress) as Uint8Array)
    .update(PDA_MARKER)
    .digest();
  const expected = getAddressDecoder().decode(hash);
  return expected === address && isOffCurveAddress(expected);
}

/** How long a released tag rests (program/README.md "The resting record"): 30 days of the Clock's unix time. */
export const REST_SECONDS = 2_592_000n;

/**
 * A released tag's record stays at its address while the tag rests, marked by
 * `pending_owner == owner` (no live record holds that: program/README.md "The resting record").
 * Its `owner` is the previous owner, its wallet zero, its `registered_at` the release time.
 */
export function isResting(record: TagRecord): boolean {
  return record.pendingOwner !== null && record.pendingOwner === record.owner;
}

/** When a resting record's rest ends (unix seconds): from then on anyone may register the tag. */
export function restEndsAt(record: TagRecord): bigint {
  return record.registeredAt + REST_SECONDS;
}

/** The record as an identity: null for a resting one, which reads as released (no identity, no payout). */
export function liveRecord(record: TagRecord | null): TagRecord | null {
  return record && !isResting(record) ? record : null;
}
