// POST /v1/auth/challenge — public key → single-use sign-in message (SPEC 4.1)
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { withApi, withRateLimit, json } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { issueChallenge, signInDomain } from '@/lib/auth/issue-challenge';
import { ChallengeRequest } from '@/lib/auth/schemas';

export const POST = withCors(
  withApi(
    withRateLimit(
      'auth',
      async (req, { services: { authDb, config }, countRequest }) => {
        const body = parseWith(ChallengeRequest, await readJson(req, 4096));
        const domain = signInDomain(req.headers.get('origin'), config.authDomain, config.extraAuthDomains);
        return json(await issueChallenge(authDb, { pubkey: body.pubkey, domain }, countRequest));
      },
      { fused: true },
    ),
  ),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
