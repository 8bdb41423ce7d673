import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { createBatcher, perHandle } from '@/lib/db/batch';
import { identities, type IdentityRow } from '@/lib/db/schema';

/*
 * Named identity queries: each returns a row (or rows) or null. The public read is the hot
 * path (GET /v1/identity, /v1/resolve, the /@tag page), so it is a named prepared statement
 * (PostgreSQL plans it once per connection, drizzle builds its SQL once per process);
 * concurrent reads of one tag share one query in flight, and reads of other tags arriving
 * meanwhile go together in the next query (lib/db/batch.ts). Nothing is kept once a query
 * answers: no read sees data older than a query that was running when it arrived.
 */

interface ActiveReads {
  find: (tag: string) => Promise<IdentityRow | null>;
  inFlight: Map<string, Promise<IdentityRow | null>>;
}

const activeReads = perHandle((db: Db): ActiveReads => {
  const query = db
    .select()
    .from(identities)
    .where(and(sql`${identities.tag} = ANY(${sql.placeholder('tags')}::text[])`, eq(identities.status, 'active')))
    .prepare('identity_find_active_tags');
  const find = createBatcher(async (tags: string[]) => {
    const byTag = new Map((await query.execute({ tags })).map((row) => [row.tag, row]));
    return tags.map((tag) => byTag.get(tag) ?? null);
  });
  return { find, inFlight: new Map() };
});

/**
 * The active identity with this canonical tag, or null (missing and blocked alike). Callers
 * asking for the same tag while a query for it runs share that query's answer (a popular tag
 * under load costs one query at a time, not one per request). Treat the row as read-only.
 */
export function findActiveIdentity(db: Db, tag: string): Promise<IdentityRow | null> {
  const reads = activeReads(db);
  const pending = reads.inFlight.get(tag);
  if (pending) return pending;
  const read = reads.find(tag).finally(() => {
    if (reads.inFlight.get(tag) === read) reads.inFlight.delete(tag);
  });
  reads.inFlight.set(tag, read);
  return read;
}

/**
 * After a write to `tag`, later reads in this process must not join a query that started
 * before it: they start their own.
 */
export function forgetActiveRead(db: Db, tag: string): void {
  activeReads(db).inFlight.delete(tag);
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
