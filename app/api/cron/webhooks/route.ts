// GET /api/cron/webhooks — one webhook delivery pass (Bearer CRON_SECRET); its cadence: lib/features/schedule/passes.ts
import { cronRouteHandlers } from '@/lib/http/cron-route';
import { getServices } from '@/lib/http/services';

export const dynamic = 'force-dynamic';

export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cronRouteHandlers('/api/cron/webhooks', getServices);
