// POST /v1/auth/verify — signed challenge → session JWT (SPEC 4.2)
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { withApi, withRateLimit, json } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { VerifyRequest } from '@/lib/auth/schemas';
import { issueSessionToken } from '@/lib/auth/session-token';
import { verifySignIn } from '@/lib/auth/verify-sign-in';

export const POST = withCors(
  withApi(
    withRateLimit(
      'auth',
      async (req, { services: { authDb, config, tokenKeys }, countRequest }) => {
        const attempt = parseWith(VerifyRequest, await readJson(req, 8192));
        const allowed = [config.authDomain, ...config.extraAuthDomains];
        const signedIn = await verifySignIn(authDb, attempt, allowed, countRequest);
        return json({ token: await issueSessionToken(tokenKeys, signedIn, countRequest.at) });
      },
      { fused: true },
    ),
  ),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
