// GET /v1/identity/{tag}/transfer — { tag, owner, pendingOwner } (public); POST — { newOwner } → the UNSIGNED offer_transfer transaction
import { publicTagRead } from '@/lib/http/public-tag-read';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import { lifecycleOperation } from '@/lib/http/lifecycle-route';
import { TransferState } from '@/lib/features/lifecycle/schemas';
import { getTransferStateAtSlot } from '@/lib/features/lifecycle/transfer-state';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}/transfer', {
  GET: v1Operation({
    operationId: 'getTransferState',
    tags: ['lifecycle'],
    summary: 'The owner of a tag and the key it is offered to',
    description:
      'Public and cacheable, from the mirror. `pendingOwner` is null when no offer stands. Missing and blocked: the same 404.',
    ...publicTagRead('The transfer state', TransferState, getTransferStateAtSlot),
    params: ({ tag }) => ({ tag: parseTagParam(tag) }),
  }),
  POST: lifecycleOperation('offer_transfer'),
});
