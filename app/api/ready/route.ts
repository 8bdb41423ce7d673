// GET /api/ready — readiness: the database and the cluster each answer within 2 s; 200, or
// 503 naming the part that failed (lib/http/readiness.ts). GET /api/health is liveness.
import { json, withApi } from '@/lib/http/handler';
import { getChain } from '@/lib/chain/rpc';
import { checkReadiness } from '@/lib/http/readiness';
import { otherMethods } from '@/lib/http/other-methods';

export const dynamic = 'force-dynamic';

export const GET = withApi(async (_req, { services: { db, config } }) => {
  const readiness = await checkReadiness({ db, connection: getChain(config).connection });
  return json(readiness, { status: readiness.ok ? 200 : 503 });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/ready', ['GET']);
