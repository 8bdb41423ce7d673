// POST /v1/identity/{tag}/wallet — { wallet } → the UNSIGNED set_wallet transaction for the owner and the new wallet to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation } from '@/lib/http/lifecycle-route';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/wallet', {
  POST: lifecycleOperation('set_wallet'),
});
