// GET /api/actions/pay/{tag} — the "pay @tag" Solana Action's metadata; POST `{ account }` — its unsigned transfer
import { getServices } from '@/lib/http/services';
import { payActionHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const { GET, POST, OPTIONS, PUT, PATCH, DELETE } = payActionHandlers(getServices);
