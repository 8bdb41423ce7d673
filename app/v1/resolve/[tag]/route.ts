// GET /v1/resolve/{tag} — tag → owner and payout wallet, the identity without `bio` (DESIGN.md "Identity")
import { conditionalJson } from '@/lib/api/conditional';
import { routeMethods } from '@/lib/api/methods';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from '@/lib/api/cors';
import { withApi } from '@/lib/api/handler';
import { resolveIdentity } from '@/lib/identity/get-identity';

type TagRoute = { tag: string };

export const GET = withCors(
  withApi<TagRoute>(async (req, { params, services: { db } }) => {
    const { tag } = params;
    return conditionalJson(req, await resolveIdentity(db, tag), { cacheControl: PUBLIC_READ_CACHE_CONTROL });
  }),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
