// The six /v1/webhooks operations side by side, each its contract and its handler; the route files
// under app/v1/webhooks only mount them on their path and method, as the lifecycle routes mount
// lib/http/lifecycle-route.ts. The checks they share are in webhook-owner.ts.
import { z } from 'zod';
import { json } from '@/lib/http/handler';
import { ok } from '@/lib/http/docs';
import { v1Operation } from '@/lib/http/v1-route';
import {
  CreateWebhookRequest,
  DeliveryAttemptList,
  ReplayWebhookRequest,
  Webhook,
  WebhookList,
  WebhookWithSecret,
} from '@/lib/features/webhooks/schemas';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  replayWebhook,
  rotateWebhookSecret,
} from '@/lib/features/webhooks/subscriptions';
import { ownWebhookOperation, WEBHOOK_OWNER } from './webhook-owner';

export const WEBHOOK_OPERATIONS = {
  create: v1Operation({
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to the change feed and to payments',
    description:
      'Every event after now of the types in `events` (by default `identity.changed`), or only those of `tags`, is POSTed ' +
      'to `url`: a change exactly as GET /v1/events shows it (the `identityChange` webhook), a payment to one of the ' +
      'caller’s tags as the `paymentReceived` webhook shows it, signed as Standard Webhooks (`webhook-id` is the event id, ' +
      '`webhook-timestamp`, `webhook-signature`). At least once, in order: deduplicate by `webhook-id`. A failed delivery is retried ' +
      'with exponential backoff (5 s, 10 s, 20 s… up to an hour apart); after 24 hours of failures the subscription is ' +
      'disabled, with the reason in `disabledReason`. The target must be https on port 443, on a public address, and answer ' +
      'without a redirect; it is checked again on every delivery. The answer carries the signing secret, shown only this once.',
    ...WEBHOOK_OWNER,
    body: { schema: CreateWebhookRequest, maxBytes: 8192 },
    responses: {
      201: ok('The subscription, with its signing secret', WebhookWithSecret, z.object({ Location: z.string() })),
    },
    errors: {
      400: 'Malformed body, or a target refused (not https, not port 443, not a public address, answers with a redirect)',
      409: 'The caller holds the most subscriptions an owner may',
    },
    handler: async (_req, { body: { url, tags, events }, caller, services: { db, config } }) => {
      const created = await createWebhook(
        db,
        { owner: caller, url, tags, events },
        { now: new Date(), config: config.webhooks },
      );
      return json(created, { status: 201, headers: { Location: `/v1/webhooks/${created.id}` } });
    },
  }),

  list: v1Operation({
    operationId: 'listWebhooks',
    summary: 'The caller’s subscriptions, their state and cursor',
    ...WEBHOOK_OWNER,
    responses: { 200: ok('The subscriptions, oldest first', WebhookList) },
    handler: async (_req, { caller, services: { db } }) => ({ webhooks: await listWebhooks(db, caller) }),
  }),

  delete: ownWebhookOperation({
    operationId: 'deleteWebhook',
    summary: 'End a subscription',
    responses: { 204: { description: 'Deleted; nothing more is delivered' } },
    call: async ({ id, caller, db }) => {
      await deleteWebhook(db, caller, id);
      return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
    },
  }),

  rotate: ownWebhookOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret',
    description:
      'For 24 hours the previous secret still signs too: `webhook-signature` carries one signature under each.',
    responses: { 200: ok('The subscription, with its new signing secret', WebhookWithSecret) },
    call: async ({ id, caller, db }) => rotateWebhookSecret(db, caller, id, new Date()),
  }),

  replay: ownWebhookOperation({
    operationId: 'replayWebhook',
    summary: 'Deliver again from a feed cursor',
    description:
      'Moves the cursor to `after` (`0-0`: the start of the feed); failures are forgotten and a disabled subscription starts again.',
    body: { schema: ReplayWebhookRequest, maxBytes: 1024 },
    responses: { 200: ok('The subscription, its cursor moved', Webhook) },
    errors: { 400: 'Malformed body or cursor' },
    call: async ({ id, caller, db, body: { after } }) => replayWebhook(db, caller, id, after, new Date()),
  }),

  deliveries: ownWebhookOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'The last delivery attempts: status, latency, error',
    responses: { 200: ok('Up to 50 attempts, newest first', DeliveryAttemptList) },
    call: async ({ id, caller, db }) => ({ deliveries: await listDeliveries(db, caller, id) }),
  }),
};
