import type { PublicKey } from '@solana/web3.js';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities } from '@/lib/db/schema';
import { findTagRecordAddress } from '@/lib/registry/pda';

/** Rows filled per statement round; a mirror from before the column is done in a few runs of this. */
const BATCH = 500;

/**
 * Fills `identities.pda` on rows mirrored before the column existed (a migration cannot
 * derive a PDA in SQL). The indexer runs it before it mirrors anything, so a released
 * record's row is always found by its address. Cheap when there is nothing to do: one
 * indexed query. Returns how many rows it filled.
 */
export async function fillRecordAddresses(db: Db, programId: PublicKey): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await db.select({ tag: identities.tag }).from(identities).where(isNull(identities.pda)).limit(BATCH);
    for (const { tag } of rows) {
      const [pda] = findTagRecordAddress(tag, programId);
      await db
        .update(identities)
        .set({ pda: pda.toBase58() })
        .where(and(eq(identities.tag, tag), isNull(identities.pda)));
    }
    filled += rows.length;
    if (rows.length < BATCH) return filled;
  }
}
