// GET /api/metrics — this instance's metrics in Prometheus's text format
// (lib/observability/metrics.ts). With METRICS_TOKEN set, only with `Authorization: Bearer
// <METRICS_TOKEN>`; without it, open (docs/operating.md).
import { getServices } from '@/lib/http/services';
import { metricsHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = metricsHandlers(getServices);
