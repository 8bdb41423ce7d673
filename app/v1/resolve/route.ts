// POST /v1/resolve — up to 100 tags, any spelling → `{ results: { <tag>: <resolve object> | null } }`
import { json } from '@/lib/http/handler';
import { ok, OVERLOADED_OR_UNAVAILABLE } from '@/lib/http/docs';
import { withHeavyWork } from '@/lib/http/heavy-work';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { atIndexedSlot } from '@/lib/http/indexed-slot';
import { resolveMany } from '@/lib/features/integrations/batch-resolve';
import { parseBatch } from '@/lib/features/integrations/parse-batch';
import { ResolveBatchRequest, ResolveBatchResponse } from '@/lib/features/integrations/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/resolve', {
  POST: v1Operation({
    operationId: 'resolveBatch',
    tags: ['integrators'],
    summary: 'Up to 100 tags → their resolve objects',
    description:
      'Any accepted spelling (`alice`, `@Alice`, `%40alice`); answers are keyed by the canonical tag (bare, without `@`), each ' +
      'exactly what GET /v1/resolve/{tag} answers, or null where that is a 404 (missing and blocked alike).',
    heavy: 'resolve batch',
    rateLimit: 'batch',
    body: { schema: ResolveBatchRequest, parse: (schema, value) => parseBatch(schema, value, 'invalid_tag') },
    responses: { 200: ok('Each canonical tag → its resolve object or null', ResolveBatchResponse) },
    errors: {
      400: 'Malformed body, more than 100 tags, or a malformed tag (named in the message)',
      503: OVERLOADED_OR_UNAVAILABLE,
    },
    handler: async (_req, { body: { tags }, services: { db, config } }) =>
      withHeavyWork('resolve batch', config.heavyWork, () =>
        atIndexedSlot(db, async () => json({ results: await resolveMany(db, tags) })),
      ),
  }),
});
