import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow } from '@/lib/db/schema';

/*
 * Named identity queries: each returns a row (or rows) or null. The public read is the hot
 * path (GET /v1/identity, /v1/resolve, the /@tag page), so it is a named prepared statement
 * (PostgreSQL plans it once per connection, drizzle builds its SQL once per process), and
 * concurrent reads of one tag share one query in flight. Nothing is kept once that query
 * answers: no read sees data older than a query that was running when it arrived.
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

interface ActiveReads {
  query: ReturnType<typeof prepareFindActive>;
  inFlight: Map<string, Promise<IdentityRow | null>>;
}

const activeReadsByDb = new WeakMap<Db, ActiveReads>();

function activeReads(db: Db): ActiveReads {
  let reads = activeReadsByDb.get(db);
  if (!reads) {
    reads = { query: prepareFindActive(db), inFlight: new Map() };
    activeReadsByDb.set(db, reads);
  }
  return reads;
}

/**
 * The active identity with this canonical tag, or null (missing and blocked alike). Callers
 * asking for the same tag while a query for it runs share that query's answer (a popular tag
 * under load costs one query at a time, not one per request). Treat the row as read-only.
 */
export function findActiveIdentity(db: Db, tag: string): Promise<IdentityRow | null> {
  const reads = activeReads(db);
  const pending = reads.inFlight.get(tag);
  if (pending) return pending;
  const read = reads.query
    .execute({ tag })
    .then((rows) => rows[0] ?? null)
    .finally(() => {
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
  activeReadsByDb.get(db)?.inFlight.delete(tag);
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
