// POST /v1/identity/{tag}/wallet — { wallet } → the UNSIGNED set_wallet transaction for the owner to sign (issue 12)
import { corsPreflight } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { lifecycleRoute } from '@/lib/lifecycle/route';
import { SetWalletRequest } from '@/lib/lifecycle/schemas';

export const POST = lifecycleRoute(SetWalletRequest, ({ wallet }) => ({ kind: 'set_wallet', wallet }));

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
