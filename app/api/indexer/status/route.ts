// GET /api/indexer/status — how far behind the chain the mirror is, its deferred and skipped
// transactions, the last run (lib/features/indexer/status.ts). Public; with `Authorization: Bearer
// <METRICS_TOKEN>` it adds the private part (reasons and the last error). Rate limited per
// client address (`status`): it reads the cluster's shared check, never a call per request.
import { getServices } from '@/lib/http/services';
import { indexerStatusHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = indexerStatusHandlers(getServices);
