// POST /v1/identity/{tag}/wallet — { wallet } → the UNSIGNED set_wallet transaction for the owner to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation, NOT_THE_OWNER } from '@/lib/http/lifecycle-route';
import { SetWalletRequest } from '@/lib/features/lifecycle/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/wallet', {
  POST: lifecycleOperation(
    {
      operationId: 'setWallet',
      summary: 'Build an unsigned set_wallet transaction (change the payout wallet)',
      checks: 'the caller must be the owner (403).',
      errors: { 403: NOT_THE_OWNER },
    },
    SetWalletRequest,
    ({ wallet }) => ({ kind: 'set_wallet', wallet }),
  ),
});
