import { describe, expect, inject, it } from 'vitest';
import { hasBearerSecret } from '@/lib/http/cron-auth';
import { TEST_CRON_SECRET } from '@/devstack/app';
import { cron } from './support';

const appUrl = inject('appUrl');

const REFUSED: Record<string, string | null> = {
  'no Authorization header': null,
  'an empty Authorization header': '',
  'Bearer with nothing after it': 'Bearer ',
  'a wrong secret of the same length': `Bearer ${'x'.repeat(TEST_CRON_SECRET.length)}`,
  'a longer secret that starts with the right one': `Bearer ${TEST_CRON_SECRET}x`,
  'a prefix of the secret': `Bearer ${TEST_CRON_SECRET.slice(0, -1)}`,
  'the secret without the Bearer scheme': TEST_CRON_SECRET,
  'another scheme': `Basic ${TEST_CRON_SECRET}`,
};

describe('GET /api/cron/indexer', () => {
  for (const [name, authorization] of Object.entries(REFUSED)) {
    it(`401 for ${name}`, async () => {
      const res = await cron(appUrl, authorization);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: { code: 'unauthorized', message: 'This route is for the scheduler only.' },
      });
    });
  }

  it('runs with the secret and answers a summary of the run', async () => {
    const res = await cron(appUrl);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      status: expect.stringMatching(/^(completed|skipped)$/),
      processed: expect.any(Number),
      indexed: expect.any(Number),
      updated: expect.any(Number),
      removed: expect.any(Number),
      skipped: expect.any(Number),
      recordedSkips: expect.any(Array),
      deferred: expect.any(Array),
      retried: expect.any(Number),
      cursor: expect.toSatisfy((c: unknown) => c === null || typeof c === 'string'),
      more: expect.any(Boolean),
      durationMs: expect.any(Number),
      prunedNonces: expect.any(Number),
      prunedRateLimits: expect.any(Number),
      prunedReferences: expect.any(Number),
      webhooks: {
        subscriptions: expect.any(Number),
        delivered: expect.any(Number),
        failed: expect.any(Number),
        disabled: expect.any(Number),
      },
      payments: {
        accounts: expect.any(Number),
        transactions: expect.any(Number),
        confirmed: expect.any(Number),
        finalized: expect.any(Number),
        rejected: expect.any(Number),
        rpcCalls: expect.any(Number),
      },
    });
  });

  it('two concurrent calls both answer 200; one may say it was skipped (the lock is held)', async () => {
    const [a, b] = await Promise.all([cron(appUrl), cron(appUrl)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const statuses = [(await a.json()).status, (await b.json()).status];
    for (const s of statuses) expect(['completed', 'skipped']).toContain(s);
  });
});

describe('hasBearerSecret (the cron secret, the metrics token)', () => {
  it.each([
    ['the right header', 'Bearer s3cret', 's3cret', true],
    ['a wrong secret', 'Bearer s3creT', 's3cret', false],
    ['no header', null, 's3cret', false],
    ['no secret configured', 'Bearer ', undefined, false],
    ['an empty secret configured', 'Bearer ', '', false],
  ])('%s', (_name, header, secret, ok) => {
    expect(hasBearerSecret(header, secret)).toBe(ok);
  });
});
