// POST /v1/identity/{tag}/release — { receiver? } → the UNSIGNED release_tag transaction for the owner to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation } from '@/lib/http/lifecycle-route';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/release', {
  POST: lifecycleOperation('release_tag'),
});
