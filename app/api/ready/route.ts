// GET /api/ready — readiness: the database answers within 2 s and the cluster's last check (at
// most a few seconds old, shared by every caller: lib/chain/cluster-check.ts) passed; 200, or
// 503 naming the part that failed (lib/http/readiness.ts). GET /api/health is liveness.
import { sql } from 'drizzle-orm';
import { json, withApi } from '@/lib/http/handler';
import { latestClusterCheck } from '@/lib/chain/cluster-check';
import { getChain } from '@/lib/chain/rpc';
import { isDatabaseUnavailable } from '@/lib/core/database-errors';
import { checkReadiness } from '@/lib/http/readiness';
import { otherMethods } from '@/lib/http/other-methods';

export const dynamic = 'force-dynamic';

export const GET = withApi(async (_req, { services: { db, config } }) => {
  const { connection } = getChain(config);
  const readiness = await checkReadiness({
    pingDatabase: () => db.execute(sql`select 1`),
    isDatabaseUnavailable,
    clusterCheck: () => latestClusterCheck(connection),
  });
  return json(readiness, { status: readiness.ok ? 200 : 503 });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/ready', ['GET']);
