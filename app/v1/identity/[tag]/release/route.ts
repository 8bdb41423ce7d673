// POST /v1/identity/{tag}/release — { receiver? } → the UNSIGNED release_tag transaction for the owner to sign (issue 12)
import { corsPreflight } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { lifecycleRoute } from '@/lib/lifecycle/route';
import { ReleaseRequest } from '@/lib/lifecycle/schemas';

export const POST = lifecycleRoute(ReleaseRequest, ({ receiver }) => ({ kind: 'release_tag', receiver }));

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
