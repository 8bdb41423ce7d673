// GET /api/cron/indexer's handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own.
import { json, withApi } from '@/lib/http/handler';
import { getChain } from '@/lib/chain/rpc';
import { withCron } from '@/lib/http/cron-auth';
import { runCronJob } from '@/lib/features/indexer/cron-job';
import { otherMethods } from '@/lib/http/other-methods';
import type { ServicesProvider } from '@/lib/http/services';

const ROUTE = '/api/cron/indexer';

export function cronIndexerHandlers(provide: ServicesProvider) {
  const GET = withApi(
    withCron(async (_req, { services: { db, config } }) => {
      const { connection, programId } = getChain(config);
      return json(await runCronJob({ db, connection, programId, config, now: new Date() }));
    }),
    ROUTE,
    provide,
  );
  return { GET, ...otherMethods(ROUTE, ['GET']) };
}
