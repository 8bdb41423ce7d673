import 'server-only';
import { and, eq, inArray, isNull, lte, lt, notInArray, or, sql } from 'drizzle-orm';
import type { WebhookConfig } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { webhookDeliveries, webhookSubscriptions, type WebhookSubscriptionRow } from '@/lib/db/schema';
import { FEED_PAGE_MAX_BYTES, readPlacedEvents, type FeedPosition } from '@/lib/features/feed/read-events';
import { signedHeaders } from './signing';
import { sendToTarget, type TargetAnswer } from './target';

/*
 * Webhook delivery (DESIGN.md "Webhooks"), run by the cron route and `npm start`'s interval.
 * A subscription is a cursor into the change feed: each pass sends it the events after its
 * cursor, one at a time and in feed order, and moves the cursor past each one its target
 * answered 2xx (at least once: an answer lost on the way means the event goes again). The
 * first failure stops that subscription for this pass and schedules a retry with exponential
 * backoff; after GIVE_UP_AFTER_MS of failing it is disabled, the reason shown to its owner.
 *
 * Subscriptions are delivered concurrently (at most CONCURRENCY at once), each holding a lease
 * so that passes that overlap never deliver one subscription twice at once; a dead or slow
 * target holds up only its own subscription.
 */

/** Subscriptions delivered at once. */
export const CONCURRENCY = 64;
/** Events read from the feed at a time, per subscription. */
const PAGE_SIZE = 200;
/** The first retry comes this long after a failure; each next one waits twice as long… */
export const RETRY_BASE_MS = 5_000;
/** …up to this. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** A subscription failing this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** How long one pass goes on starting deliveries (the cron route's function has 60 s). */
export const PASS_BUDGET_MS = 20_000;
/**
 * One delivery attempt, connecting included: 10 s, what docs/integrators.md ("Webhooks") asks of
 * a receiver (answer 2xx, then work). One that takes longer is retried, and the pass's other
 * workers keep the other subscriptions moving meanwhile.
 */
export const DELIVERY_TIMEOUT_MS = 10_000;
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

export interface DeliverySummary {
  /** Subscriptions this pass delivered to. */
  subscriptions: number;
  /** Events delivered (answered 2xx). */
  delivered: number;
  /** Attempts that failed. */
  failed: number;
  /** Subscriptions disabled by this pass. */
  disabled: number;
}

/** The delay before retry number `failures` (1: the first retry). */
export function retryDelayMs(failures: number, baseMs = RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.min(failures - 1, 30), MAX_RETRY_DELAY_MS);
}

/** One delivery pass: every due subscription once, until each is caught up, fails or the budget ends. */
export async function deliverWebhooks(pass: DeliveryPass): Promise<DeliverySummary> {
  const summary: DeliverySummary = { subscriptions: 0, delivered: 0, failed: 0, disabled: 0 };
  const deadline = performance.now() + (pass.budgetMs ?? PASS_BUDGET_MS);
  const seen: string[] = [];
  const queue: WebhookSubscriptionRow[] = [];
  let exhausted = false;
  // Workers take subscriptions from a queue refilled by claims, so one slow target never
  // waits for a whole batch to end before another subscription starts.
  const refill = async () => {
    if (exhausted || performance.now() > deadline) return;
    const claimed = await claimDue(pass, seen, CONCURRENCY);
    if (claimed.length === 0) exhausted = true;
    for (const row of claimed) seen.push(row.id);
    queue.push(...claimed);
  };
  let refilling: Promise<void> | null = null;
  const worker = async () => {
    for (;;) {
      if (queue.length === 0) {
        refilling ??= refill().finally(() => (refilling = null));
        await refilling;
        if (queue.length === 0) return;
      }
      const row = queue.shift()!;
      const outcome = await deliverTo(pass, row, deadline);
      summary.subscriptions += 1;
      summary.delivered += outcome.delivered;
      summary.failed += outcome.failed ? 1 : 0;
      summary.disabled += outcome.disabled ? 1 : 0;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return summary;
}

/** Leases up to `limit` due subscriptions not yet delivered by this pass. */
async function claimDue(pass: DeliveryPass, seen: string[], limit: number): Promise<WebhookSubscriptionRow[]> {
  const now = pass.clock();
  const leaseUntil = new Date(now.getTime() + (pass.budgetMs ?? PASS_BUDGET_MS) + (pass.timeoutMs ?? DELIVERY_TIMEOUT_MS) + 10_000);
  const s = webhookSubscriptions;
  const due = pass.db
    .select({ id: s.id })
    .from(s)
    .where(
      and(
        isNull(s.disabledAt),
        lte(s.nextAttemptAt, now),
        or(isNull(s.leasedUntil), lt(s.leasedUntil, now)),
        seen.length ? notInArray(s.id, seen) : undefined,
      ),
    )
    .orderBy(s.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return pass.db.update(s).set({ leasedUntil: leaseUntil }).where(inArray(s.id, due)).returning();
}

interface Attempt extends TargetAnswer {
  eventId: number;
  at: Date;
}

/** Sends one subscription the events after its cursor, in order, then records what came of it. */
async function deliverTo(
  pass: DeliveryPass,
  row: WebhookSubscriptionRow,
  deadline: number,
): Promise<{ delivered: number; failed: boolean; disabled: boolean }> {
  const attempts: Attempt[] = [];
  let cursor: FeedPosition = { xid: row.cursorXid, id: row.cursorId };
  let failure: Attempt | null = null;
  try {
    const target = new URL(row.url);
    const only = row.tags ? new Set(row.tags.map((t) => `@${t}`)) : null;
    const secrets = [row.secret, ...(row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > pass.clock() ? [row.previousSecret] : [])];
    reading: while (performance.now() < deadline) {
      const page = await readPlacedEvents(pass.db, { after: cursor, limit: PAGE_SIZE, maxBytes: FEED_PAGE_MAX_BYTES });
      for (const { event, position } of page) {
        if (only && !only.has(event.tag)) {
          cursor = position;
          continue;
        }
        // The event exactly as GET /v1/events shows it.
        const body = JSON.stringify(event);
        const at = pass.clock();
        const answer = await sendToTarget(
          target,
          { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secrets, String(event.id), at, body) }, body, timeoutMs: pass.timeoutMs ?? DELIVERY_TIMEOUT_MS },
          pass.config,
        );
        const attempt = { ...answer, eventId: event.id, at };
        attempts.push(attempt);
        if (answer.error !== null) {
          failure = attempt;
          break reading;
        }
        cursor = position;
        if (performance.now() >= deadline) break reading;
      }
      if (page.length < PAGE_SIZE) break;
    }
  } catch (err) {
    // The feed could not be read: what was delivered is recorded and the lease goes.
    console.warn(`webhooks: ${row.id}: delivery stopped:`, err instanceof Error ? err.message : err);
  }
  const outcome = await settle(pass, row, cursor, failure, attempts).catch((err) => {
    console.warn(`webhooks: ${row.id}: could not record the pass (its lease runs out instead):`, err instanceof Error ? err.message : err);
    return { disabled: false };
  });
  return { delivered: attempts.length - (failure ? 1 : 0), failed: failure !== null, disabled: outcome.disabled };
}

/**
 * Writes the cursor and the schedule (unless a replay came meanwhile: then only the lease
 * goes), and the attempts, keeping the newest KEPT_ATTEMPTS.
 */
async function settle(
  pass: DeliveryPass,
  row: WebhookSubscriptionRow,
  cursor: FeedPosition,
  failure: Attempt | null,
  attempts: Attempt[],
): Promise<{ disabled: boolean }> {
  const s = webhookSubscriptions;
  const now = pass.clock();
  let schedule: Partial<typeof s.$inferInsert>;
  let disabled = false;
  if (failure === null) {
    schedule = { failures: 0, failingSince: null, lastError: null, nextAttemptAt: now };
  } else {
    const failures = row.failures + 1;
    const failingSince = row.failingSince ?? failure.at;
    disabled = failure.at.getTime() - failingSince.getTime() >= GIVE_UP_AFTER_MS;
    schedule = {
      failures,
      failingSince,
      lastError: failure.error,
      nextAttemptAt: new Date(failure.at.getTime() + retryDelayMs(failures, pass.retryBaseMs)),
      ...(disabled
        ? {
            disabledAt: now,
            disabledReason:
              `Disabled after failing for ${Math.round((failure.at.getTime() - failingSince.getTime()) / 3_600_000)} hours ` +
              `(${failures} attempts since ${failingSince.toISOString()}); last error: ${failure.error}. Replay to start again.`,
          }
        : {}),
    };
  }
  const written = await pass.db
    .update(s)
    .set({ cursorXid: cursor.xid, cursorId: cursor.id, ...schedule, leasedUntil: null })
    .where(and(eq(s.id, row.id), eq(s.epoch, row.epoch)))
    .returning({ id: s.id });
  if (written.length === 0) await pass.db.update(s).set({ leasedUntil: null }).where(eq(s.id, row.id));
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
