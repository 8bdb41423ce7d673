import { clusterAccess } from '@/lib/chain/chain-and-mirror';
import { cronRoute, type CronPath } from '@/lib/core/schedule';
import { routeAnswer, runPasses } from '@/lib/features/schedule/passes';
import { withCron } from './cron-auth';
import { json, withApi } from './handler';
import { otherMethods } from './other-methods';
import type { ServicesProvider } from './services';

/**
 * A cron route's handlers (GET with the cron secret), bound to services by the caller: the
 * route file binds the process's own, tests/support/in-process.ts a test's own. What the route
 * runs is its row of lib/features/schedule/passes.ts.
 */
export function cronRouteHandlers(path: CronPath, provide: ServicesProvider) {
  const { passes } = cronRoute(path);
  const GET = withApi(
    withCron(async (_req, { services: { db, config } }) => {
      const results = await runPasses(passes, { db, ...clusterAccess(config), config, now: new Date() });
      return json(routeAnswer(passes, results));
    }),
    path,
    provide,
  );
  return { GET, ...otherMethods(path, ['GET']) };
}
