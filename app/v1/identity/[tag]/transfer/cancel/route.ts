// POST /v1/identity/{tag}/transfer/cancel — the UNSIGNED cancel_transfer transaction for the owner to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation, NOT_THE_OWNER } from '@/lib/http/lifecycle-route';
import { FeePayerOnlyRequest } from '@/lib/features/lifecycle/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/transfer/cancel', {
  POST: lifecycleOperation(
    {
      operationId: 'cancelTransfer',
      summary: 'Build an unsigned cancel_transfer transaction (take back the standing offer)',
      checks: 'an offer must stand (409), the caller must be the owner (403). No body, `{}` or `{ feePayer }`.',
      errors: { 409: 'No transfer offer stands', 403: NOT_THE_OWNER },
    },
    FeePayerOnlyRequest,
    () => ({ kind: 'cancel_transfer' }),
  ),
});
