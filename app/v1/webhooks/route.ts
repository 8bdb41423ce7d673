// POST /v1/webhooks — subscribe a URL to the change feed (signed deliveries); GET — the caller's subscriptions
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withBearer, withRateLimit } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { CreateWebhookRequest } from '@/lib/webhooks/schemas';
import { createWebhook, listWebhooks } from '@/lib/webhooks/subscriptions';

export const POST = withCors(
  withApi(
    withRateLimit(
      'webhooks',
      withBearer(async (req, { caller, services: { db, config } }) => {
        const { url, tags } = parseWith(CreateWebhookRequest, await readJson(req, 8192));
        const created = await createWebhook(db, { owner: caller, url, tags }, { now: new Date(), config: config.webhooks });
        return json(created, { status: 201, headers: { Location: `/v1/webhooks/${created.id}` } });
      }),
    ),
  ),
);

export const GET = withCors(
  withApi(
    withRateLimit(
      'webhooks',
      withBearer(async (_req, { caller, services: { db } }) => json({ webhooks: await listWebhooks(db, caller) })),
    ),
  ),
);

export const OPTIONS = corsPreflight(['GET', 'POST']);

export const { HEAD, PUT, PATCH, DELETE } = routeMethods({ GET, POST, OPTIONS });
