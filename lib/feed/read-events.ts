import { and, asc, desc, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/lib/db';
import { identityEvents } from '@/lib/db/schema';
import { Identity } from '@/lib/identity/schemas';
import { displayTag } from '@/lib/identity/tag';

/*
 * The read side of the change feed (GET /v1/events). Events are served in (xid, id) order and
 * only once their xid is older than every transaction still in flight: an event that commits
 * late always has an xid at least that of a transaction in flight when a reader passed by, so
 * it sorts after the reader's cursor and is never skipped (DESIGN.md "For integrators", the
 * commit-order trap). Ids alone would not do: a transaction that began early can insert its
 * event after a later one's and commit first.
 */

export const MAX_FEED_LIMIT = 1000;
export const DEFAULT_FEED_LIMIT = 100;

/** A position in the feed: the (xid, id) of the last event served. */
export interface FeedPosition {
  xid: string;
  id: number;
}

/** Where a reader with no cursor starts: before every event. */
export const FEED_START = '0-0';

const CURSOR = /^(\d{1,20})-(\d{1,16})$/;

/** The `after` query parameter: a cursor the feed gave as `next` (opaque to consumers). */
export const FeedCursor = z
  .string()
  .regex(CURSOR, { message: 'must be a cursor returned as `next` by this feed' })
  .transform((text): FeedPosition => {
    const [, xid, id] = CURSOR.exec(text)!;
    return { xid: BigInt(xid).toString(), id: Number(id) };
  })
  .meta({ description: 'The `next` of an earlier page; omit it to start at the beginning', example: '1042-318' });

export function formatCursor(position: FeedPosition): string {
  return `${position.xid}-${position.id}`;
}

/** One change of what GET /v1/identity/{tag} answers. */
export const IdentityEvent = z
  .object({
    id: z.number().int().meta({ description: 'Unique id of the event (not its position: page with `next`)' }),
    tag: z.string().meta({ description: 'The tag, with a leading `@`', example: '@alice' }),
    type: z.enum(['upsert', 'remove']).meta({
      description: '`upsert`: the tag is live, `identity` is its full identity now. `remove`: GET answers 404 now (missing, released or blocked alike).',
    }),
    identity: Identity.nullable(),
    at: z.iso.datetime({ precision: 3 }).meta({ description: 'When the change was made (ISO 8601 UTC)' }),
  })
  .meta({ id: 'IdentityEvent' });
export type IdentityEvent = z.infer<typeof IdentityEvent>;

export const IdentityEventPage = z
  .object({
    events: z.array(IdentityEvent),
    next: z.string().meta({ description: 'The cursor to pass as `after` next; the given one when no event is newer' }),
  })
  .meta({ id: 'IdentityEventPage' });
export type IdentityEventPage = z.infer<typeof IdentityEventPage>;

/**
 * The statement of one page: up to `limit` events after `from` in (xid, id) order, only those
 * older than every transaction in flight. Apart so the scale benchmark can EXPLAIN it as sent.
 */
export function feedPageQuery(db: Db, from: FeedPosition, limit: number) {
  return db
    .select({
      id: identityEvents.id,
      tag: identityEvents.tag,
      type: identityEvents.type,
      identity: identityEvents.identity,
      at: identityEvents.at,
      xid: identityEvents.xid,
    })
    .from(identityEvents)
    .where(
      and(
        sql`(${identityEvents.xid}, ${identityEvents.id}) > (${from.xid}::xid8, ${from.id}::bigint)`,
        sql`${identityEvents.xid} < pg_snapshot_xmin(pg_current_snapshot())`,
      ),
    )
    .orderBy(asc(identityEvents.xid), asc(identityEvents.id))
    .limit(limit);
}

/** Up to `limit` events after `after` (the start when null), and the cursor after them. */
export async function readIdentityEvents(
  db: Db,
  { after, limit }: { after: FeedPosition | null; limit: number },
): Promise<IdentityEventPage> {
  const from = after ?? { xid: '0', id: 0 };
  const placed = await readPlacedEvents(db, { after: from, limit });
  return { events: placed.map((p) => p.event), next: formatCursor(placed.at(-1)?.position ?? from) };
}

/** An event and its position in the feed (what a cursor just after it says). */
export interface PlacedEvent {
  event: IdentityEvent;
  position: FeedPosition;
}

/**
 * Up to `limit` events after `after`, each with its position: for a reader that may stop
 * part-way through a page (a webhook delivery) and must resume just after the last it used.
 */
export async function readPlacedEvents(db: Db, { after, limit }: { after: FeedPosition; limit: number }): Promise<PlacedEvent[]> {
  const rows = await feedPageQuery(db, after, limit);
  return rows.map((row) => ({
    event: {
      id: row.id,
      tag: displayTag(row.tag),
      type: row.type,
      identity: row.identity as Identity | null,
      at: row.at.toISOString(),
    },
    position: { xid: row.xid, id: row.id },
  }));
}

/**
 * The position of the newest event a reader can see now: a reader starting there gets every
 * event committed later, a late commit included (its xid sorts after, as above).
 */
export async function feedHead(db: Db): Promise<FeedPosition> {
  const [row] = await db
    .select({ xid: identityEvents.xid, id: identityEvents.id })
    .from(identityEvents)
    .where(sql`${identityEvents.xid} < pg_snapshot_xmin(pg_current_snapshot())`)
    .orderBy(desc(identityEvents.xid), desc(identityEvents.id))
    .limit(1);
  return row ? { xid: row.xid, id: row.id } : { xid: '0', id: 0 };
}
