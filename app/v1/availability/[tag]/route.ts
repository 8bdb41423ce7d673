// GET /v1/availability/{tag} — can this tag be registered right now? (the register page's live check)
import { json } from '@/lib/http/handler';
import { BRIEFLY_UNREACHABLE, ok, tagPath } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getChain } from '@/lib/chain/rpc';
import { atIndexedSlot } from '@/lib/db/indexed-slot';
import { getTagAvailability } from '@/lib/features/registry/availability';
import { TagAvailability } from '@/lib/features/registry/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/availability/{tag}', {
  GET: v1Operation({
    operationId: 'getTagAvailability',
    tags: ['register'],
    summary: 'Whether a tag can be registered right now',
    description: 'Advisory: the chain decides, and two people can race for the same tag. A malformed tag is a 200 with `reason: invalid`.',
    rateLimit: 'availability',
    requestParams: tagPath,
    responses: { 200: ok('Availability of the tag', TagAvailability) },
    errors: { 503: BRIEFLY_UNREACHABLE },
    handler: async (_req, { params: { tag }, services: { db, config } }) => {
      const { connection, programId } = getChain(config);
      return atIndexedSlot(db, async () => json(await getTagAvailability({ db, connection, programId, tagInput: tag })));
    },
  }),
});
