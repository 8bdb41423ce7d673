// POST /v1/webhooks/{id}/replay { after } — deliver again every event after a feed cursor
import { v1Route } from '@/lib/http/v1-route';
import { WEBHOOK_OPERATIONS } from '../../webhook-operations';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/replay', {
  POST: WEBHOOK_OPERATIONS.replay,
});
