// GET /api/cron/webhooks — one webhook delivery pass (Bearer CRON_SECRET); `npm start` calls it every second
import { json, withApi } from '@/lib/http/handler';
import { withCron } from '@/lib/http/cron-auth';
import { deliverWebhooks } from '@/lib/features/webhooks/deliver';
import { otherMethods } from '@/lib/http/other-methods';

export const dynamic = 'force-dynamic';

export const maxDuration = 60;

export const GET = withApi(
  withCron(async (_req, { services: { db, config } }) =>
    json(await deliverWebhooks({ db, config: config.webhooks, clock: () => new Date() })),
  ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/cron/webhooks', ['GET']);
