// PUT /v1/primary — the caller chooses its primary tag (what reverse lookups answer), or null for the default
import { ANOTHER_KEYS_TAG, MISSING_OR_BLOCKED, ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getChain } from '@/lib/chain/rpc';
import { ownerOnChain } from '@/lib/features/identity/owner-on-chain';
import { setPrimaryTag } from '@/lib/features/integrations/primary-tag';
import { PrimaryTag, PrimaryTagRequest } from '@/lib/features/integrations/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/primary', {
  PUT: v1Operation({
    operationId: 'setPrimaryTag',
    tags: ['integrators'],
    summary: 'Choose the caller’s primary tag (what reverse lookups of its address answer)',
    description:
      'The tag must be one of the caller’s active tags; `null` goes back to the default, its oldest active tag. The choice ' +
      'counts only while the caller still owns the tag and it is live: after a transfer, release or block, the default answers again. ' +
      'Checks, in order: token (401), body and tag (400), a missing or blocked tag (404), another key’s tag (403).',
    rateLimit: 'primary',
    bearer: true,
    body: { schema: PrimaryTagRequest, maxBytes: 1024 },
    responses: { 200: ok('The caller’s primary tag now', PrimaryTag) },
    errors: { 400: 'Malformed body or tag', 403: ANOTHER_KEYS_TAG, 404: MISSING_OR_BLOCKED },
    handler: async (_req, { body: { tag }, caller, services: { db, config } }) =>
      setPrimaryTag(db, { owner: caller, tag }, new Date(), ownerOnChain(getChain(config))),
  }),
});
