// GET /api/cron/indexer — the scheduled indexer run and housekeeping (Bearer CRON_SECRET)
import { getServices } from '@/lib/http/services';
import { cronIndexerHandlers } from './handlers';

export const dynamic = 'force-dynamic';

// Vercel stops a function at its plan's limit; a run also stops at MAX_TRANSACTIONS_PER_RUN (lib/features/indexer/run-indexer.ts), sized to fit.
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cronIndexerHandlers(getServices);
