// POST /v1/auth/challenge — public key → single-use sign-in message (SPEC 4.1)
import { ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { issueChallenge, signInDomain } from '@/lib/features/auth/issue-challenge';
import { ChallengeRequest, ChallengeResponse } from '@/lib/features/auth/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/auth/challenge', {
  POST: v1Operation({
    operationId: 'requestChallenge',
    tags: ['auth'],
    summary: 'Request a single-use sign-in message for a public key',
    rateLimit: 'auth', // SPEC 8: one policy for challenge and verify
    countsRequest: true, // counted in the statement that stores the nonce (one round trip)
    body: { schema: ChallengeRequest, maxBytes: 4096 },
    responses: { 200: ok('The message to sign', ChallengeResponse) },
    errors: { 400: 'Malformed body or public key' },
    handler: async (req, { body: { pubkey }, countRequest, services: { authDb, config } }) => {
      const domain = signInDomain(req.headers.get('origin'), config.authDomain, config.extraAuthDomains);
      return issueChallenge(authDb, { pubkey, domain }, countRequest);
    },
  }),
});
