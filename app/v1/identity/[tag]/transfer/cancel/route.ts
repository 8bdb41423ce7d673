// POST /v1/identity/{tag}/transfer/cancel — the UNSIGNED cancel_transfer transaction for the owner to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation } from '@/lib/http/lifecycle-route';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/transfer/cancel', {
  POST: lifecycleOperation('cancel_transfer'),
});
