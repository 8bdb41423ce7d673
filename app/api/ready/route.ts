// GET /api/ready — readiness: the database answers within 2 s and the cluster's last check (at
// most a few seconds old, shared by every caller: lib/chain/cluster-check.ts) passed; 200, or
// 503 naming the part that failed (lib/http/readiness.ts). GET /api/health is liveness.
import { getServices } from '@/lib/http/services';
import { readyHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readyHandlers(getServices);
