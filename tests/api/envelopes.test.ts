import { describe, expect, inject, it } from 'vitest';

/*
 * Unknown /v1 paths and methods answer the envelope, not Next.js's HTML 404 or
 * its empty 405 without Allow. That every /v1 route file exports every method through v1Route
 * is a lint rule (scripts/lint/house-rules.mjs, tests/layering/house-rules.test.ts).
 */

const appUrl = inject('appUrl');

describe('/v1 answers what it does not serve in the envelope', () => {
  it('PUT /v1/identity/x: 405 with Allow and the envelope', async () => {
    const res = await fetch(`${appUrl}/v1/identity/x`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PATCH, OPTIONS');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      error: { code: 'method_not_allowed', message: 'PUT is not allowed here; allowed: GET, HEAD, PATCH, OPTIONS.' },
    });
  });

  it.each([
    ['GET', '/v1/auth/challenge', 'POST, OPTIONS'],
    ['DELETE', '/v1/identity/x', 'GET, HEAD, PATCH, OPTIONS'],
    ['POST', '/v1/resolve/x', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/v1/sync', 'POST, OPTIONS'],
  ])('%s %s: 405, Allow: %s', async (method, path, allow) => {
    const res = await fetch(`${appUrl}${path}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect((await res.json()).error.code).toBe('method_not_allowed');
  });

  it.each(['/v1/identity/x', '/v1/auth/challenge', '/v1/resolve/x', '/v1/events', '/v1/openapi.json'])(
    'OPTIONS %s: Allow lists what the 405 lists (HEAD wherever GET is)',
    async (path) => {
      const preflight = await fetch(`${appUrl}${path}`, { method: 'OPTIONS' });
      const refused = await fetch(`${appUrl}${path}`, { method: 'PUT' });
      expect(preflight.status).toBe(204);
      expect(refused.status).toBe(405);
      expect(preflight.headers.get('allow')).toBe(refused.headers.get('allow'));
      expect(preflight.headers.get('access-control-allow-methods')).toBe(refused.headers.get('allow'));
    },
  );

  it.each([
    ['GET', '/v1/nope'],
    ['POST', '/v1/nope'],
    ['GET', '/v1/identity'],
    ['GET', '/v1/identity/x/y/z'],
    ['DELETE', '/v1'],
  ])('%s %s: 404 with the envelope', async (method, path) => {
    const res = await fetch(`${appUrl}${path}`, { method });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'There is no such endpoint. See /v1/openapi.json.' },
    });
  });
});
