import type { Connection, PublicKey } from '@solana/web3.js';
import type { Db } from '@/lib/db';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { lockMirror } from './mirror-lock';
import { changedTags, mirrorRecordStates, noChanges, type MirrorChanges, type Provenance } from './mirror-records';
import { readRecordStates } from '@/lib/chain/record-states';

export interface MirrorTouchedInput {
  connection: Connection;
  programId: PublicKey;
  /** Each record address a landed transaction touched → the newest such transaction. */
  touched: ReadonlyMap<string, Provenance>;
  now: Date;
}

/**
 * The one way chain state enters the mirror (DESIGN "Indexer"), for the cron run, /v1/sync
 * and reconcile alike. Inside the caller's database transaction: takes the mirror lock, THEN
 * reads the touched records at `finalized` (so reads happen in the order of the writes),
 * makes their rows match, and appends the change-feed events of the tags whose identity
 * changed. Nothing to do after the commit: every page is read from the mirror per view.
 */
export async function mirrorTouchedRecords(
  tx: Db,
  { connection, programId, touched, now }: MirrorTouchedInput,
): Promise<MirrorChanges> {
  if (touched.size === 0) return noChanges();
  await lockMirror(tx, programId.toBase58());
  const states = await readRecordStates(connection, programId, [...touched.keys()], 'finalized');
  const changes = await mirrorRecordStates(tx, states, (address) => touched.get(address)!, now);
  await recordIdentityChanges(tx, changedTags(changes), now);
  return changes;
}
