// POST /v1/auth/verify — signed challenge → session JWT (SPEC 4.2)
import { ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { VerifyRequest, VerifyResponse } from '@/lib/features/auth/schemas';
import { issueSessionToken } from '@/lib/features/auth/session-token';
import { verifySignIn } from '@/lib/features/auth/verify-sign-in';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/auth/verify', {
  POST: v1Operation({
    operationId: 'verifySignature',
    tags: ['auth'],
    summary: 'Exchange the signed message for a session token',
    description: 'Consumes the challenge whatever the outcome. Every verification failure is the same 401.',
    rateLimit: 'auth', // SPEC 8: one policy for challenge and verify
    countsRequest: true, // counted in the statement that consumes the nonce (one round trip)
    body: { schema: VerifyRequest, maxBytes: 8192 },
    responses: { 200: ok('A session JWT (HS256, one hour)', VerifyResponse) },
    errors: {
      401: 'Sign-in failed (malformed message, key mismatch, expired, nonce used, bad signature: indistinguishable)',
    },
    handler: async (_req, { body: attempt, countRequest, services: { authDb, config, tokenKeys } }) => {
      const allowed = [config.authDomain, ...config.extraAuthDomains];
      const signedIn = await verifySignIn(authDb, attempt, allowed, countRequest);
      return { token: await issueSessionToken(tokenKeys, signedIn, countRequest.at) };
    },
  }),
});
