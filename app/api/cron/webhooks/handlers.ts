// GET /api/cron/webhooks's handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own.
import { json, withApi } from '@/lib/http/handler';
import { withCron } from '@/lib/http/cron-auth';
import { deliverWebhooks } from '@/lib/features/webhooks/deliver';
import { otherMethods } from '@/lib/http/other-methods';
import type { ServicesProvider } from '@/lib/http/services';

const ROUTE = '/api/cron/webhooks';

export function cronWebhooksHandlers(provide: ServicesProvider) {
  const GET = withApi(
    withCron(async (_req, { services: { db, config } }) =>
      json(await deliverWebhooks({ db, config: config.webhooks, clock: () => new Date() })),
    ),
    ROUTE,
    provide,
  );
  return { GET, ...otherMethods(ROUTE, ['GET']) };
}
