import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { countRequest, pruneRateLimits, type RateLimitPolicy } from '@/lib/features/auth/rate-limit';
import { rateLimits } from '@/lib/db/schema';
import { ownDatabase } from '../support/database';
import { testCounter } from './counters';

/*
 * The rate limit's window (one that does not double at its boundary) and
 * its rows' lifetime, on the statements the routes run, with the clock given.
 */

const database = ownDatabase({ poolSize: 2 });

const POLICY: RateLimitPolicy = { limit: 30, windowSeconds: 60 };
const newKey = () => `test:${randomBytes(8).toString('hex')}`;

/** Counts `n` requests of `key` at `at`, one after the other; answers how many were allowed. */
async function burst(key: string, n: number, at: Date): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < n; i++) {
    const counts: number[] = [];
    await countRequest(database.db, testCounter({ key, policy: POLICY, at, counts }));
    if (counts[0]! <= POLICY.limit) allowed += 1;
  }
  return allowed;
}

describe('GCRA: no boundary to straddle', () => {
  it('30 requests just before a minute turns and 30 just after are not all accepted (a fixed window took all 60)', async () => {
    const boundary = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    const key = newKey();
    const before = await burst(key, 30, new Date(boundary - 500));
    const after = await burst(key, 30, new Date(boundary + 500));
    expect(before).toBe(30);
    // One second at 30 a minute earns half a request: none of the second 30 get through.
    expect(after).toBe(0);
    expect(before + after).toBeLessThan(60);
  });

  it('after the burst, the sustained rate: one request per window / limit (2 s here)', async () => {
    const t0 = Date.now();
    const key = newKey();
    expect(await burst(key, 31, new Date(t0))).toBe(30);
    expect(await burst(key, 2, new Date(t0 + 1_900))).toBe(0);
    expect(await burst(key, 2, new Date(t0 + 2_100))).toBe(1);
    expect(await burst(key, 3, new Date(t0 + 6_200))).toBe(2);
  });

  it('refused requests take nothing: a client that keeps knocking still gets the sustained rate', async () => {
    const t0 = Date.now();
    const key = newKey();
    await burst(key, 30, new Date(t0));
    let allowed = 0;
    // Five knocks a second for 20.5 s: one request per 2 s earned, so 10 of 105.
    for (let s = 0; s <= 20; s++) allowed += await burst(key, 5, new Date(t0 + s * 1000 + 500));
    expect(allowed).toBe(10);
  });
});

describe('rows are pruned once they say nothing', () => {
  it('a row whose bucket is full again (its tat passed) is deleted by the next prune; a live one stays', async () => {
    const t0 = new Date();
    const done = newKey();
    const live = newKey();
    await burst(done, 3, t0); // full again 6 s later
    await burst(live, 3, new Date(t0.getTime() + 60_000));
    await pruneRateLimits(database.db, new Date(t0.getTime() + 7_000));
    expect(await database.db.select().from(rateLimits).where(eq(rateLimits.key, done))).toEqual([]);
    expect(await database.db.select().from(rateLimits).where(eq(rateLimits.key, live))).toHaveLength(1);
  });

  it('at the longest, a row lives one window after its last request (a full burst): then it is pruned', async () => {
    const t0 = new Date();
    const key = newKey();
    await burst(key, 40, t0);
    const [row] = await database.db.select().from(rateLimits).where(eq(rateLimits.key, key));
    expect(row!.tat.getTime() - t0.getTime()).toBeLessThanOrEqual(POLICY.windowSeconds * 1000);
    await pruneRateLimits(database.db, new Date(t0.getTime() + POLICY.windowSeconds * 1000 + 1));
    expect(await database.db.select().from(rateLimits).where(eq(rateLimits.key, key))).toEqual([]);
  });
});
