// POST /v1/webhooks/{id}/rotate — a new signing secret (the old one still signs for a day)
import { ok } from '@/lib/http/docs';
import { v1Route } from '@/lib/http/v1-route';
import { WebhookWithSecret } from '@/lib/features/webhooks/schemas';
import { rotateWebhookSecret } from '@/lib/features/webhooks/subscriptions';
import { ownWebhookOperation } from '../../webhook-owner';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/webhooks/{id}/rotate', {
  POST: ownWebhookOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret',
    description:
      'For 24 hours the previous secret still signs too: `webhook-signature` carries one signature under each.',
    responses: { 200: ok('The subscription, with its new signing secret', WebhookWithSecret) },
    call: async ({ id, caller, db }) => rotateWebhookSecret(db, caller, id, new Date()),
  }),
});
