import { describe, expect, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { ownDatabase } from '../support/database';
import { heldInProcessApp } from '../support/in-process';
import { rateLimitsSetting } from '@/devstack/rate-limits';

/*
 * GET /api/avatar/{tag} fetches the image from the avatar's host on every request, so it is
 * rate limited per client address like /v1 (the `avatar` bucket): past the limit, 429 before
 * any fetch. A database of its own, so that the budget is this test's alone; the route's
 * handlers run in this process (tests/support/in-process.ts).
 */

// Four requests: the placeholder test spends one, the 404 test three; the fifth is refused.
const LIMIT = 4;
const database = ownDatabase();
const app = heldInProcessApp({ RATE_LIMITS: rateLimitsSetting({ avatar: LIMIT }) }, { database });

describe('GET /api/avatar/{tag}', () => {
  it('answers a placeholder image, kept briefly, when the avatar host cannot be reached', async () => {
    // A loopback host: the avatar rules refuse it as they refuse a host that is down.
    const { tag } = await insertIdentity(database.db, { avatar: 'https://127.0.0.1:1/me.png' });
    const res = await fetch(`${app().url}/api/avatar/${tag}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await res.text()).toMatch(/^<svg /);
  });

  it("answers 404 for a tag without an avatar, in any path spelling, and 429 past the avatar bucket's limit", async () => {
    const statuses: number[] = [];
    for (const path of ['nobody', '@nobody', '%40nobody']) {
      const res = await fetch(`${app().url}/api/avatar/${path}`);
      expect(res.headers.get('ratelimit-policy')).toBe(`${LIMIT};w=60`);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([404, 404, 404]);
    const refused = await fetch(`${app().url}/api/avatar/nobody`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});
