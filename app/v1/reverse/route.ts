// POST /v1/reverse — up to 100 addresses → `{ results: { <address>: "@tag" | null } }`
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withRateLimit } from '@/lib/api/handler';
import { readJson } from '@/lib/api/read-json';
import { parseBatch } from '@/lib/integrations/parse-batch';
import { reverseLookupMany } from '@/lib/integrations/reverse-lookup';
import { ReverseBatchRequest } from '@/lib/integrations/schemas';

export const POST = withCors(
  withApi(
    withRateLimit('batch', async (req, { services: { db } }) => {
      const { addresses } = parseBatch(ReverseBatchRequest, await readJson(req));
      return json({ results: await reverseLookupMany(db, addresses) });
    }),
  ),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
