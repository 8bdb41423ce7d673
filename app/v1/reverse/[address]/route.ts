// GET /v1/reverse/{address} — address → its primary tag (or the oldest it is the payout wallet of)
import { z } from 'zod';
import { routeMethods } from '@/lib/api/methods';
import { conditionalJson } from '@/lib/api/conditional';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from '@/lib/api/cors';
import { withApi } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { getChain } from '@/lib/chain/rpc';
import { indexedSlotHeaders } from '@/lib/indexer/indexed-slot';
import { reverseLookup } from '@/lib/integrations/reverse-lookup';
import { AddressPathParam } from '@/lib/integrations/schemas';

type AddressRoute = { address: string };

const ReversePath = z.object({ address: AddressPathParam });

export const GET = withCors(
  withApi<AddressRoute>(async (req, { params, services: { db, config } }) => {
    const { address } = parseWith(ReversePath, params);
    const { value, indexedSlot } = await reverseLookup({ db, ...getChain(config) }, address);
    return conditionalJson(req, value, { cacheControl: PUBLIC_READ_CACHE_CONTROL, headers: indexedSlotHeaders(indexedSlot) });
  }),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
