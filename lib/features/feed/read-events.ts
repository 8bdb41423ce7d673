import { and, asc, desc, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/lib/db';
import { identityEvents, paymentEvents } from '@/lib/db/schema';
import { Identity } from '@/lib/features/identity/schemas';
import { displayTag } from '@/lib/core/tag';

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

/** The tables read in feed order: each row has its transaction's `xid` and an `id` from the feed's sequence. */
export type FeedOrderedTable = typeof identityEvents | typeof paymentEvents;

/** SQL: the rows of `table` after `from` that may be served now, being older than every transaction in flight. */
export function servableAfter(table: FeedOrderedTable, from: FeedPosition) {
  return and(sql`(${table.xid}, ${table.id}) > (${from.xid}::xid8, ${from.id}::bigint)`, servableNow(table));
}

function servableNow(table: FeedOrderedTable) {
  return sql`${table.xid} < pg_snapshot_xmin(pg_current_snapshot())`;
}

/**
 * The position of the newest row of `table` a reader can see now, or null when it has none: a
 * reader starting there gets every row committed later, a late commit included (its xid sorts after).
 */
export async function newestServable(db: Db, table: FeedOrderedTable): Promise<FeedPosition | null> {
  const [row] = await db
    .select({ xid: table.xid, id: table.id })
    .from(table)
    .where(servableNow(table))
    .orderBy(desc(table.xid), desc(table.id))
    .limit(1);
  return row ?? null;
}

/** Where a reader with no cursor starts: before every event. */
export const FEED_START = '0-0';

const CURSOR = /^(\d{1,20})-(\d{1,16})$/;
const CURSOR_MESSAGE = 'must be a cursor returned as `next` by this feed';
/** An xid8 is unsigned 64-bit; an id is a bigserial read as a JS number, so at most 2^53 - 1. */
const MAX_XID = 2n ** 64n - 1n;

/** Whether a cursor's two numbers fit their columns: beyond them PGlite fails the cast (a 500), PostgreSQL too. */
function fitsColumns(text: string): boolean {
  const match = CURSOR.exec(text);
  if (!match) return true; // the regex's own issue names it
  return BigInt(match[1]!) <= MAX_XID && Number.isSafeInteger(Number(match[2]));
}

/** The `after` query parameter: a cursor the feed gave as `next` (opaque to consumers). */
export const FeedCursor = z
  .string()
  .regex(CURSOR, { message: CURSOR_MESSAGE })
  .refine(fitsColumns, { message: CURSOR_MESSAGE })
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
      description:
        '`upsert`: the tag is live, `identity` is its full identity now. `remove`: GET answers 404 now (missing, released or blocked alike).',
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
 * The most bytes of JSON one page of the feed answers (1 MiB): a page ends early, between two
 * events, rather than pass it. An event is at most a few KB (the profile fields' limits), so a
 * page of 1,000 short events is not cut, and a page cut by bytes still holds hundreds.
 */
export const FEED_PAGE_MAX_BYTES = 1024 * 1024;

/** `{"events":[` + `],"next":"` + the longest cursor + `"}`, rounded up. */
const PAGE_ENVELOPE_BYTES = 64;

/**
 * A page, and whether it is full: it ends at `limit` events or at the byte bound while a
 * next event already exists. A full page can never change (anything committed later sorts
 * after it); a page that is not full is the live end.
 */
export interface FeedPage {
  page: IdentityEventPage;
  full: boolean;
}

/**
 * The statement of one page: up to `limit` events after `from` in (xid, id) order, only those
 * older than every transaction in flight, and PostgreSQL stops sending rows once the profiles
 * before them fill `maxBytes` (a running sum of their JSON text), one row past it so that a
 * page cut by the bound knows that a next event exists. Apart so the scale benchmark can
 * EXPLAIN it as sent.
 */
export function feedPageQuery(db: Db, from: FeedPosition, limit: number, maxBytes: number) {
  const candidates = db
    .select({
      id: identityEvents.id,
      tag: identityEvents.tag,
      type: identityEvents.type,
      identity: identityEvents.identity,
      at: identityEvents.at,
      xid: identityEvents.xid,
      bytesBeforePrevious:
        sql<number>`coalesce(sum(octet_length(${identityEvents.identity}::text)) OVER (ORDER BY ${identityEvents.xid}, ${identityEvents.id} ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING), 0)`.as(
          'bytes_before_previous',
        ),
    })
    .from(identityEvents)
    .where(servableAfter(identityEvents, from))
    .orderBy(asc(identityEvents.xid), asc(identityEvents.id))
    .limit(limit)
    .as('candidates');
  return db
    .select()
    .from(candidates)
    .where(sql`${candidates.bytesBeforePrevious} < ${maxBytes}`)
    .orderBy(asc(candidates.xid), asc(candidates.id));
}

/**
 * Up to `limit` events after `after` (the start when null), at most `maxBytes` of JSON in all
 * (at least one event, so the feed always moves on), and the cursor after the last one; each
 * event's exact size is counted here, after feedPageQuery's estimate.
 */
export async function readIdentityEvents(
  db: Db,
  { after, limit, maxBytes }: { after: FeedPosition | null; limit: number; maxBytes: number },
): Promise<FeedPage> {
  const from = after ?? { xid: '0', id: 0 };
  const rows = await feedPageQuery(db, from, limit, maxBytes);
  const events: IdentityEvent[] = [];
  let bytes = PAGE_ENVELOPE_BYTES;
  let last: FeedPosition | null = null;
  for (const row of rows) {
    const event: IdentityEvent = {
      id: row.id,
      tag: displayTag(row.tag),
      type: row.type,
      identity: row.identity as Identity | null,
      at: row.at.toISOString(),
    };
    bytes += Buffer.byteLength(JSON.stringify(event)) + 1; // the comma after it
    if (bytes > maxBytes && events.length > 0) break;
    events.push(event);
    last = { xid: row.xid, id: row.id };
  }
  const cutByBytes = events.length < rows.length;
  return {
    page: { events, next: formatCursor(last ?? from) },
    full: events.length === limit || cutByBytes,
  };
}

/** An event and its position in the feed (what a cursor just after it says). */
export interface PlacedEvent {
  event: IdentityEvent;
  position: FeedPosition;
}

/**
 * Up to `limit` events after `after`, each with its position: for a reader that may stop
 * part-way through a page (a webhook delivery) and must resume just after the last it used.
 * Bounded in bytes as a page is (feedPageQuery's estimate; at least one event).
 */
export async function readPlacedEvents(
  db: Db,
  { after, limit, maxBytes }: { after: FeedPosition; limit: number; maxBytes: number },
): Promise<PlacedEvent[]> {
  const rows = await feedPageQuery(db, after, limit, maxBytes);
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

/** The position of the newest event a reader can see now (`newestServable`), or the feed's start. */
export async function feedHead(db: Db): Promise<FeedPosition> {
  return (await newestServable(db, identityEvents)) ?? { xid: '0', id: 0 };
}
