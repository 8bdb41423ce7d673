// GET /v1/resolve/{tag} — tag → owner and payout wallet, the identity without `bio` (DESIGN.md "Identity")
import { publicTagRead } from '@/lib/http/public-tag-read';
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
    ...publicTagRead('The resolved identity', ResolvedIdentity, resolveIdentityAtSlot),
  }),
});
