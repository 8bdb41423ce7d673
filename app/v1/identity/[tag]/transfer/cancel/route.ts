// POST /v1/identity/{tag}/transfer/cancel — the UNSIGNED cancel_transfer transaction for the owner to sign (issue 12)
import { corsPreflight } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { lifecycleRoute } from '@/lib/lifecycle/route';
import { FeePayerOnlyRequest } from '@/lib/lifecycle/schemas';

export const POST = lifecycleRoute(FeePayerOnlyRequest, () => ({ kind: 'cancel_transfer' }));

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
