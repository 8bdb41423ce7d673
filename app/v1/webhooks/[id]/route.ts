// DELETE /v1/webhooks/{id} — end one of the caller's subscriptions
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { withApi, withBearer, withRateLimit } from '@/lib/api/handler';
import { deleteWebhook, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const DELETE = withCors(
  withApi<{ id: string }>(
    withRateLimit(
      'webhooks',
      withBearer(async (_req, { params: { id }, caller, services: { db } }) => {
        await deleteWebhook(db, caller, webhookIdOf(id));
        return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
      }),
    ),
  ),
);

export const OPTIONS = corsPreflight(['DELETE']);

export const { GET, HEAD, POST, PUT, PATCH } = routeMethods({ DELETE, OPTIONS });
