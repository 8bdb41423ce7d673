// GET /v1/webhooks/{id}/deliveries — the subscription's last delivery attempts, newest first
import { v1Route } from '@/lib/http/v1-route';
import { WEBHOOK_OPERATIONS } from '../../webhook-operations';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/deliveries', {
  GET: WEBHOOK_OPERATIONS.deliveries,
});
