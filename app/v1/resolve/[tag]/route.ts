// GET /v1/resolve/{tag} — tag → owner and payout wallet, the identity without `bio` (DESIGN.md "Identity")
import { publicReadAtSlot } from '@/lib/http/conditional';
import { tagReadDocs } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { resolveIdentityAtSlot } from '@/lib/features/identity/get-identity';
import { ResolvedIdentity } from '@/lib/features/identity/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/resolve/{tag}', {
  GET: v1Operation({
    operationId: 'resolveIdentity',
    tags: ['identity'],
    summary: 'Resolve a tag to its owner and payout wallet',
    description: 'The identity without `bio`: the light lookup a payment flow needs. Public and cacheable.',
    ...tagReadDocs('The resolved identity', ResolvedIdentity),
    handler: async (req, { params: { tag }, services: { db } }) =>
      publicReadAtSlot(req, await resolveIdentityAtSlot(db, tag)),
  }),
});
