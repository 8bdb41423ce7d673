// GET /v1/resolve/{tag} — tag → owner and payout wallet, the identity without `bio` (DESIGN.md "Identity")
import { publicTagRead } from '@/lib/api/conditional';
import { v1Route } from '@/lib/api/v1-route';
import { resolveIdentity } from '@/lib/identity/get-identity';
import { ResolvedIdentity } from '@/lib/identity/schemas';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/resolve/{tag}', {
  GET: publicTagRead(
    {
      operationId: 'resolveIdentity',
      tags: ['identity'],
      summary: 'Resolve a tag to its owner and payout wallet',
      description: 'The identity without `bio`: the light lookup a payment flow needs. Public and cacheable.',
    },
    { description: 'The resolved identity', schema: ResolvedIdentity },
    resolveIdentity,
  ),
});
