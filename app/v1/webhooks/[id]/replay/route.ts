// POST /v1/webhooks/{id}/replay { after } — deliver again every event after a feed cursor
import { ok } from '@/lib/http/docs';
import { v1Route } from '@/lib/http/v1-route';
import { ReplayWebhookRequest, Webhook } from '@/lib/features/webhooks/schemas';
import { replayWebhook } from '@/lib/features/webhooks/subscriptions';
import { ownWebhookOperation } from '../../webhook-owner';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/replay', {
  POST: ownWebhookOperation({
    operationId: 'replayWebhook',
    summary: 'Deliver again from a feed cursor',
    description:
      'Moves the cursor to `after` (`0-0`: the start of the feed); failures are forgotten and a disabled subscription starts again.',
    body: { schema: ReplayWebhookRequest, maxBytes: 1024 },
    responses: { 200: ok('The subscription, its cursor moved', Webhook) },
    errors: { 400: 'Malformed body or cursor' },
    call: async ({ id, caller, db, body: { after } }) => replayWebhook(db, caller, id, after, new Date()),
  }),
});
