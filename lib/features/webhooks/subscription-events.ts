import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { paymentEvents, type WebhookSubscriptionRow } from '@/lib/db/schema';
import { displayTag } from '@/lib/core/tag';
import {
  FEED_PAGE_MAX_BYTES,
  feedHead,
  newestServable,
  readPlacedEvents,
  servableAfter,
  type FeedPosition,
} from '@/lib/features/feed/read-events';
import type { PaymentReceipt } from '@/lib/features/payments/schemas';
import type { WebhookEventType } from './event-types';
import type { PaymentReceivedEvent } from './schemas';

/*
 * What one subscription is sent, in order (DESIGN.md "Webhooks"): the feed's changes if it chose
 * `identity.changed`, and its owner's `payment.received` events if it chose those. Payment
 * events take their ids from the feed's sequence and their xid as the feed's events do, so both
 * kinds sort in one (xid, id) order under one cursor, and are read only once older than every
 * transaction in flight (lib/features/feed/read-events.ts, the commit-order trap).
 */

/** One event to send: its body's id, its tag (for the subscription's `tags`), the body and its position. */
export interface SubscriptionEvent {
  id: number;
  /** Without the `@`, as subscriptions store their tags. */
  tag: string;
  body: unknown;
  position: FeedPosition;
}

const chose = (row: Pick<WebhookSubscriptionRow, 'events'>, type: WebhookEventType) => row.events.includes(type);

/** (xid, id) order. */
function compare(a: FeedPosition, b: FeedPosition): number {
  const byXid = BigInt(a.xid) - BigInt(b.xid);
  return byXid !== 0n ? (byXid < 0n ? -1 : 1) : a.id - b.id;
}

async function readPaymentEvents(db: Db, owner: string, after: FeedPosition, limit: number) {
  const rows = await db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.owner, owner), servableAfter(paymentEvents, after)))
    .orderBy(asc(paymentEvents.xid), asc(paymentEvents.id))
    .limit(limit);
  return rows.map((row): SubscriptionEvent => ({
    id: row.id,
    tag: row.tag,
    body: {
      id: row.id,
      type: 'payment.received',
      tag: displayTag(row.tag),
      receipt: row.receipt as PaymentReceipt,
      at: row.at.toISOString(),
    } satisfies PaymentReceivedEvent,
    position: { xid: row.xid, id: row.id },
  }));
}

/**
 * Up to about `limit` events of the subscription after `after`, in order, and whether that was
 * all there is now. Each kind is read up to `limit`; the merged list stops where the first kind
 * that may have more stops, so no event of the other kind is sent ahead of one still unread.
 */
export async function readSubscriptionEvents(
  db: Db,
  row: Pick<WebhookSubscriptionRow, 'owner' | 'events'>,
  after: FeedPosition,
  limit: number,
): Promise<{ events: SubscriptionEvent[]; complete: boolean }> {
  const [changes, payments] = await Promise.all([
    chose(row, 'identity.changed')
      ? readPlacedEvents(db, { after, limit, maxBytes: FEED_PAGE_MAX_BYTES }).then((placed) =>
          placed.map(({ event, position }): SubscriptionEvent => ({
            id: event.id,
            tag: event.tag.replace(/^@/, ''),
            body: event,
            position,
          })),
        )
      : [],
    chose(row, 'payment.received') ? readPaymentEvents(db, row.owner, after, limit) : [],
  ]);
  // A page of changes may end early on bytes, so any non-empty one bounds; payments end only at `limit`.
  const bounds = [
    ...(changes.length > 0 ? [changes.at(-1)!.position] : []),
    ...(payments.length === limit ? [payments.at(-1)!.position] : []),
  ].sort(compare);
  const merged = [...changes, ...payments].sort((a, b) => compare(a.position, b.position));
  const bound = bounds[0];
  const events = bound ? merged.filter((e) => compare(e.position, bound) <= 0) : merged;
  return { events, complete: changes.length < limit && payments.length < limit && events.length === merged.length };
}

/** SQL: whether the subscription `w` (an alias) has an event to send after its cursor. */
export function hasEventAfterCursor(w: string) {
  const cursor = sql.raw(`(${w}.cursor_xid, ${w}.cursor_id)`);
  const events = sql.raw(`${w}.events`);
  const owner = sql.raw(`${w}.owner`);
  return sql`(
    ('identity.changed' = ANY(${events}) AND EXISTS (
      SELECT 1 FROM identity_events ev
      WHERE (ev.xid, ev.id) > ${cursor} AND ev.xid < pg_snapshot_xmin(pg_current_snapshot())
    ))
    OR ('payment.received' = ANY(${events}) AND EXISTS (
      SELECT 1 FROM payment_events pe
      WHERE pe.owner = ${owner} AND (pe.xid, pe.id) > ${cursor} AND pe.xid < pg_snapshot_xmin(pg_current_snapshot())
    ))
  )`;
}

/**
 * Where a new subscription starts: after the newest event of either kind a reader can see now,
 * so that it gets every event committed later and none from before.
 */
export async function webhookHead(db: Db): Promise<FeedPosition> {
  // One after the other: `db` may be a transaction's single connection.
  const feed = await feedHead(db);
  const payment = await newestServable(db, paymentEvents);
  return payment && compare(payment, feed) > 0 ? payment : feed;
}
