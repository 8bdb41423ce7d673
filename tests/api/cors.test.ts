import { describe, expect, it } from 'vitest';
import { appUrl } from '@/tests/identity/helpers';

const ORIGIN = 'https://some-wallet.example';

/** Routes that answer CORS preflights, and the methods each allows. */
const PREFLIGHTS: Record<string, string[]> = {
  '/v1/identity/alice': ['GET', 'PATCH'],
  '/v1/resolve/alice': ['GET'],
  '/v1/auth/challenge': ['POST'],
  '/v1/auth/verify': ['POST'],
  '/v1/auth/session': ['GET'],
  '/v1/openapi.json': ['GET'],
};

describe('CORS', () => {
  for (const [path, methods] of Object.entries(PREFLIGHTS)) {
    for (const method of methods) {
      it(`preflight ${method} ${path} allows Authorization and Content-Type`, async () => {
        const res = await fetch(`${appUrl}${path}`, {
          method: 'OPTIONS',
          headers: {
            origin: ORIGIN,
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-methods')?.split(', ')).toContain(method);
        expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-None-Match');
        expect(res.headers.get('access-control-max-age')).toBe('86400');
        expect(await res.text()).toBe('');
      });
    }
  }

  const ANSWERS: Record<string, RequestInit & { path: string }> = {
    'GET identity 404': { path: '/v1/identity/nobody_here' },
    'GET resolve 400': { path: '/v1/resolve/a' },
    'PATCH identity 401': { path: '/v1/identity/alice', method: 'PATCH', body: '{}' },
    'GET session 401': { path: '/v1/auth/session' },
    'POST challenge 400': {
      path: '/v1/auth/challenge',
      method: 'POST',
      body: '{}',
      headers: { 'x-forwarded-for': '10.250.0.1' },
    },
  };
  for (const [name, { path, ...init }] of Object.entries(ANSWERS)) {
    it(`${name} carries the CORS headers, errors included`, async () => {
      const res = await fetch(`${appUrl}${path}`, {
        ...init,
        headers: { origin: ORIGIN, ...(init.headers as object) },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    });
  }
});
