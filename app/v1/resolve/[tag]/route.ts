// GET /v1/resolve/{tag} — tag → owner and payout wallet, the identity without `bio` (DESIGN.md "Identity")
import { conditionalJson } from '@/lib/api/conditional';
import { routeMethods } from '@/lib/api/methods';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from '@/lib/api/cors';
import { withApi } from '@/lib/api/handler';
import { resolveIdentityAtSlot } from '@/lib/identity/get-identity';
import { indexedSlotHeaders } from '@/lib/indexer/indexed-slot';

type TagRoute = { tag: string };

export const GET = withCors(
  withApi<TagRoute>(async (req, { params, services: { db } }) => {
    const { tag } = params;
    const { value, indexedSlot } = await resolveIdentityAtSlot(db, tag);
    return conditionalJson(req, value, { cacheControl: PUBLIC_READ_CACHE_CONTROL, headers: indexedSlotHeaders(indexedSlot) });
  }),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
