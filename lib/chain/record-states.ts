import { PublicKey, type AccountInfo, type Commitment, type Connection } from '@solana/web3.js';
import { rpcCall } from '@/lib/chain/rpc';
import { decodeTagRecord, type TagRecord, TAG_SEED } from '@/packages/tag-registry/src/web3js';

/** getMultipleAccounts answers at most this many accounts per call. */
export const MAX_ACCOUNTS_PER_CALL = 100;

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
  connection: Connection,
  programId: PublicKey,
  addresses: readonly string[],
  commitment: Commitment = 'finalized',
): Promise<RecordStates> {
  const unique = [...new Set(addresses)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += MAX_ACCOUNTS_PER_CALL)
    chunks.push(unique.slice(i, i + MAX_ACCOUNTS_PER_CALL));
  const answers = await Promise.all(
    chunks.map((chunk) =>
      rpcCall(() =>
        connection.getMultipleAccountsInfo(
          chunk.map((a) => new PublicKey(a)),
          commitment,
        ),
      ),
    ),
  );
  const states: RecordStates = new Map();
  chunks.forEach((chunk, c) =>
    chunk.forEach((address, i) =>
      states.set(address, liveRecord(recordAt(programId, address, answers[c]![i] ?? null))),
    ),
  );
  return states;
}

/**
 * The record an account holds, or null. Only the program writes its records, so an account
 * the program does not own (an emptied address someone sent lamports to), data that is not a
 * TagRecord, or a record that does not sit at the PDA of its own tag is no record at all.
 */
export function recordAt(programId: PublicKey, address: string, account: AccountInfo<Buffer> | null): TagRecord | null {
  if (!account || !account.owner.equals(programId)) return null;
  const record = decodeTagRecord(account.data);
  if (!record) return null;
  return isAddressOf(record, address, programId) ? record : null;
}

/** With the stored canonical bump, one hash (not findProgramAddress's search) checks the address. */
function isAddressOf(record: TagRecord, address: string, programId: PublicKey): boolean {
  try {
    const expected = PublicKey.createProgramAddressSync(
      [Buffer.from(TAG_SEED), Buffer.from(record.tag, 'utf8'), Buffer.from([record.bump])],
      programId,
    );
    return expected.toBase58() === address;
  } catch {
    return false; // seeds that land on the curve: not a PDA
  }
}

/** How long a released tag rests (program/README.md "The resting record"): 30 days of the Clock's unix time. */
export const REST_SECONDS = 2_592_000n;

/**
 * A released tag's record stays at its address while the tag rests, marked by
 * `pending_owner == owner` (no live record holds that: program/README.md "The resting record").
 * Its `owner` is the previous owner, its wallet zero, its `registered_at` the release time.
 */
export function isResting(record: TagRecord): boolean {
  return record.pendingOwner !== null && record.pendingOwner.equals(record.owner);
}

/** When a resting record's rest ends (unix seconds): from then on anyone may register the tag. */
export function restEndsAt(record: TagRecord): bigint {
  return record.registeredAt + REST_SECONDS;
}

/** The record as an identity: null for a resting one, which reads as released (no identity, no payout). */
export function liveRecord(record: TagRecord | null): TagRecord | null {
  return record && !isResting(record) ? record : null;
}
