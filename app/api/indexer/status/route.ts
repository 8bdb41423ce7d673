// GET /api/indexer/status — how far behind the chain the mirror is, its deferred and skipped
// transactions, the last run (lib/features/indexer/status.ts). Public; with `Authorization: Bearer
// <METRICS_TOKEN>` it adds the private part (reasons and the last error). Rate limited per
// client address (`status`): it reads the cluster's shared check, never a call per request.
import { hasBearerSecret } from '@/lib/http/cron-auth';
import { json, withApi, withRateLimit } from '@/lib/http/handler';
import { getChain } from '@/lib/chain/rpc';
import { readIndexerStatus } from '@/lib/features/indexer/status';
import { otherMethods } from '@/lib/http/other-methods';

export const dynamic = 'force-dynamic';

export const GET = withApi(
  withRateLimit('status', async (req, { services: { db, config } }) => {
    const withPrivate = hasBearerSecret(req.headers.get('authorization'), config.metricsToken);
    return json(await readIndexerStatus({ db, ...getChain(config) }, withPrivate));
  }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/indexer/status', ['GET']);
