// DELETE /v1/webhooks/{id} — end one of the caller's subscriptions
import { v1Route } from '@/lib/http/v1-route';
import { WEBHOOK_OPERATIONS } from '../webhook-operations';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}', {
  DELETE: WEBHOOK_OPERATIONS.delete,
});
