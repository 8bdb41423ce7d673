// POST /v1/webhooks/{id}/replay { after } — deliver again every event after a feed cursor
import { json } from '@/lib/api/handler';
import { ok, RateLimitHeaders } from '@/lib/api/docs';
import { v1Operation, v1Route } from '@/lib/api/v1-route';
import { NO_SUCH_WEBHOOK, ReplayWebhookRequest, Webhook, webhookPath } from '@/lib/webhooks/schemas';
import { replayWebhook, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/replay', {
  POST: v1Operation({
    operationId: 'replayWebhook',
    tags: ['webhooks'],
    summary: 'Deliver again from a feed cursor',
    description: 'Moves the cursor to `after` (`0-0`: the start of the feed); failures are forgotten and a disabled subscription starts again.',
    rateLimit: 'webhooks',
    bearer: true,
    params: ({ id }) => ({ id: webhookIdOf(id) }),
    body: { schema: ReplayWebhookRequest, maxBytes: 1024 },
    requestParams: webhookPath,
    responses: { 200: ok('The subscription, its cursor moved', Webhook, RateLimitHeaders) },
    errors: { 400: 'Malformed body or cursor', 404: NO_SUCH_WEBHOOK },
    handler: async (_req, { params: { id }, body: { after }, caller, services: { db } }) =>
      json(await replayWebhook(db, caller, id, after, new Date())),
  }),
});
