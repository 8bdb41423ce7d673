// GET /v1/webhooks/{id}/deliveries — the subscription's last delivery attempts, newest first
import { ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { DeliveryAttemptList } from '@/lib/features/webhooks/schemas';
import { listDeliveries } from '@/lib/features/webhooks/subscriptions';
import { OWN_WEBHOOK } from '../../webhook-owner';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/deliveries', {
  GET: v1Operation({
    operationId: 'listWebhookDeliveries',
    summary: 'The last delivery attempts: status, latency, error',
    ...OWN_WEBHOOK,
    responses: { 200: ok('Up to 50 attempts, newest first', DeliveryAttemptList) },
    handler: async (_req, { params: { id }, caller, services: { db } }) => ({
      deliveries: await listDeliveries(db, caller, id),
    }),
  }),
});
