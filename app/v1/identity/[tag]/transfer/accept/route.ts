// POST /v1/identity/{tag}/transfer/accept — the UNSIGNED accept_transfer transaction for the pending owner to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation } from '@/lib/http/lifecycle-route';
import { FeePayerOnlyRequest } from '@/lib/features/lifecycle/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/transfer/accept', {
  POST: lifecycleOperation(
    {
      operationId: 'acceptTransfer',
      summary: 'Build an unsigned accept_transfer transaction (take the tag offered to you)',
      checks:
        'an offer must stand (409), the caller must be the key it names (403). On accept the payout wallet becomes the new ' +
        'owner. No body, `{}` or `{ feePayer }`.',
      errors: { 409: 'No transfer offer stands', 403: 'The tag is not offered to the caller' },
    },
    FeePayerOnlyRequest,
    () => ({ kind: 'accept_transfer' }),
  ),
});
