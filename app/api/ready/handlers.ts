// GET /api/ready's handlers, bound to services by the caller: route.ts binds the process's
// own, tests/support/in-process.ts a test's own.
import { sql } from 'drizzle-orm';
import { json, withApi } from '@/lib/http/handler';
import { clusterEndpoint, latestClusterCheck } from '@/lib/chain/cluster-check';
import { isDatabaseUnavailable } from '@/lib/core/database-errors';
import { checkReadiness } from '@/lib/http/readiness';
import { otherMethods } from '@/lib/http/other-methods';
import type { ServicesProvider } from '@/lib/http/services';

const ROUTE = '/api/ready';

export function readyHandlers(provide: ServicesProvider) {
  const GET = withApi(
    async (_req, { services: { db, config } }) => {
      const readiness = await checkReadiness({
        pingDatabase: () => db.execute(sql`select 1`),
        isDatabaseUnavailable,
        clusterCheck: () => latestClusterCheck(clusterEndpoint(config)),
      });
      return json(readiness, { status: readiness.ok ? 200 : 503 });
    },
    ROUTE,
    provide,
  );
  return { GET, ...otherMethods(ROUTE, ['GET']) };
}
