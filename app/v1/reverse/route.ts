// POST /v1/reverse — up to 100 addresses → `{ results: { <address>: "@tag" | null } }`
import { json } from '@/lib/http/handler';
import { ok, OVERLOADED_OR_UNAVAILABLE } from '@/lib/http/docs';
import { withHeavyWork } from '@/lib/http/heavy-work';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { indexedSlotHeaders } from '@/lib/http/indexed-slot';
import { parseBatch } from '@/lib/features/integrations/parse-batch';
import { reverseLookupMany } from '@/lib/features/integrations/reverse-lookup';
import { ReverseBatchRequest, ReverseBatchResponse } from '@/lib/features/integrations/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/reverse', {
  POST: v1Operation({
    operationId: 'reverseLookupBatch',
    tags: ['integrators'],
    summary: 'Up to 100 addresses → their tags',
    description: 'Each address answered as GET /v1/reverse/{address} answers it, or null; a duplicate answers once.',
    heavy: 'reverse batch',
    rateLimit: 'batch',
    body: { schema: ReverseBatchRequest, parse: parseBatch },
    responses: { 200: ok('Each address → `@tag` or null', ReverseBatchResponse) },
    errors: {
      400: 'Malformed body, more than 100 addresses, or a malformed address (named in the message)',
      503: OVERLOADED_OR_UNAVAILABLE,
    },
    handler: async (_req, { body: { addresses }, services: { db, config } }) => {
      const { value, indexedSlot } = await withHeavyWork('reverse batch', config.heavyWork, () =>
        reverseLookupMany(db, addresses),
      );
      return json({ results: value }, { headers: indexedSlotHeaders(indexedSlot) });
    },
  }),
});
