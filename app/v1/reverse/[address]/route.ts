// GET /v1/reverse/{address} — address → its primary tag (or the oldest it is the payout wallet of)
import { z } from 'zod';
import { routeMethods } from '@/lib/api/methods';
import { conditionalJson } from '@/lib/api/conditional';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from '@/lib/api/cors';
import { withApi } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { reverseLookup } from '@/lib/integrations/reverse-lookup';
import { AddressPathParam } from '@/lib/integrations/schemas';

type AddressRoute = { address: string };

const ReversePath = z.object({ address: AddressPathParam });

export const GET = withCors(
  withApi<AddressRoute>(async (req, { params, services: { db } }) => {
    const { address } = parseWith(ReversePath, params);
    return conditionalJson(req, await reverseLookup(db, address), { cacheControl: PUBLIC_READ_CACHE_CONTROL });
  }),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
