// GET /v1/webhooks/{id}/deliveries — the subscription's last delivery attempts, newest first
import { json } from '@/lib/api/handler';
import { ok, RateLimitHeaders } from '@/lib/api/docs';
import { v1Operation, v1Route } from '@/lib/api/v1-route';
import { DeliveryAttemptList, NO_SUCH_WEBHOOK, webhookPath } from '@/lib/webhooks/schemas';
import { listDeliveries, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/deliveries', {
  GET: v1Operation({
    operationId: 'listWebhookDeliveries',
    tags: ['webhooks'],
    summary: 'The last delivery attempts: status, latency, error',
    rateLimit: 'webhooks',
    bearer: true,
    params: ({ id }) => ({ id: webhookIdOf(id) }),
    requestParams: webhookPath,
    responses: { 200: ok('Up to 50 attempts, newest first', DeliveryAttemptList, RateLimitHeaders) },
    errors: { 404: NO_SUCH_WEBHOOK },
    handler: async (_req, { params: { id }, caller, services: { db } }) => json({ deliveries: await listDeliveries(db, caller, id) }),
  }),
});
