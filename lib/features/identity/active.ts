import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { SelectedFieldsFlat } from 'drizzle-orm/pg-core';
import type { Db } from '@/lib/db';
import { createBatcher, perHandle } from '@/lib/db/batch';
import { indexedSlotColumn, type AtSlot } from '@/lib/db/indexed-slot';
import { identities, type IdentityRow } from '@/lib/db/schema';

/*
 * What "active" means, decided here (SPEC 3.1): a mirror row is answered only while its status
 * is `active`; a blocked row reads as missing everywhere. The same rule in the three forms the
 * code needs: a drizzle condition, a test on a row in hand, the SQL text of the prepared
 * statements written by hand; and the one read of active identities by tag, which every
 * public read of a tag goes through (GET /v1/identity, /v1/resolve, the /@tag page).
 */

const ACTIVE = 'active' satisfies IdentityRow['status'];

/** The condition of a drizzle query on `identities`. */
export const isActiveIdentity = eq(identities.status, ACTIVE);

/** Whether a row read whatever its status is active (null and undefined are not). */
export function isActiveRow<R extends Pick<IdentityRow, 'status'>>(row: R | null | undefined): row is R {
  return row?.status === ACTIVE;
}

/** The condition as SQL text, for `identities` under `alias` (hand-written prepared statements). */
export function activeIdentitySql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}status = '${ACTIVE}'`;
}

/*
 * The public read is the hot path (GET /v1/identity, /v1/resolve, the /@tag page), so it is a named prepared statement
 * (PostgreSQL plans it once per connection, drizzle builds its SQL once per process), and
 * reads arriving while a query runs go together in the next one (lib/db/batch.ts): a popular
 * tag under load costs one row in one query at a time, not a query per request.
 *
 * A read never joins a query that started before it was asked, so it sees every write that
 * committed before it was asked, with nothing for a writer to invalidate (joining one already
 * running could answer 404 for a tag /v1/sync has just inserted).
 */

/**
 * A batched, prepared read of active identities by canonical tag (SPEC 3.1), with the slot the
 * mirror reflected in the same statement: `fields` is what is read of a row (`tag` among them),
 * `R` its type. A tag missing or blocked reads as null; tags asked together share one statement
 * and one row each. Read from the one-row slot CTE, so a batch where no tag is found still
 * answers the slot (X-Indexed-Slot).
 */
export function activeTagsAtSlot<R extends { tag: string }>(statement: string, fields: SelectedFieldsFlat) {
  return perHandle((db: Db) => {
    const slot = db
      .$with('indexed')
      .as(db.select({ indexedSlot: indexedSlotColumn().as('indexed_slot') }).from(sql`(SELECT 1) AS one`));
    const query = db
      .with(slot)
      .select({ row: fields, indexedSlot: slot.indexedSlot })
      .from(slot)
      .leftJoin(identities, and(sql`${identities.tag} = ANY(${sql.placeholder('tags')}::text[])`, isActiveIdentity))
      .prepare(statement);
    return createBatcher(async (tags: string[]): Promise<AtSlot<R | null>[]> => {
      // The left join reads a tag not found as a null `row` (its first column is null).
      const rows = (await query.execute({ tags: [...new Set(tags)] })) as unknown as {
        row: R | null;
        indexedSlot: string;
      }[];
      const indexedSlot = rows[0]!.indexedSlot;
      const byTag = new Map(rows.flatMap(({ row }) => (row ? [[row.tag, row] as const] : [])));
      return tags.map((tag) => ({ value: byTag.get(tag) ?? null, indexedSlot }));
    });
  });
}

// Batched (lib/db/batch.ts): it earns its place measured side by side against the same build
// without it (bench/results/2026-11-26.md, "batchers": GET /v1/identity/{tag} over 500 tags).
const findActiveTags = activeTagsAtSlot<IdentityRow>('identity_find_active_tags_at_slot', getTableColumns(identities));

/**
 * The active identity with this canonical tag, or null (missing and blocked alike), with the
 * slot the mirror reflected. Reads of the same tag asked together share one row of one
 * query. Treat the row as read-only.
 */
export function findActiveIdentityAtSlot(db: Db, tag: string): Promise<AtSlot<IdentityRow | null>> {
  return findActiveTags(db)(tag);
}

/** As findActiveIdentityAtSlot, the row alone. */
export async function findActiveIdentity(db: Db, tag: string): Promise<IdentityRow | null> {
  return (await findActiveTags(db)(tag)).value;
}
