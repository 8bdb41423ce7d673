import 'server-only';
import { randomUUID } from 'node:crypto';
import { DELIVERY_TIMEOUT_MS, takeTurn, type DeliveryPass } from './delivery-turn';
import { claimDue, leaseMsFor, renewLeases, type Lease } from './leases';

/*
 * Webhook delivery (DESIGN.md "Webhooks"), run by the cron route and `npm start`'s interval.
 * A subscription is a cursor into the change feed: each turn sends it the events after its
 * cursor, one at a time and in feed order, and moves the cursor past each one its target
 * answered 2xx (at least once: an answer lost on the way means the event goes again). The
 * first failure ends the turn and schedules a retry with exponential backoff; after
 * GIVE_UP_AFTER_MS (lib/core/schedule.ts) of failing the subscription is disabled, the reason shown to its owner.
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
/**
 * How long one pass takes up due subscriptions (the cron route's function has 60 s). After
 * it, for one more attempt time limit, the pass takes up only subscriptions that are not
 * failing, so that the changes of healthy ones do not wait while slow attempts finish.
 */
export const PASS_BUDGET_MS = 20_000;
/** How often a pass with deliveries under way looks for newly due subscriptions. */
export const POLL_MS = 200;
/** The least time between two looks for due subscriptions. */
const MIN_CLAIM_GAP_MS = 20;
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
