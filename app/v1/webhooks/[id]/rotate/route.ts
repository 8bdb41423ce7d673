// POST /v1/webhooks/{id}/rotate — a new signing secret (the old one still signs for a day)
import { json } from '@/lib/api/handler';
import { ok, RateLimitHeaders } from '@/lib/api/docs';
import { v1Operation, v1Route } from '@/lib/api/v1-route';
import { NO_SUCH_WEBHOOK, webhookPath, WebhookWithSecret } from '@/lib/webhooks/schemas';
import { rotateWebhookSecret, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/rotate', {
  POST: v1Operation({
    operationId: 'rotateWebhookSecret',
    tags: ['webhooks'],
    summary: 'A new signing secret',
    description: 'For 24 hours the previous secret still signs too: `webhook-signature` carries one signature under each.',
    rateLimit: 'webhooks',
    bearer: true,
    params: ({ id }) => ({ id: webhookIdOf(id) }),
    requestParams: webhookPath,
    responses: { 200: ok('The subscription, with its new signing secret', WebhookWithSecret, RateLimitHeaders) },
    errors: { 404: NO_SUCH_WEBHOOK },
    handler: async (_req, { params: { id }, caller, services: { db } }) => json(await rotateWebhookSecret(db, caller, id, new Date())),
  }),
});
