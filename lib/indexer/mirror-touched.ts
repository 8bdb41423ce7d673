import type { Connection, PublicKey } from '@solana/web3.js';
import type { Db } from '@/lib/db';
import { afterIdentityChanges, recordIdentityChanges } from '@/lib/feed/identity-changes';
import { logger } from '@/lib/observability/logger';
import { lockMirror } from './mirror-lock';
import { changedTags, mirrorRecordStates, noChanges, type MirrorChanges, type Provenance } from './mirror-records';
import { readRecordStates } from './record-states';

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
 * changed. Call `afterMirrorCommit` once the transaction has committed.
 */
export async function mirrorTouchedRecords(tx: Db, { connection, programId, touched, now }: MirrorTouchedInput): Promise<MirrorChanges> {
  if (touched.size === 0) return noChanges();
  await lockMirror(tx, programId.toBase58());
  const states = await readRecordStates(connection, programId, [...touched.keys()], 'finalized');
  const changes = await mirrorRecordStates(tx, states, (address) => touched.get(address)!, now);
  await recordIdentityChanges(tx, changedTags(changes), now);
  return changes;
}

/** What runs once the mirror's changes have committed: expiring cached /@tag pages by default. */
export type AfterCommit = (tags: readonly string[]) => Promise<void>;

/**
 * After the commit of `mirrorTouchedRecords`' transaction: `afterCommit` (by default, the
 * cached /@tag pages expire) hears of the tags whose identity changed. A failure there is
 * logged, not thrown: the mirror is right, only a cached page may lag until it expires.
 */
export async function afterMirrorCommit(changes: MirrorChanges, afterCommit: AfterCommit = afterIdentityChanges): Promise<void> {
  const visible = changedTags(changes);
  if (visible.length === 0) return;
  try {
    await afterCommit(visible);
  } catch (err) {
    logger.warn({ err, tags: visible.length }, 'indexer: could not expire the cached pages of changed tags');
  }
}
