// POST /v1/sync — index one landed transaction of the program now, read from the chain (DESIGN "Indexer")
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withRateLimit } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { getChain } from '@/lib/chain/rpc';
import { syncTransaction } from '@/lib/indexer/sync-signature';
import { SyncRequest } from '@/lib/registry/schemas';

export const POST = withCors(
  withApi(
    withRateLimit('sync', async (req, { services: { db, config } }) => {
      const { signature } = parseWith(SyncRequest, await readJson(req, 1024));
      const { connection, programId } = getChain(config);
      const result = await syncTransaction({ db, connection, programId, signature, now: new Date() });
      if (result.status === 'pending') return json({ status: 'pending' }, { status: 202, headers: { 'Retry-After': '1' } });
      return json(result.identity);
    }),
  ),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
