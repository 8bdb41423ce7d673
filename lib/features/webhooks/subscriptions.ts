import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { WebhookConfig } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { webhookDeliveries, webhookSubscriptions, type WebhookSubscriptionRow } from '@/lib/db/schema';
import { AppError } from '@/lib/core/errors';
import { formatCursor, type FeedPosition } from '@/lib/features/feed/read-events';
import { displayTag } from '@/lib/core/tag';
import { WEBHOOK_ID, type DeliveryAttempt, type Webhook } from './schemas';
import { newSigningSecret } from './signing';
import { checkNewTarget, TargetRefused } from './target';
import { DEFAULT_WEBHOOK_EVENTS, type WebhookEventType } from './event-types';
import { webhookHead } from './subscription-events';

/*
 * A caller's webhook subscriptions (POST/GET /v1/webhooks, DELETE /v1/webhooks/{id}, rotate,
 * replay, deliveries). Every operation on one subscription names its owner: another owner's
 * subscription is the same 404 as none at all, so ids say nothing.
 */

/** How long a rotated-out secret still signs deliveries beside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** The delivery attempts GET /v1/webhooks/{id}/deliveries shows, newest first. */
export const SHOWN_DELIVERIES = 50;

const notFound = () => new AppError('not_found', 'No webhook subscription with this id.');

/** The row as its owner sees it (never the secret). */
export function toWebhook(row: WebhookSubscriptionRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    tags: row.tags?.map(displayTag) ?? null,
    events: row.events as WebhookEventType[],
    createdAt: row.createdAt.toISOString(),
    state: row.disabledAt ? 'disabled' : row.failures > 0 ? 'failing' : 'active',
    cursor: formatCursor({ xid: row.cursorXid, id: row.cursorId }),
    failures: row.failures,
    failingSince: row.failingSince?.toISOString() ?? null,
    nextAttemptAt: row.disabledAt ? null : row.nextAttemptAt.toISOString(),
    lastError: row.lastError,
    disabledReason: row.disabledReason,
  };
}

/**
 * Subscriptions one owner may hold: 10. A subscription is a stream of signed deliveries we
 * make for as long as it lives; an integrator needs one per receiving service, and can filter
 * by tags within one, so ten is room to spare while bounding what one key can make us send.
 */
export const MAX_SUBSCRIPTIONS_PER_OWNER = 10;

/**
 * A new subscription of `owner` to the changes after now (to deliver older ones, replay from
 * an earlier cursor). The target is checked first (lib/features/webhooks/target.ts); an owner holds at
 * most MAX_SUBSCRIPTIONS_PER_OWNER subscriptions (counted under a per-owner lock, so two requests cannot
 * both take the last place). Returns it with its signing secret, which is never shown again.
 */
export async function createWebhook(
  db: Db,
  { owner, url, tags, events }: { owner: string; url: string; tags?: string[]; events?: WebhookEventType[] },
  { now, config }: { now: Date; config: WebhookConfig },
): Promise<Webhook & { secret: string }> {
  let target: URL;
  try {
    target = await checkNewTarget(url, config);
  } catch (err) {
    if (err instanceof TargetRefused) throw new AppError('invalid_request', `\`url\`: ${err.message}`);
    throw err;
  }
  const secret = newSigningSecret();
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${WEBHOOK_OWNER_LOCK}::int, hashtext(${owner}))`);
    const [{ held }] = await tx
      .select({ held: count() })
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.owner, owner));
    if (held >= MAX_SUBSCRIPTIONS_PER_OWNER) {
      throw new AppError(
        'conflict',
        `An owner may hold ${MAX_SUBSCRIPTIONS_PER_OWNER} webhook subscriptions; delete one first.`,
      );
    }
    const head: FeedPosition = await webhookHead(tx);
    const [created] = await tx
      .insert(webhookSubscriptions)
      .values({
        id: `wh_${randomBytes(12).toString('hex')}`,
        owner,
        url: target.href,
        tags: tags ? [...new Set(tags)].sort() : null,
        events: [...(events ?? DEFAULT_WEBHOOK_EVENTS)],
        secret,
        createdAt: now,
        cursorXid: head.xid,
        cursorId: head.id,
        nextAttemptAt: now,
      })
      .returning();
    return created;
  });
  return { ...toWebhook(row), secret };
}

/** First key of the per-owner advisory lock of createWebhook (`'wh'`). */
const WEBHOOK_OWNER_LOCK = 0x7768;

export async function listWebhooks(db: Db, owner: string): Promise<Webhook[]> {
  const rows = await db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.owner, owner))
    .orderBy(webhookSubscriptions.createdAt);
  return rows.map(toWebhook);
}

const owned = (owner: string, id: string) =>
  and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.owner, owner));

export async function deleteWebhook(db: Db, owner: string, id: string): Promise<void> {
  const gone = await db.delete(webhookSubscriptions).where(owned(owner, id)).returning({ id: webhookSubscriptions.id });
  if (gone.length === 0) throw notFound();
}

/**
 * A new signing secret, returned this once. The previous one keeps signing beside it (a second
 * signature in `webhook-signature`) for PREVIOUS_SECRET_GRACE_MS, so the receiver can switch
 * without losing a delivery.
 */
export async function rotateWebhookSecret(
  db: Db,
  owner: string,
  id: string,
  now: Date,
): Promise<Webhook & { secret: string }> {
  const secret = newSigningSecret();
  const [row] = await db
    .update(webhookSubscriptions)
    .set({
      previousSecret: sql`${webhookSubscriptions.secret}`,
      previousSecretUntil: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
      secret,
    })
    .where(owned(owner, id))
    .returning();
  if (!row) throw notFound();
  return { ...toWebhook(row), secret };
}

/**
 * Delivers again every event after `after`: the cursor moves there, failures are forgotten and
 * a disabled subscription starts again. A delivery pass under way finishes without writing its
 * cursor over this one (`epoch`).
 */
export async function replayWebhook(
  db: Db,
  owner: string,
  id: string,
  after: FeedPosition,
  now: Date,
): Promise<Webhook> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set({
      cursorXid: after.xid,
      cursorId: after.id,
      epoch: sql`${webhookSubscriptions.epoch} + 1`,
      failures: 0,
      failingSince: null,
      lastError: null,
      nextAttemptAt: now,
      disabledAt: null,
      disabledReason: null,
    })
    .where(owned(owner, id))
    .returning();
  if (!row) throw notFound();
  return toWebhook(row);
}

export async function listDeliveries(db: Db, owner: string, id: string): Promise<DeliveryAttempt[]> {
  const [row] = await db.select({ id: webhookSubscriptions.id }).from(webhookSubscriptions).where(owned(owner, id));
  if (!row) throw notFound();
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(SHOWN_DELIVERIES);
  return rows.map((r) => ({
    eventId: r.eventId,
    attemptedAt: r.attemptedAt.toISOString(),
    status: r.status,
    latencyMs: r.latencyMs,
    error: r.error,
  }));
}

/** A subscription id from a path: malformed is the same 404 as unknown. */
export function webhookIdOf(raw: string): string {
  if (!WEBHOOK_ID.test(raw)) throw notFound();
  return raw;
}
