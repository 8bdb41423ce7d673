// GET /api/health — liveness: answers while the process can serve, whatever the database or
// the cluster (GET /api/ready checks those). Also the trivial route the benchmarks compare
// against; observed like every route (request id, metrics, its log line).
import { observeRequest } from '@/lib/observability/observe-request';
import { otherMethods } from '@/lib/http/other-methods';

export const dynamic = 'force-dynamic';

export function GET(req: Request): Promise<Response> {
  return observeRequest(req, '/api/health', async () => Response.json({ ok: true }));
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/health', ['GET']);
