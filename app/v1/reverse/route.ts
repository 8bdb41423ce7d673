// POST /v1/reverse — up to 100 addresses → `{ results: { <address>: "@tag" | null } }`
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi } from '@/lib/api/handler';
import { readJson } from '@/lib/api/read-json';
import { parseBatch } from '@/lib/integrations/parse-batch';
import { indexedSlotHeaders } from '@/lib/indexer/indexed-slot';
import { reverseLookupMany } from '@/lib/integrations/reverse-lookup';
import { ReverseBatchRequest } from '@/lib/integrations/schemas';

export const POST = withCors(
  withApi(async (req, { services: { db } }) => {
    const { addresses } = parseBatch(ReverseBatchRequest, await readJson(req));
    const { value, indexedSlot } = await reverseLookupMany(db, addresses);
    return json({ results: value }, { headers: indexedSlotHeaders(indexedSlot) });
  }),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
