// POST /v1/webhooks/{id}/replay { after } — deliver again every event after a feed cursor
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withBearer, withRateLimit } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { ReplayWebhookRequest } from '@/lib/webhooks/schemas';
import { replayWebhook, webhookIdOf } from '@/lib/webhooks/subscriptions';

export const POST = withCors(
  withApi<{ id: string }>(
    withRateLimit(
      'webhooks',
      withBearer(async (req, { params: { id }, caller, services: { db } }) => {
        const { after } = parseWith(ReplayWebhookRequest, await readJson(req, 1024));
        return json(await replayWebhook(db, caller, webhookIdOf(id), after, new Date()));
      }),
    ),
  ),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
