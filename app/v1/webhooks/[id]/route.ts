// DELETE /v1/webhooks/{id} — end one of the caller's subscriptions
import { v1Route } from '@/lib/http/v1-route';
import { deleteWebhook } from '@/lib/features/webhooks/subscriptions';
import { ownWebhookOperation } from '../webhook-owner';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}', {
  DELETE: ownWebhookOperation({
    operationId: 'deleteWebhook',
    summary: 'End a subscription',
    responses: { 204: { description: 'Deleted; nothing more is delivered' } },
    call: async ({ id, caller, db }) => {
      await deleteWebhook(db, caller, id);
      return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
    },
  }),
});
