import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow } from '@/lib/db/schema';
import { isActiveIdentity } from './active';

/*
 * Named identity queries: each returns a row (or rows) or null. The public read of a tag by
 * its name, the hot path, is in active.ts (findActiveIdentityAtSlot).
 */

/** The identity row with this canonical tag whatever its status (moderation, ownership checks). */
export async function findIdentityRow(db: Db, tag: string): Promise<IdentityRow | null> {
  const rows = await db.select().from(identities).where(eq(identities.tag, tag)).limit(1);
  return rows[0] ?? null;
}

/** The active identities whose `column` holds `key`, oldest first: the settings page's lists. */
function listActiveIdentitiesBy(
  db: Db,
  column: typeof identities.owner | typeof identities.pendingOwner,
  key: string,
): Promise<IdentityRow[]> {
  return db
    .select()
    .from(identities)
    .where(and(eq(column, key), isActiveIdentity))
    .orderBy(asc(identities.createdAt), asc(identities.tag));
}

/** The active identities a public key owns, oldest first (the settings page). */
export async function listIdentitiesByOwner(db: Db, owner: string): Promise<IdentityRow[]> {
  return listActiveIdentitiesBy(db, identities.owner, owner);
}

/** The active tags offered to `key` (their record's pending owner), oldest first: the recipient's settings page. */
export async function listTagsOfferedTo(db: Db, key: string): Promise<IdentityRow[]> {
  return listActiveIdentitiesBy(db, identities.pendingOwner, key);
}

/** The active identity whose record is at `pda`, or null (what POST /v1/sync answers once it has mirrored the record). */
export async function findActiveIdentityByRecord(db: Db, pda: string): Promise<IdentityRow | null> {
  const rows = await db
    .select()
    .from(identities)
    .where(and(eq(identities.pda, pda), isActiveIdentity))
    .limit(1);
  return rows[0] ?? null;
}
