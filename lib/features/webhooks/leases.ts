import 'server-only';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { webhookSubscriptions, type WebhookSubscriptionRow } from '@/lib/db/schema';
import { hasEventAfterCursor } from './subscription-events';

/*
 * Leases and claims (./deliver.ts tells the whole pass): a pass holds each subscription it
 * delivers (`lease_holder`, `leased_until`), so passes that overlap never deliver one
 * subscription twice at once, and a target's share is counted from the leases held by every pass.
 */

/** Subscriptions of one target (a URL origin) in delivery at once, over every pass. */
export const TARGET_CONCURRENCY = 8;
/** How often a pass renews the leases it holds. */
export const RENEW_EVERY_MS = 1_000;
/** What a lease covers beyond one attempt and one renewal period: a slow database, a clock a little off. */
export const LEASE_MARGIN_MS = 2_000;
/** How long a lease runs from its last renewal, for attempts of `timeoutMs`. */
export function leaseMsFor(timeoutMs: number): number {
  return timeoutMs + RENEW_EVERY_MS + LEASE_MARGIN_MS;
}

/** What the leases need of a pass: its database and its clock. */
export interface LeaseStore {
  db: Db;
  clock: () => Date;
}

/** A lease as this pass knows it: until when the database last confirmed it, or that another pass took it. */
export interface Lease {
  confirmedUntil: number;
  lost: boolean;
}

/** Renews every lease in `leases` each RENEW_EVERY_MS, in one statement, until stopped. */
export function renewLeases(
  pass: LeaseStore,
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
export async function claimDue(
  pass: LeaseStore,
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
