// GET /v1/availability/{tag} — can this tag be registered right now? (the register page's live check)
import { json } from '@/lib/http/handler';
import { BRIEFLY_UNREACHABLE, ok, tagPath } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getChain } from '@/lib/chain/rpc';
import { atIndexedSlot } from '@/lib/http/indexed-slot';
import { getTagAvailability } from '@/lib/features/registry/availability';
import { AvailabilityQuery, TagAvailability } from '@/lib/features/registry/schemas';
import { parseWith, queryOf } from '@/lib/http/parse';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/availability/{tag}', {
  GET: v1Operation({
    operationId: 'getTagAvailability',
    tags: ['register'],
    summary: 'Whether a tag can be registered right now',
    description:
      'Advisory: the chain decides, and two people can race for the same tag. A malformed tag is a 200 with `reason: invalid`. ' +
      'A released tag rests 30 days: `reason: quarantined` and `until`, for everyone (this check does not know the caller; POST /v1/register lets the previous owner through). ' +
      'With `wallet`, the payout wallet is checked first, as POST /v1/register checks it.',
    rateLimit: 'availability',
    requestParams: { ...tagPath, query: AvailabilityQuery },
    responses: { 200: ok('Availability of the tag', TagAvailability) },
    errors: {
      400: '`unsafe_payout`: the `wallet` given is one SOL sent to would be lost (`reason`); or a malformed `wallet`',
      503: BRIEFLY_UNREACHABLE,
    },
    handler: async (req, { params: { tag }, services: { db, config } }) => {
      const { connection, programId, rpc } = getChain(config);
      const { wallet } = parseWith(AvailabilityQuery, queryOf(req));
      return atIndexedSlot(db, async () =>
        json(await getTagAvailability({ db, connection, programId, rpc, tagInput: tag, wallet })),
      );
    },
  }),
});
