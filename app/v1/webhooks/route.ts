// POST /v1/webhooks — subscribe a URL to the change feed (signed deliveries); GET — the caller's subscriptions
import { z } from 'zod';
import { json } from '@/lib/http/handler';
import { ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { CreateWebhookRequest, WebhookList, WebhookWithSecret } from '@/lib/features/webhooks/schemas';
import { createWebhook, listWebhooks } from '@/lib/features/webhooks/subscriptions';
import { WEBHOOK_OWNER } from './webhook-owner';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks', {
  POST: v1Operation({
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
  GET: v1Operation({
    operationId: 'listWebhooks',
    summary: 'The caller’s subscriptions, their state and cursor',
    ...WEBHOOK_OWNER,
    responses: { 200: ok('The subscriptions, oldest first', WebhookList) },
    handler: async (_req, { caller, services: { db } }) => ({ webhooks: await listWebhooks(db, caller) }),
  }),
});
