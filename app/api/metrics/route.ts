// GET /api/metrics — this instance's metrics in Prometheus's text format
// (lib/observability/metrics.ts). With METRICS_TOKEN set, only with `Authorization: Bearer
// <METRICS_TOKEN>`; without it, open (docs/operating.md).
import { hasBearerSecret } from '@/lib/http/cron-auth';
import { withApi } from '@/lib/http/handler';
import { AppError } from '@/lib/core/errors';
import { prometheusText } from '@/lib/observability/metrics';
import { otherMethods } from '@/lib/http/other-methods';

export const dynamic = 'force-dynamic';

export const GET = withApi(async (req, { services: { config } }) => {
  if (config.metricsToken && !hasBearerSecret(req.headers.get('authorization'), config.metricsToken)) {
    throw new AppError('unauthorized', 'This route needs the metrics token.', {
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
  }
  return new Response(await prometheusText(), {
    headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/metrics', ['GET']);
