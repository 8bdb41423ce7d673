// GET /v1/webhooks/{id}/deliveries — the subscription's last delivery attempts, newest first
import { ok } from '@/lib/http/docs';
import { v1Route } from '@/lib/http/v1-route';
import { DeliveryAttemptList } from '@/lib/features/webhooks/schemas';
import { listDeliveries } from '@/lib/features/webhooks/subscriptions';
import { ownWebhookOperation } from '../../webhook-owner';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/deliveries', {
  GET: ownWebhookOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'The last delivery attempts: status, latency, error',
    responses: { 200: ok('Up to 50 attempts, newest first', DeliveryAttemptList) },
    call: async ({ id, caller, db }) => ({ deliveries: await listDeliveries(db, caller, id) }),
  }),
});
