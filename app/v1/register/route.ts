// POST /v1/register — tag → the UNSIGNED register_tag transaction to sign and submit (SPEC 4.5)
import { BRIEFLY_UNREACHABLE, ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { buildRegisterTransaction } from '@/lib/features/registry/build-register-transaction';
import { RegisterRequest, RegisterResponse } from '@/lib/features/registry/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/register', {
  POST: v1Operation({
    operationId: 'registerTag',
    tags: ['register'],
    summary: 'Build an unsigned register_tag transaction',
    description:
      "The owner is the token's public key, never the body. The service never signs, submits or writes the mirror; " +
      'the identity appears once the indexer sees the transaction on chain.',
    rateLimit: 'register',
    bearer: true,
    body: { schema: RegisterRequest, maxBytes: 4096 },
    responses: { 200: ok('The unsigned transaction to sign and submit', RegisterResponse) },
    errors: {
      400: 'Malformed body, tag or key; or `unsafe_payout`: SOL sent to the `wallet` would be lost (`reason`: `off_curve`, `token_account`, `mint`, `program`, `not_system_owned`)',
      409: 'Tag taken, reserved or blocked (`conflict`), a look-alike of a verified or merchant tag (`lookalike`, naming it in `tag`), or released and resting (`quarantined`, with `until`; its previous owner may register it)',
      503: BRIEFLY_UNREACHABLE,
    },
    handler: async (_req, { body: request, caller, services }) =>
      buildRegisterTransaction(services, { owner: caller, request }),
  }),
});
