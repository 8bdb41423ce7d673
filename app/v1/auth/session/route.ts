// GET /v1/auth/session — the bearer token's public key and expiry (is my token still good?)
import { decodeJwt } from 'jose';
import { routeMethods } from '@/lib/api/methods';
import { corsPreflight, withCors } from '@/lib/api/cors';
import { withApi, withBearer, json } from '@/lib/api/handler';

export const GET = withCors(
  withApi(
    withBearer(async (req, { caller }) => {
      const token = req.headers.get('authorization')!.slice('Bearer '.length);
      const { exp } = decodeJwt(token);
      return json({ pubkey: caller, expiresAt: new Date((exp ?? 0) * 1000).toISOString() });
    }),
  ),
);

export const OPTIONS = corsPreflight(['GET']);

export const { POST, PUT, PATCH, DELETE } = routeMethods({ GET, OPTIONS });
