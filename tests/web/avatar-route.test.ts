import { describe, expect, it } from 'vitest';
import { ownDatabase } from '../support/database';
import { heldInProcessApp } from '../support/in-process';
import { rateLimitsSetting } from '@/devstack/rate-limits';

/*
 * GET /api/avatar/{tag} fetches the image from the avatar's host on every request, so it is
 * rate limited per client address like /v1 (the `avatar` bucket): past the limit, 429 before
 * any fetch. A database of its own, so that the budget is this test's alone; the route's
 * handlers run in this process (tests/support/in-process.ts).
 */

const LIMIT = 3;
const app = heldInProcessApp({ RATE_LIMITS: rateLimitsSetting({ avatar: LIMIT }) }, { database: ownDatabase() });

describe('GET /api/avatar/{tag}', () => {
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
