// GET /api/indexer/status's handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own.
import { hasBearerSecret } from '@/lib/http/cron-auth';
import { json, withApi, withRateLimit } from '@/lib/http/handler';
import { clusterAccess } from '@/lib/chain/chain-and-mirror';
import { readIndexerStatus } from '@/lib/features/indexer/status';
import { otherMethods } from '@/lib/http/other-methods';
import type { ServicesProvider } from '@/lib/http/services';

const ROUTE = '/api/indexer/status';

export function indexerStatusHandlers(provide: ServicesProvider) {
  const GET = withApi(
    withRateLimit('status', async (req, { services: { db, config } }) => {
      const withPrivate = hasBearerSecret(req.headers.get('authorization'), config.metricsToken);
      return json(await readIndexerStatus({ db, ...clusterAccess(config) }, withPrivate));
    }),
    ROUTE,
    provide,
  );
  return { GET, ...otherMethods(ROUTE, ['GET']) };
}
