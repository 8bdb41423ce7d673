// GET /v1/availability/{tag} — can this tag be registered right now? (the register page's live check)
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withRateLimit } from '@/lib/api/handler';
import { getChain } from '@/lib/chain/rpc';
import { atIndexedSlot } from '@/lib/indexer/indexed-slot';
import { getTagAvailability } from '@/lib/registry/availability';

type TagRoute = { tag: string };

export const GET = withCors(
  withApi<TagRoute>(
    withRateLimit('availability', async (_req, { params, services: { db, config } }) => {
      const { tag } = params;
      const { connection, programId } = getChain(config);
      return atIndexedSlot(db, async () => json(await getTagAvailability({ db, connection, programId, tagInput: tag })));
    }),
  ),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
