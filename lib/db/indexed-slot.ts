import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { createBatcher, perHandle } from '@/lib/db/batch';
import { executePrepared } from '@/lib/db/rows';

/*
 * Freshness of public reads (docs/integrators.md, "Freshness: X-Indexed-Slot"): every public read answers
 * with the slot its data reflects, so a client that saw a transaction land at slot S can tell
 * whether the answer includes it. That slot is the indexer cursor's (every transaction of the
 * program up to it is mirrored), or a later one POST /v1/sync mirrored ahead of the cursor.
 * One deployment indexes one program, so it is the largest over the cursors table.
 *
 * The hot reads (identity, resolve, signals, transfer, reverse) take it in their own statement, from
 * the same snapshot as their rows; the others read it just before their data, so the data is
 * at least as fresh as the slot it is sent with.
 */

/** A value read from the mirror, and the slot the mirror reflected when it was read (the HTTP ring sends it as X-Indexed-Slot). */
export interface AtSlot<T> {
  value: T;
  indexedSlot: string;
}

/** The slot as a SQL scalar (text, '0' before the first run): embed it in a read's own statement. */
export const INDEXED_SLOT_SQL = `(SELECT COALESCE(max(GREATEST(COALESCE(last_slot, 0), COALESCE(synced_slot, 0))), 0)::text FROM indexer_cursors)`;
export const indexedSlotColumn = () => sql<string>`${sql.raw(INDEXED_SLOT_SQL)}`;

// Reads arriving while one runs share the next (lib/db/batch.ts): one statement for many requests.
// Measured side by side against the same build without it (bench/results/2026-11-26.md, "batchers": GET
// /v1/identity/{tag}/transfer, whose slot is read this way).
const batchedRead = perHandle((db: Db) =>
  createBatcher(async (asks: null[]) => {
    const [row] = await executePrepared<{ slot: string }>(db, 'indexed_slot', `SELECT ${INDEXED_SLOT_SQL} AS slot`, []);
    return asks.map(() => row!.slot);
  }),
);

/** The slot the mirror reflects now, as decimal text. */
export function readIndexedSlot(db: Db): Promise<string> {
  return batchedRead(db)(null);
}
