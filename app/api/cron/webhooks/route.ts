// GET /api/cron/webhooks — one webhook delivery pass (Bearer CRON_SECRET); `npm start` calls it every second
import { getServices } from '@/lib/http/services';
import { cronWebhooksHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cronWebhooksHandlers(getServices);
