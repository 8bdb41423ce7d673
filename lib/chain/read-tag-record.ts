import type { Commitment, Connection, PublicKey } from '@solana/web3.js';
import { rpcCall } from '@/lib/chain/rpc';
import { liveRecord, recordAt } from '@/lib/chain/record-states';
import { type TagRecord } from '@/packages/tag-registry/src/web3js';

/**
 * A canonical tag's record as the chain holds it right now, read at its address `pda`, which
 * the caller derived (DESIGN "Lifecycle": the caller is judged on the record on chain, not
 * only the mirror). What counts as a record is the indexer's rule (`recordAt`): an account the
 * program does not own, or data that is not a TagRecord sitting at its own tag's address, is
 * none (null, as for a tag never registered or released), and so is a resting record (a
 * released tag during its rest: `liveRecord`); so a record found is this tag's live one.
 * 503 when the cluster cannot be reached.
 */
export async function readTagRecord(
  connection: Connection,
  programId: PublicKey,
  pda: PublicKey,
  commitment: Commitment = 'confirmed',
): Promise<TagRecord | null> {
  const account = await rpcCall(() => connection.getAccountInfo(pda, commitment));
  return liveRecord(recordAt(programId, pda.toBase58(), account));
}
