// POST /v1/webhooks — subscribe a URL to the change feed (signed deliveries); GET — the caller's subscriptions
import { v1Route } from '@/lib/http/v1-route';
import { WEBHOOK_OPERATIONS } from './webhook-operations';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks', {
  POST: WEBHOOK_OPERATIONS.create,
  GET: WEBHOOK_OPERATIONS.list,
});
