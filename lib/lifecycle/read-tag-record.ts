import type { Commitment, Connection, PublicKey } from '@solana/web3.js';
import { rpcCall } from '@/lib/chain/rpc';
import { decodeTagRecord, type TagRecord } from '@/lib/registry/account';
import { findTagRecordAddress } from '@/lib/registry/pda';

/** A tag's record as the chain holds it right now, and its address. */
export interface TagRecordOnChain {
  pda: PublicKey;
  /** Null when there is no record (never registered, or released). */
  record: TagRecord | null;
}

/**
 * Reads the record of a canonical tag (DESIGN "Lifecycle": the caller is judged on the record
 * on chain, not only the mirror). An account at the address that the program does not own, or
 * whose data is not a TagRecord of this tag, counts as no record: only the program writes
 * there, so anything else is not its record. 503 when the cluster cannot be reached.
 */
export async function readTagRecord(
  connection: Connection,
  programId: PublicKey,
  tag: string,
  commitment: Commitment = 'confirmed',
): Promise<TagRecordOnChain> {
  const [pda] = findTagRecordAddress(tag, programId);
  const account = await rpcCall(() => connection.getAccountInfo(pda, commitment));
  if (!account || !account.owner.equals(programId)) return { pda, record: null };
  const record = decodeTagRecord(account.data);
  return { pda, record: record && record.tag === tag ? record : null };
}
