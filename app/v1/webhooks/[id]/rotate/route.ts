// POST /v1/webhooks/{id}/rotate — a new signing secret (the old one still signs for a day)
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withBearer, withRateLimit } from '@/lib/api/handler';
import { rotateWebhookSecret, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const POST = withCors(
  withApi<{ id: string }>(
    withRateLimit(
      'webhooks',
      withBearer(async (_req, { params: { id }, caller, services: { db } }) =>
        json(await rotateWebhookSecret(db, caller, webhookIdOf(id), new Date())),
      ),
    ),
  ),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
