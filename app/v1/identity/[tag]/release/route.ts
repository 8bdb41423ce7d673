// POST /v1/identity/{tag}/release — { receiver? } → the UNSIGNED release_tag transaction for the owner to sign
import { v1Route } from '@/lib/http/v1-route';
import { lifecycleOperation, NOT_THE_OWNER } from '@/lib/http/lifecycle-route';
import { ReleaseRequest } from '@/lib/features/lifecycle/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/release', {
  POST: lifecycleOperation(
    {
      operationId: 'releaseTag',
      summary: 'Build an unsigned release_tag transaction (give the tag up)',
      checks:
        'the caller must be the owner (403). The record is closed, its rent goes to `receiver` (default: the owner), the ' +
        'identity is deleted and the tag can be registered again, as a new identity.',
      errors: { 403: NOT_THE_OWNER },
    },
    ReleaseRequest,
    ({ receiver }) => ({ kind: 'release_tag', receiver }),
  ),
});
