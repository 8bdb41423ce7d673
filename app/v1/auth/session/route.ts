// GET /v1/auth/session — the bearer token's public key and expiry (is my token still good?)
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { PublicKeyString } from '@/lib/core/keys';

export const dynamic = 'force-dynamic';

const Session = z
  .object({
    pubkey: PublicKeyString,
    expiresAt: z.iso.datetime().meta({ description: 'When the token expires' }),
  })
  .meta({ id: 'Session' });

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/auth/session', {
  GET: v1Operation({
    operationId: 'getSession',
    tags: ['auth'],
    summary: "The bearer token's public key and expiry",
    bearer: true,
    responses: { 200: ok('The token is valid', Session) },
    handler: async (req, { caller }) => {
      const { exp } = decodeJwt(req.headers.get('authorization')!.slice('Bearer '.length));
      return { pubkey: caller, expiresAt: new Date((exp ?? 0) * 1000).toISOString() };
    },
  }),
});
