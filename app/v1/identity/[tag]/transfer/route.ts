// GET /v1/identity/{tag}/transfer — { tag, owner, pendingOwner } (public); POST — { newOwner } → the UNSIGNED offer_transfer transaction
import { publicReadAtSlot } from '@/lib/http/conditional';
import { tagReadDocs } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import { lifecycleOperation, NOT_THE_OWNER } from '@/lib/http/lifecycle-route';
import { OfferTransferRequest, TransferState } from '@/lib/features/lifecycle/schemas';
import { getTransferStateAtSlot } from '@/lib/features/lifecycle/transfer-state';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/transfer', {
  GET: v1Operation({
    operationId: 'getTransferState',
    tags: ['lifecycle'],
    summary: 'The owner of a tag and the key it is offered to',
    description:
      'Public and cacheable, from the mirror. `pendingOwner` is null when no offer stands. Missing and blocked: the same 404.',
    ...tagReadDocs('The transfer state', TransferState),
    params: ({ tag }) => ({ tag: parseTagParam(tag) }),
    handler: async (req, { params: { tag }, services: { db } }) =>
      publicReadAtSlot(req, await getTransferStateAtSlot(db, tag)),
  }),
  POST: lifecycleOperation(
    {
      operationId: 'offerTransfer',
      summary: 'Build an unsigned offer_transfer transaction (offer the tag to a key)',
      checks:
        'an offer to the owner itself is refused (409), the caller must be the owner (403). A new offer replaces a standing one.',
      errors: { 409: 'The tag is offered to its own owner', 403: NOT_THE_OWNER },
    },
    OfferTransferRequest,
    ({ newOwner }) => ({ kind: 'offer_transfer', newOwner }),
  ),
});
