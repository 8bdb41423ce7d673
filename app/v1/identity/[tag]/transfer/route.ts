// GET /v1/identity/{tag}/transfer — { tag, owner, pendingOwner } (public); POST — { newOwner } → the UNSIGNED offer_transfer transaction (issue 12)
import { conditionalJson } from '@/lib/api/conditional';
import { routeMethods } from '@/lib/api/methods';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from '@/lib/api/cors';
import { withApi } from '@/lib/api/handler';
import { parseTagParam } from '@/lib/identity/get-identity';
import { atIndexedSlot } from '@/lib/indexer/indexed-slot';
import { lifecycleRoute } from '@/lib/lifecycle/route';
import { OfferTransferRequest } from '@/lib/lifecycle/schemas';
import { getTransferState } from '@/lib/lifecycle/transfer-state';

type TagRoute = { tag: string };

export const GET = withCors(
  withApi<TagRoute>(async (req, { params, services: { db } }) => {
    const tag = parseTagParam(params.tag);
    return atIndexedSlot(db, async () => conditionalJson(req, await getTransferState(db, tag), { cacheControl: PUBLIC_READ_CACHE_CONTROL }));
  }),
);

export const POST = lifecycleRoute(OfferTransferRequest, ({ newOwner }) => ({ kind: 'offer_transfer', newOwner }));

export const OPTIONS = corsPreflight(['GET', 'POST']);

export const { PUT, PATCH, DELETE } = routeMethods({ GET, POST, OPTIONS });
