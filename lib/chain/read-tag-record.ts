import type { Address, Commitment } from '@solana/kit';
import { accountBytesOf } from '@/lib/chain/account-bytes';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { liveRecord, recordAt, type TagRecord } from '@/lib/chain/record-states';

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
  rpc: SolanaRpc,
  programAddress: Address,
  pda: Address,
  commitment: Commitment = 'confirmed',
): Promise<TagRecord | null> {
  const { value } = await rpcCall(() => rpc.getAccountInfo(pda, { encoding: 'base64', commitment }).send());
  return liveRecord(recordAt(programAddress, pda, accountBytesOf(value)));
}
