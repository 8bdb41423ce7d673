import { describe, expect, it } from 'vitest';
import { rateLimitsSetting } from '@/devstack/rate-limits';
import { heldInProcessApp } from '../support/in-process';

// The /v1 handlers bound to services of the test's own and called in-process: the shape a
// configuration variant is tested in (tests/support/in-process.ts).
describe('the /v1 API in-process', () => {
  const app = heldInProcessApp({ RATE_LIMITS: rateLimitsSetting({ availability: 2 }) });

  it('answers a missing tag with the one 404 envelope, through the handlers and through the listener alike', async () => {
    for (const res of [
      await app().fetch('/v1/identity/nobody_here_xyz'),
      await fetch(`${app().url}/v1/identity/nobody_here_xyz`),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });

  it('answers an unknown /v1 path with the 404 envelope', async () => {
    const res = await app().fetch('/v1/no/such/route');
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });

  it('runs with its own configuration: its own availability budget of 2 answers the third check 429', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app().fetch('/v1/availability/free_tag_xyz', { headers })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
