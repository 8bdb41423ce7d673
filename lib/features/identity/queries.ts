import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { createBatcher, perHandle } from '@/lib/db/batch';
import { identities, type IdentityRow } from '@/lib/db/schema';
import { isActiveIdentity } from './active';
import { indexedSlotColumn } from '@/lib/db/indexed-slot';

/*
 * Named identity queries: each returns a row (or rows) or null. The public read is the hot
 * path (GET /v1/identity, /v1/resolve, the /@tag page), so it is a named prepared statement
 * (PostgreSQL plans it once per connection, drizzle builds its SQL once per process), and
 * reads arriving while a query runs go together in the next one (lib/db/batch.ts): a popular
 * tag under load costs one row in one query at a time, not a query per request.
 *
 * A read never joins a query that started before it was asked, so it sees every write that
 * committed before it was asked, with nothing for a writer to invalidate (joining one already
 * running could answer 404 for a tag /v1/sync has just inserted).
 */

// Batched: GET /v1/identity/{tag} over 500 tags went from 64% to 73% of the trivial route with
// it, measured side by side; against the same build without it, 1.33× (without it: 61%, 75%,
// 75% of the batched throughput in three runs; bench/results/2026-11-26.md).
const findActiveTags = perHandle((db: Db) => {
  // From the one-row slot read, so a batch where no tag is found still answers the slot (X-Indexed-Slot).
  const slot = db
    .$with('indexed')
    .as(db.select({ indexedSlot: indexedSlotColumn().as('indexed_slot') }).from(sql`(SELECT 1) AS one`));
  const query = db
    .with(slot)
    .select({ row: identities, indexedSlot: slot.indexedSlot })
    .from(slot)
    .leftJoin(identities, and(sql`${identities.tag} = ANY(${sql.placeholder('tags')}::text[])`, isActiveIdentity))
    .prepare('identity_find_active_tags_at_slot');
  return createBatcher(async (tags: string[]) => {
    const rows = await query.execute({ tags: [...new Set(tags)] });
    const indexedSlot = rows[0]!.indexedSlot;
    const byTag = new Map(rows.flatMap(({ row }) => (row ? [[row.tag, row] as const] : [])));
    return tags.map((tag) => ({ row: byTag.get(tag) ?? null, indexedSlot }));
  });
});

/** A row as read, and the slot the mirror reflected in the same snapshot (lib/db/indexed-slot.ts). */
export interface ReadAtSlot<T> {
  row: T | null;
  indexedSlot: string;
}

/**
 * The active identity with this canonical tag, or null (missing and blocked alike), with the
 * slot the mirror reflected. Reads of the same tag asked together share one row of one
 * query. Treat the row as read-only.
 */
export function findActiveIdentityAtSlot(db: Db, tag: string): Promise<ReadAtSlot<IdentityRow>> {
  return findActiveTags(db)(tag);
}

/** As findActiveIdentityAtSlot, the row alone. */
export async function findActiveIdentity(db: Db, tag: string): Promise<IdentityRow | null> {
  return (await findActiveTags(db)(tag)).row;
}

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
