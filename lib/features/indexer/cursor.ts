import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { indexerCursors } from '@/lib/db/schema';

/** The newest signature of the program the indexer has processed, or nulls before the first run. */
export interface IndexerCursor {
  signature: string | null;
  slot: bigint | null;
}

export async function readCursor(db: Db, programId: string): Promise<IndexerCursor> {
  const rows = await db
    .select({ signature: indexerCursors.lastSignature, slot: indexerCursors.lastSlot })
    .from(indexerCursors)
    .where(eq(indexerCursors.programId, programId))
    .limit(1);
  return rows[0] ?? { signature: null, slot: null };
}

/** Moves the cursor; call it in the same database transaction as the inserts it covers. */
export async function writeCursor(
  db: Db,
  programId: string,
  signature: string,
  slot: number,
  now: Date,
): Promise<void> {
  const values = { lastSignature: signature, lastSlot: BigInt(slot), updatedAt: now };
  await db
    .insert(indexerCursors)
    .values({ programId, ...values })
    .onConflictDoUpdate({ target: indexerCursors.programId, set: values });
}

/**
 * POST /v1/sync mirrored a transaction of `slot` ahead of the cursor (which it leaves where it
 * is): X-Indexed-Slot reports the larger of the two (lib/db/indexed-slot.ts).
 */
export async function recordSyncedSlot(db: Db, programId: string, slot: number, now: Date): Promise<void> {
  await db
    .insert(indexerCursors)
    .values({ programId, syncedSlot: BigInt(slot), updatedAt: now })
    .onConflictDoUpdate({
      target: indexerCursors.programId,
      set: { syncedSlot: sql`GREATEST(COALESCE(${indexerCursors.syncedSlot}, 0), excluded.synced_slot)` },
    });
}
