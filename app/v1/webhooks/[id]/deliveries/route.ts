// GET /v1/webhooks/{id}/deliveries — the subscription's last delivery attempts, newest first
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withBearer, withRateLimit } from '@/lib/api/handler';
import { listDeliveries, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const GET = withCors(
  withApi<{ id: string }>(
    withRateLimit(
      'webhooks',
      withBearer(async (_req, { params: { id }, caller, services: { db } }) =>
        json({ deliveries: await listDeliveries(db, caller, webhookIdOf(id)) }),
      ),
    ),
  ),
);

export const OPTIONS = corsPreflight(['GET']);

export const { HEAD, POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
