import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow } from '@/lib/db/schema';

/*
 * Named identity queries: each returns a row (or rows) or null. The public read is the hot
 * path (GET /v1/identity, /v1/resolve, the /@tag page), so it is a named prepared statement:
 * PostgreSQL plans it once per connection, and drizzle builds its SQL once per process.
 */

const tagParam = sql.placeholder('tag');

function prepareFindActive(db: Db) {
  return db
    .select()
    .from(identities)
    .where(and(eq(identities.tag, tagParam), eq(identities.status, 'active')))
    .limit(1)
    .prepare('identity_find_active');
}

const preparedByDb = new WeakMap<Db, ReturnType<typeof prepareFindActive>>();

/** The active identity with this canonical tag, or null (missing and blocked alike). */
export async function findActiveIdentity(db: Db, tag: string): Promise<IdentityRow | null> {
  let query = preparedByDb.get(db);
  if (!query) {
    query = prepareFindActive(db);
    preparedByDb.set(db, query);
  }
  const rows = await query.execute({ tag });
  return rows[0] ?? null;
}

/** The identity row with this canonical tag whatever its status (moderation, ownership checks). */
export async function findIdentityRow(db: Db, tag: string): Promise<IdentityRow | null> {
  const rows = await db.select().from(identities).where(eq(identities.tag, tag)).limit(1);
  return rows[0] ?? null;
}

/** The active identities a public key owns, oldest first (the settings page). */
export async function listIdentitiesByOwner(db: Db, owner: string): Promise<IdentityRow[]> {
  return db
    .select()
    .from(identities)
    .where(and(eq(identities.owner, owner), eq(identities.status, 'active')))
    .orderBy(asc(identities.createdAt), asc(identities.tag));
}
