// POST /v1/auth/verify — signed challenge → session JWT (SPEC 4.2)
import { corsPreflight, withCors } from '@/lib/api/cors';
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
      (s) => s.config.authRateLimit,
      async (req, { services: { db, config, tokenKeys }, countRequest }) => {
        const attempt = parseWith(VerifyRequest, await readJson(req, 8192));
        const now = new Date();
        const allowed = [config.authDomain, ...config.extraAuthDomains];
        const signedIn = await verifySignIn(db, attempt, allowed, now, countRequest);
        return json({ token: await issueSessionToken(tokenKeys, signedIn, now) });
      },
      { fused: true },
    ),
  ),
);

export const OPTIONS = corsPreflight(['POST']);
