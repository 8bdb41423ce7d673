// DELETE /v1/webhooks/{id} — end one of the caller's subscriptions
import { RateLimitHeaders } from '@/lib/api/docs';
import { v1Operation, v1Route } from '@/lib/api/v1-route';
import { NO_SUCH_WEBHOOK, webhookPath } from '@/lib/webhooks/schemas';
import { deleteWebhook, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}', {
  DELETE: v1Operation({
    operationId: 'deleteWebhook',
    tags: ['webhooks'],
    summary: 'End a subscription',
    rateLimit: 'webhooks',
    bearer: true,
    params: ({ id }) => ({ id: webhookIdOf(id) }),
    requestParams: webhookPath,
    responses: { 204: { description: 'Deleted; nothing more is delivered', headers: RateLimitHeaders } },
    errors: { 404: NO_SUCH_WEBHOOK },
    handler: async (_req, { params: { id }, caller, services: { db } }) => {
      await deleteWebhook(db, caller, id);
      return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
    },
  }),
});
