// GET /api/metrics's handlers, bound to services by the caller: route.ts binds the process's
// own, tests/support/in-process.ts a test's own.
import { hasBearerSecret } from '@/lib/http/cron-auth';
import { withApi } from '@/lib/http/handler';
import { AppError } from '@/lib/core/errors';
import { prometheusText } from '@/lib/observability/metrics';
import { otherMethods } from '@/lib/http/other-methods';
import type { ServicesProvider } from '@/lib/http/services';

const ROUTE = '/api/metrics';

export function metricsHandlers(provide: ServicesProvider) {
  const GET = withApi(
    async (req, { services: { config } }) => {
      if (config.metricsToken && !hasBearerSecret(req.headers.get('authorization'), config.metricsToken)) {
        throw new AppError('unauthorized', 'This route needs the metrics token.', {
          'WWW-Authenticate': 'Bearer realm="metrics"',
        });
      }
      return new Response(await prometheusText(), {
        headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' },
      });
    },
    ROUTE,
    provide,
  );
  return { GET, ...otherMethods(ROUTE, ['GET']) };
}
