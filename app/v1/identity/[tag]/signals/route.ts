// GET /v1/identity/{tag}/signals — what a payer weighs before paying: dates of the owner and wallet, flags, look-alikes, warnings
import { conditionalJson } from '@/lib/api/conditional';
import { routeMethods } from '@/lib/api/methods';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from '@/lib/api/cors';
import { withApi } from '@/lib/api/handler';
import { getSignalsAtSlot } from '@/lib/identity/signals';
import { indexedSlotHeaders } from '@/lib/indexer/indexed-slot';

type TagRoute = { tag: string };

export const GET = withCors(
  withApi<TagRoute>(async (req, { params, services: { db, config } }) => {
    const { value, indexedSlot } = await getSignalsAtSlot(db, params.tag, {
      now: new Date(),
      walletChangeWarningMs: config.walletChangeWarningMs,
    });
    return conditionalJson(req, value, { cacheControl: PUBLIC_READ_CACHE_CONTROL, headers: indexedSlotHeaders(indexedSlot) });
  }),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
