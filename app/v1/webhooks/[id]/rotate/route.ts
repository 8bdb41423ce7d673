// POST /v1/webhooks/{id}/rotate — a new signing secret (the old one still signs for a day)
import { v1Route } from '@/lib/http/v1-route';
import { WEBHOOK_OPERATIONS } from '../../webhook-operations';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/rotate', {
  POST: WEBHOOK_OPERATIONS.rotate,
});
