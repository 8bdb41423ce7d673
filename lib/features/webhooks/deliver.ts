import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { WebhookConfig } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { webhookDeliveries, webhookSubscriptions, type WebhookSubscriptionRow } from '@/lib/db/schema';
import type { FeedPosition } from '@/lib/features/feed/read-events';
import { signedHeaders } from './signing';
import { hasEventAfterCursor, readSubscriptionEvents } from './subscription-events';
import { sendToTarget, type TargetAnswer } from './target';

/*
 * Webhook delivery (DESIGN.md "Webhooks"), run by the cron route and `npm start`'s interval.
 * A subscription is a cursor into the change feed: each turn sends it the events after its
 * cursor, one at a time and in feed order, and moves the cursor past each one its target
 * answered 2xx (at least once: an answer lost on the way means the event goes again). The
 * first failure ends the turn and schedules a retry with exponential backoff; after
 * GIVE_UP_AFTER_MS of failing the subscription is disabled, the reason shown to its owner.
 *
 * A receiver that is slow, failing or silent uses only its own share:
 * - each attempt has DELIVERY_TIMEOUT_MS, then it is a failure and the turn ends;
 * - a target (the URL's origin) has at most TARGET_CONCURRENCY subscriptions in delivery at
 *   once, counted from the leases in the database, so every pass that overlaps sees them;
 * - a pass delivers up to CONCURRENCY subscriptions at once and, while any is under way, looks
 *   for newly due ones every POLL_MS: a change to a healthy subscription goes out while slow
 *   ones wait on their targets, never after them;
 * - a turn gives its slot back after TURN_MS, so subscriptions of one target take turns.
 *
 * Leases: a pass holds each subscription it delivers (`lease_holder`, `leased_until`), so
 * passes that overlap never deliver one subscription twice at once. A lease is one attempt's
 * time limit plus RENEW_EVERY_MS and LEASE_MARGIN_MS, renewed every RENEW_EVERY_MS while the
 * pass lives, and an attempt starts only while the lease covers all of it. When a process dies
 * mid-delivery its leases run out within seconds and the next pass takes the subscriptions over.
 */

/** Subscriptions one pass delivers at once. */
export const CONCURRENCY = 128;
/** Subscriptions of one target (a URL origin) in delivery at once, over every pass. */
export const TARGET_CONCURRENCY = 8;
/** Events read from the feed at a time, per subscription: about what a turn sends to a receiver on a busy machine, so little is read and dropped. */
const PAGE_SIZE = 50;
/** The first retry comes this long after a failure; each next one waits twice as long… */
export const RETRY_BASE_MS = 5_000;
/** …up to this. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** A subscription failing this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * How long one pass takes up due subscriptions (the cron route's function has 60 s). After
 * it, for one more attempt time limit, the pass takes up only subscriptions that are not
 * failing, so that the changes of healthy ones do not wait while slow attempts finish.
 */
export const PASS_BUDGET_MS = 20_000;
/**
 * One delivery attempt, connecting included: 5 s, what the README's Webhooks section asks of
 * a receiver (answer 2xx, then work). One that takes longer is a failure and is retried.
 */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** How long one subscription delivers before it gives its slot back (it is taken up again at once when it is first in line). */
export const TURN_MS = 5_000;
/** How often a pass with deliveries under way looks for newly due subscriptions. */
export const POLL_MS = 200;
/** The least time between two looks for due subscriptions. */
const MIN_CLAIM_GAP_MS = 20;
/** How often a pass renews the leases it holds. */
export const RENEW_EVERY_MS = 1_000;
/** What a lease covers beyond one attempt and one renewal period: a slow database, a clock a little off. */
export const LEASE_MARGIN_MS = 2_000;
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
  /** Turns this pass took (a subscription may have had several). */
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

/** How long a lease runs from its last renewal, for attempts of `timeoutMs`. */
export function leaseMsFor(timeoutMs: number): number {
  return timeoutMs + RENEW_EVERY_MS + LEASE_MARGIN_MS;
}

/** A lease as this pass knows it: until when the database last confirmed it, or that another pass took it. */
interface Lease {
  confirmedUntil: number;
  lost: boolean;
}

/** One delivery pass: due subscriptions, each in turns, until none is due or the budget ends. */
export async function deliverWebhooks(pass: DeliveryPass): Promise<DeliverySummary> {
  const summary: DeliverySummary = { subscriptions: 0, delivered: 0, failed: 0, disabled: 0 };
  const timeoutMs = pass.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = leaseMsFor(timeoutMs);
  const holder = randomUUID();
  const started = performance.now();
  const claimUntil = started + (pass.budgetMs ?? PASS_BUDGET_MS);
  const stopAt = claimUntil + timeoutMs;
  const leases = new Map<string, Lease>();
  const running = new Set<Promise<void>>();
  // A subscription that failed waits for a later pass, however short its backoff.
  const failedHere: string[] = [];
  let wake: () => void = () => {};

  const renewing = renewLeases(pass, holder, leaseMs, leases);
  let failure: unknown = null;
  let lastClaim = -Infinity;
  try {
    for (;;) {
      // Turns that end together are followed by one look for due subscriptions, not one each.
      const sinceClaim = performance.now() - lastClaim;
      if (sinceClaim < MIN_CLAIM_GAP_MS) await new Promise((r) => setTimeout(r, MIN_CLAIM_GAP_MS - sinceClaim));
      lastClaim = performance.now();
      const now = lastClaim;
      const free = CONCURRENCY - running.size;
      if (failure === null && now < stopAt && free > 0) {
        const claimed = await claimDue(pass, {
          holder,
          leaseMs,
          limit: free,
          healthyOnly: now >= claimUntil,
          except: failedHere,
        }).catch((err: unknown) => {
          failure = err; // stop taking up subscriptions; the ones under way finish and release theirs
          return [];
        });
        for (const row of claimed) {
          // The lease was written from the clock read as the claim began: count from then.
          const lease: Lease = { confirmedUntil: now + leaseMs, lost: false };
          leases.set(row.id, lease);
          const turn = takeTurn(pass, row, { holder, lease, timeoutMs, stopAt }).then((outcome) => {
            if (outcome.failed) failedHere.push(row.id);
            summary.subscriptions += 1;
            summary.delivered += outcome.delivered;
            summary.failed += outcome.failed ? 1 : 0;
            summary.disabled += outcome.disabled ? 1 : 0;
          });
          const tracked = turn.finally(() => {
            leases.delete(row.id);
            running.delete(tracked);
            wake();
          });
          running.add(tracked);
        }
      }
      if (running.size === 0) break; // nothing due and nothing under way
      // Until a turn ends or POLL_MS passes: a change that comes meanwhile is taken up then.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    renewing.stop();
  }
  if (failure !== null) throw failure;
  return summary;
}

/** Renews every lease in `leases` each RENEW_EVERY_MS, in one statement, until stopped. */
function renewLeases(
  pass: DeliveryPass,
  holder: string,
  leaseMs: number,
  leases: Map<string, Lease>,
): { stop: () => void } {
  const s = webhookSubscriptions;
  let busy = false;
  const timer = setInterval(() => {
    const ids = [...leases.keys()];
    if (busy || ids.length === 0) return;
    busy = true;
    const sentAt = performance.now();
    pass.db
      .update(s)
      .set({ leasedUntil: new Date(pass.clock().getTime() + leaseMs) })
      .where(and(inArray(s.id, ids), eq(s.leaseHolder, holder)))
      .returning({ id: s.id })
      .then(
        (kept) => {
          const held = new Set(kept.map((r) => r.id));
          for (const id of ids) {
            const lease = leases.get(id);
            if (!lease) continue;
            if (held.has(id)) lease.confirmedUntil = sentAt + leaseMs;
            else lease.lost = true;
          }
        },
        // Not renewed: each turn stops once its lease no longer covers an attempt.
        (err: unknown) => console.warn('webhooks: could not renew leases:', err instanceof Error ? err.message : err),
      )
      .finally(() => (busy = false));
  }, RENEW_EVERY_MS);
  return { stop: () => clearInterval(timer) };
}

/** The origin of a subscription's URL, in SQL (URLs are stored as `URL.href`: no user info, the scheme and host lower-cased). */
const targetOf = (url: string) => sql.raw(`substring(${url} from '^[a-z][a-z0-9+.-]*://[^/?#]+')`);

/**
 * Leases up to `limit` subscriptions that are due and have an event after their cursor, taking
 * from each target only what its TARGET_CONCURRENCY leaves free (the leases held now, by any
 * pass, count), in the order they came due. `healthyOnly`: only those not failing; `except`:
 * not these.
 */
async function claimDue(
  pass: DeliveryPass,
  {
    holder,
    leaseMs,
    limit,
    healthyOnly,
    except,
  }: { holder: string; leaseMs: number; limit: number; healthyOnly: boolean; except: string[] },
): Promise<WebhookSubscriptionRow[]> {
  const now = pass.clock();
  const at = sql`${now.toISOString()}::timestamptz`;
  const s = webhookSubscriptions;
  const candidates = sql`
    SELECT due.id FROM (
      SELECT w.id, w.next_attempt_at, ${targetOf('w.url')} AS target,
             row_number() OVER (PARTITION BY ${targetOf('w.url')} ORDER BY w.next_attempt_at, w.id) AS place
      FROM ${s} w
      WHERE w.disabled_at IS NULL AND w.next_attempt_at <= ${at}
        AND (w.leased_until IS NULL OR w.leased_until < ${at})
        ${healthyOnly ? sql`AND w.failures = 0` : sql``}
        ${
          except.length
            ? sql`AND w.id NOT IN (${sql.join(
                except.map((id) => sql`${id}`),
                sql`, `,
              )})`
            : sql``
        }
        AND ${hasEventAfterCursor('w')}
    ) due
    LEFT JOIN (
      SELECT ${targetOf('b.url')} AS target, count(*) AS held FROM ${s} b WHERE b.leased_until >= ${at} GROUP BY 1
    ) busy ON busy.target = due.target
    WHERE due.place + coalesce(busy.held, 0) <= ${TARGET_CONCURRENCY}
    ORDER BY due.next_attempt_at, due.id
    LIMIT ${limit}`;
  return pass.db
    .update(s)
    .set({ leasedUntil: new Date(now.getTime() + leaseMs), leaseHolder: holder })
    .where(and(sql`${s.id} IN (${candidates})`, or(isNull(s.leasedUntil), lt(s.leasedUntil, now))))
    .returning();
}

interface Attempt extends TargetAnswer {
  eventId: number;
  at: Date;
}

/** Sends one subscription the events after its cursor, in order, for one turn, then records what came of it. */
async function takeTurn(
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
