import type { PublicKey } from '@solana/web3.js';
import { isNull, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { perHandle } from '@/lib/db/batch';
import { identities } from '@/lib/db/schema';
import { findTagRecordAddress } from '@/lib/registry/pda';

/** Rows filled per statement round; a mirror from before the column is done in a few runs of this. */
const BATCH = 500;

/**
 * Per database handle: a pass found no row left to fill. The indexer's writer always sets
 * `pda` (mirrorRecordStates), so from then on the query would find nothing again in this
 * process; /v1/sync and the indexer's runs skip it.
 */
const done = perHandle((_db: Db) => ({ value: false }));

/**
 * Fills `identities.pda` on rows mirrored before the column existed (a migration cannot
 * derive a PDA in SQL). The indexer runs it before it mirrors anything, so a released
 * record's row is always found by its address. Free once a pass found nothing to fill (see
 * `done`); until then one indexed query, plus one UPDATE per batch of rows. Returns how many
 * rows it filled.
 */
export async function fillRecordAddresses(db: Db, programId: PublicKey): Promise<number> {
  const state = done(db);
  if (state.value) return 0;
  let filled = 0;
  for (;;) {
    const rows = await db.select({ tag: identities.tag }).from(identities).where(isNull(identities.pda)).limit(BATCH);
    if (rows.length) {
      const tags = rows.map((r) => r.tag);
      const pdas = tags.map((tag) => findTagRecordAddress(tag, programId)[0].toBase58());
      await db.execute(
        sql`UPDATE ${identities} SET pda = v.pda FROM unnest(${sql.param(tags)}::text[], ${sql.param(pdas)}::text[]) AS v(tag, pda) WHERE ${identities.tag} = v.tag AND ${identities.pda} IS NULL`,
      );
    }
    filled += rows.length;
    if (rows.length < BATCH) break;
  }
  // Only a pass that filled nothing proves none is left (a row could have come in while this
  // one ran); the next call after a pass that filled rows looks once more.
  if (filled === 0) state.value = true;
  return filled;
}
