import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { tagNotFound } from './get-identity';

/**
 * One UPDATE of a tag's row (guarded by `guards` too), and its change-feed event, committed
 * together; 404 when no row matched. Used by the
 * profile patch and by moderation, the two writers of a row besides the indexer.
 */
export async function changeIdentity(
  db: Db,
  tag: string,
  set: Partial<NewIdentityRow>,
  now: Date,
  ...guards: SQL[]
): Promise<IdentityRow> {
  const [row] = await db.transaction(async (tx) => {
    const updated = await tx
      .update(identities)
      .set({ ...set, updatedAt: now })
      .where(and(eq(identities.tag, tag), ...guards))
      .returning();
    if (updated[0]) await recordIdentityChanges(tx, [tag], now);
    return updated;
  });
  if (!row) throw tagNotFound();
  return row;
}
