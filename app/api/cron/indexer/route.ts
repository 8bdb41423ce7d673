// GET /api/cron/indexer — the scheduled passes of lib/features/schedule/passes.ts (Bearer CRON_SECRET)
import { cronRouteHandlers } from '@/lib/http/cron-route';
import { getServices } from '@/lib/http/services';

export const dynamic = 'force-dynamic';

// Vercel stops a function at its plan's limit; a run also stops at MAX_TRANSACTIONS_PER_RUN (lib/features/indexer/run-indexer.ts), sized to fit.
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cronRouteHandlers('/api/cron/indexer', getServices);
