// POST /v1/identity/{tag}/wallet — { wallet } → the UNSIGNED set_wallet transaction for the owner and the new wallet to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation, NOT_THE_OWNER } from '@/lib/http/lifecycle-route';
import { SetWalletRequest } from '@/lib/features/lifecycle/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/wallet', {
  POST: lifecycleOperation(
    {
      operationId: 'setWallet',
      summary: 'Build an unsigned set_wallet transaction (change the payout wallet)',
      checks:
        'the caller must be the owner (403). Before all that, 400 `unsafe_payout` when SOL sent to the new wallet would be lost (`reason`). The new wallet signs too when it is not the owner.',
      errors: {
        400: 'Malformed tag or body; or `unsafe_payout` (`reason`: `off_curve`, `token_account`, `mint`, `program`, `not_system_owned`)',
        403: NOT_THE_OWNER,
      },
    },
    SetWalletRequest,
    ({ wallet }) => ({ kind: 'set_wallet', wallet }),
  ),
});
