// The nonce store under concurrency, in one process, so calls really share batches (the
// HTTP tests cover the same through the built app).
import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { consumeNonce, storeNonce } from '@/lib/features/auth/nonce-store';
import { countRequest, type RequestCounter } from '@/lib/features/auth/rate-limit';
import { testCounter } from './counters';
import { stackDatabase } from '../support/database';

const database = stackDatabase();

// Windows long enough that the budget refills nothing during a test (GCRA refills continuously).
const policy = { limit: 20, windowSeconds: 3600 };
/** A counter for `key` that records the count it is given (settle never throws here). */
function counter(key: string, counts: number[]): RequestCounter {
  return testCounter({ key, policy, counts });
}
const newNonce = () => bs58.encode(randomBytes(18));
const stored = (nonce: string, now = new Date()) => ({
  nonce,
  pubkey: 'pk',
  message: `message ${nonce}`,
  issuedAt: now,
  expiresAt: new Date(now.getTime() + 60_000),
});

describe('nonce store, concurrent calls in one process', () => {
  it('30 concurrent challenges under a limit of 20: counts 1…20 once each and 21 for the ten refused, exactly the first 20 stored', async () => {
    const key = `test:${newNonce()}`;
    const counts: number[] = [];
    const nonces = Array.from({ length: 30 }, newNonce);
    await Promise.all(nonces.map((n) => storeNonce(database.db, stored(n), counter(key, counts))));
    // A refused request takes nothing from the budget (GCRA): each is one past it.
    expect([...counts].sort((a, b) => a - b)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => i + 1),
      ...Array(10).fill(21),
    ]);
    // a call's count is its place in call order, so the first 20 calls are the ones stored
    const found = await Promise.all(nonces.map((n) => consumeNonce(database.db, n, testCounter())));
    expect(found.map((f) => f !== null)).toEqual(nonces.map((_, i) => i < 20));
  });

  it('20 concurrent consumes of one nonce: exactly one gets it', async () => {
    const nonce = newNonce();
    await storeNonce(database.db, stored(nonce), testCounter());
    const results = await Promise.all(
      Array.from({ length: 20 }, () => consumeNonce(database.db, nonce, testCounter())),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(results.find((r) => r !== null)).toMatchObject({ nonce, pubkey: 'pk' });
  });

  it('consumes over the limit consume nothing: the nonce is still there afterwards', async () => {
    const key = `test:${newNonce()}`;
    const counts: number[] = [];
    for (let i = 0; i < policy.limit; i++) await countRequest(database.db, counter(key, []));
    const nonce = newNonce();
    await storeNonce(database.db, stored(nonce), testCounter());
    expect(await consumeNonce(database.db, nonce, counter(key, counts))).toBeNull();
    expect(counts).toEqual([policy.limit + 1]);
    expect(await consumeNonce(database.db, nonce, testCounter())).toMatchObject({ nonce });
  });

  it('many keys, many nonces and replays at once: each nonce consumed once, each key counted exactly', async () => {
    const keys = Array.from({ length: 5 }, () => `test:${newNonce()}`);
    const nonces = Array.from({ length: 40 }, newNonce);
    await Promise.all(nonces.map((n) => storeNonce(database.db, stored(n), testCounter())));
    const counts = new Map(keys.map((k) => [k, [] as number[]]));
    // every nonce tried three times, spread over the keys, all at once
    const attempts = [...nonces, ...nonces, ...nonces].map((n, i) => {
      const key = keys[i % keys.length];
      return consumeNonce(
        database.db,
        n,
        testCounter({ key, policy: { limit: 1000, windowSeconds: 86_400 }, counts: counts.get(key)! }),
      );
    });
    const results = await Promise.all(attempts);
    for (const n of nonces) expect(results.filter((r) => r?.nonce === n)).toHaveLength(1);
    for (const k of keys)
      expect([...counts.get(k)!].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });
});
