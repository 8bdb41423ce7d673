// POST /v1/resolve — up to 100 tags, any spelling → `{ results: { <tag>: <resolve object> | null } }`
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi } from '@/lib/api/handler';
import { readJson } from '@/lib/api/read-json';
import { resolveMany } from '@/lib/integrations/batch-resolve';
import { atIndexedSlot } from '@/lib/indexer/indexed-slot';
import { parseBatch } from '@/lib/integrations/parse-batch';
import { ResolveBatchRequest } from '@/lib/integrations/schemas';

export const POST = withCors(
  withApi(async (req, { services: { db } }) => {
    const { tags } = parseBatch(ResolveBatchRequest, await readJson(req), 'invalid_tag');
    return atIndexedSlot(db, async () => json({ results: await resolveMany(db, tags) }));
  }),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
