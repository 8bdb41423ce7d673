import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';

/** First key of the mirror writers' advisory lock (`'tm'`); the second is hashtext(programId). */
const MIRROR_LOCK_CLASS = 0x746d;

/**
 * Takes the mirror writers' transaction-scoped lock for `programId` (released at commit or
 * rollback). Every writer that copies chain state into the mirror (the cron run's batches,
 * /v1/sync, reconcile --repair) takes it BEFORE reading the records: reads then happen in the
 * order of the writes, so an older read can never overwrite a newer one.
 */
export async function lockMirror(tx: Db, programId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${MIRROR_LOCK_CLASS}::int, hashtext(${programId}))`);
}
