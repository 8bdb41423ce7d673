import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { WebhookConfig } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { webhookDeliveries, webhookSubscriptions, type WebhookSubscriptionRow } from '@/lib/db/schema';
import type { FeedPosition } from '@/lib/features/feed/read-events';
import type { Lease } from './leases';
import { scheduleAfter } from './retry-policy';
import { signedHeaders } from './signing';
import { readSubscriptionEvents } from './subscription-events';
import { sendToTarget, type TargetAnswer } from './target';

/*
 * One subscription's turn (./deliver.ts tells the whole pass): the events after its cursor, in
 * feed order, each signed and sent; then the cursor, the schedule (./retry-policy.ts) and the
 * attempts are written while the pass still holds the lease.
 */

/** Events read from the feed at a time, per subscription: about what a turn sends to a receiver on a busy machine, so little is read and dropped. */
const PAGE_SIZE = 50;
/**
 * One delivery attempt, connecting included: 5 s, what the README's Webhooks section asks of
 * a receiver (answer 2xx, then work). One that takes longer is a failure and is retried.
 */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** How long one subscription delivers before it gives its slot back (it is taken up again at once when it is first in line). */
export const TURN_MS = 5_000;
/** Attempts kept per subscription (what GET …/deliveries can show, and some). */
const KEPT_ATTEMPTS = 100;

export interface DeliveryPass {
  db: Db;
  config: WebhookConfig;
  /** The time of each attempt and of each schedule: tests pass a clock they move. */
  clock: () => Date;
  retryBaseMs?: number;
  /** One attempt's deadline (default DELIVERY_TIMEOUT_MS; tests shorten it). */
  timeoutMs?: number;
  budgetMs?: number;
}

interface Attempt extends TargetAnswer {
  eventId: number;
  at: Date;
}

/** Sends one subscription the events after its cursor, in order, for one turn, then records what came of it. */
export async function takeTurn(
  pass: DeliveryPass,
  row: WebhookSubscriptionRow,
  { holder, lease, timeoutMs, stopAt }: { holder: string; lease: Lease; timeoutMs: number; stopAt: number },
): Promise<{ delivered: number; failed: boolean; disabled: boolean }> {
  const attempts: Attempt[] = [];
  let cursor: FeedPosition = { xid: row.cursorXid, id: row.cursorId };
  let failure: Attempt | null = null;
  const turnEnd = Math.min(performance.now() + TURN_MS, stopAt);
  // An attempt starts only while the lease covers it whole, with a second to spare.
  const mayAttempt = () =>
    !lease.lost && lease.confirmedUntil - performance.now() >= timeoutMs + 1_000 && performance.now() < turnEnd;
  try {
    const target = new URL(row.url);
    const only = row.tags ? new Set(row.tags) : null;
    const secrets = [
      row.secret,
      ...(row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > pass.clock()
        ? [row.previousSecret]
        : []),
    ];
    reading: while (mayAttempt()) {
      const page = await readSubscriptionEvents(pass.db, row, cursor, PAGE_SIZE);
      for (const event of page.events) {
        const { position } = event;
        if (only && !only.has(event.tag)) {
          cursor = position;
          continue;
        }
        if (!mayAttempt()) break reading;
        // A change exactly as GET /v1/events shows it; a payment as PaymentReceivedEvent.
        const body = JSON.stringify(event.body);
        const at = pass.clock();
        const answer = await sendToTarget(
          target,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...signedHeaders(secrets, String(event.id), at, body) },
            body,
            timeoutMs,
          },
          pass.config,
        );
        const attempt = { ...answer, eventId: event.id, at };
        attempts.push(attempt);
        if (answer.error !== null) {
          failure = attempt;
          break reading;
        }
        cursor = position;
      }
      if (page.complete) break;
    }
  } catch (err) {
    // The feed could not be read: what was delivered is recorded and the lease goes.
    console.warn(`webhooks: ${row.id}: delivery stopped:`, err instanceof Error ? err.message : err);
  }
  const outcome = await settle(pass, row, holder, cursor, failure, attempts).catch((err) => {
    console.warn(
      `webhooks: ${row.id}: could not record the turn (its lease runs out instead):`,
      err instanceof Error ? err.message : err,
    );
    return { disabled: false };
  });
  return { delivered: attempts.length - (failure ? 1 : 0), failed: failure !== null, disabled: outcome.disabled };
}

/**
 * Writes the cursor and the schedule, and lets the lease go, while this pass still holds it and
 * no replay came meanwhile (then only the lease goes, if still ours); then the attempts,
 * keeping the newest KEPT_ATTEMPTS.
 */
async function settle(
  pass: DeliveryPass,
  row: WebhookSubscriptionRow,
  holder: string,
  cursor: FeedPosition,
  failure: Attempt | null,
  attempts: Attempt[],
): Promise<{ disabled: boolean }> {
  const s = webhookSubscriptions;
  const { schedule, disabled } = scheduleAfter(row, failure, pass.clock(), pass.retryBaseMs);
  const released = { leasedUntil: null, leaseHolder: null };
  const written = await pass.db
    .update(s)
    .set({ cursorXid: cursor.xid, cursorId: cursor.id, ...schedule, ...released })
    .where(and(eq(s.id, row.id), eq(s.epoch, row.epoch), eq(s.leaseHolder, holder)))
    .returning({ id: s.id });
  if (written.length === 0)
    await pass.db
      .update(s)
      .set(released)
      .where(and(eq(s.id, row.id), eq(s.leaseHolder, holder)));
  if (attempts.length > 0) {
    for (let i = 0; i < attempts.length; i += 1000) {
      await pass.db
        .insert(webhookDeliveries)
        .values(
          attempts.slice(i, i + 1000).map((a) => ({
            subscriptionId: row.id,
            eventId: a.eventId,
            attemptedAt: a.at,
            status: a.status,
            latencyMs: a.latencyMs,
            error: a.error,
          })),
        )
        .onConflictDoNothing();
    }
    await pass.db.execute(
      sql`DELETE FROM ${webhookDeliveries} WHERE ${webhookDeliveries.subscriptionId} = ${row.id} AND ${webhookDeliveries.id} <= (SELECT d.id FROM ${webhookDeliveries} d WHERE d.subscription_id = ${row.id} ORDER BY d.id DESC OFFSET ${KEPT_ATTEMPTS} LIMIT 1)`,
    );
  }
  return { disabled: disabled && written.length > 0 };
}
