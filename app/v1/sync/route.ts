// POST /v1/sync — index one landed transaction of the program now, read from the chain (DESIGN "Indexer")
import { json } from '@/lib/http/handler';
import { BRIEFLY_UNREACHABLE, ok, RetryAfterHeader } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getChain } from '@/lib/chain/rpc';
import { Identity } from '@/lib/features/identity/schemas';
import { syncTransaction } from '@/lib/features/indexer/sync-signature';
import { SyncPending, SyncRequest } from '@/lib/features/registry/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/sync', {
  POST: v1Operation({
    operationId: 'syncRegistration',
    tags: ['register'],
    summary: 'Index one transaction of the program now',
    description:
      'Reads the transaction from the chain (the caller is not trusted) and, once it is finalized, makes the mirror match the ' +
      'tag records it touched: a registration, a wallet change, an offer, its cancel or accept, a release. Answers as ' +
      'GET /v1/identity would now for the first record it touched.',
    rateLimit: 'sync',
    body: { schema: SyncRequest, maxBytes: 1024 },
    responses: {
      200: ok('The identity, now mirrored', Identity),
      202: ok('Seen but not finalized yet; call again', SyncPending, RetryAfterHeader),
    },
    errors: {
      400: 'Malformed body or signature',
      404: 'The cluster knows no transaction with this signature (yet: try again), or the tag is blocked or released',
      422: 'Not a successful transaction of this program (failed, or no instruction of it)',
      503: BRIEFLY_UNREACHABLE,
    },
    handler: async (_req, { body: { signature }, services: { db, config } }) => {
      const { rpc, programAddress } = getChain(config);
      const result = await syncTransaction({ db, rpc, programAddress, signature, now: new Date() });
      if (result.status === 'pending')
        return json({ status: 'pending' }, { status: 202, headers: { 'Retry-After': '1' } });
      return result.identity;
    },
  }),
});
