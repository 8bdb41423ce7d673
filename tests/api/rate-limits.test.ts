import { describe, expect, inject, it } from 'vitest';
import { startApp } from '@/devstack/app';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { callServerAction, nextAuthSignIn } from '../auth/web-session';
import { ownDatabase } from '../support/database';
import { newKeypair, type TestKeypair } from '../support/keypair';
import { requestChallenge, signIn } from '../support/sign-in';
import { heldInProcessApp } from '../support/in-process';
import { registeredPayee } from '../support/registered-payee';
import { rpcAt } from '../support/chain';
import { rateLimitsSetting } from '@/devstack/rate-limits';
import { RATE_LIMIT_BUCKETS } from '@/lib/core/rate-limit-buckets';

/*
 * Every write and every expensive read is rate limited (a burst from one caller or one
 * address gets 429s past the limit), at the buckets' own figures: the handlers in this process
 * (tests/support/in-process.ts) with no RATE_LIMITS but the client address taken from
 * X-Forwarded-For, so that each case is a client of its own. The settings form runs only inside
 * Next.js: its test starts a server of its own.
 */

const PROFILE_PER_KEY = RATE_LIMIT_BUCKETS.profileKey.limit;
const PROFILE_PER_ADDRESS = RATE_LIMIT_BUCKETS.profile.limit;
const FEED_PER_ADDRESS = RATE_LIMIT_BUCKETS.feed.limit;
const BATCH_PER_ADDRESS = RATE_LIMIT_BUCKETS.batch.limit;
const ACTION_PER_ADDRESS = RATE_LIMIT_BUCKETS.action.limit;

const database = ownDatabase();
const app = heldInProcessApp(
  // Bursts of ten batches at once: above the default bound on heavy work, which tests/api/load-shedding.test.ts covers.
  { HEAVY_WORK_CONCURRENCY: '32' },
  { database },
);

let addresses = 0;
/** A client address of its own (as the one proxy in front would append it). */
const newAddress = () => `198.51.100.${++addresses}`;

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function send(path: string, init: RequestInit & { address: string }): Promise<Answer> {
  const res = await fetch(`${app().url}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': init.address,
      ...(init.headers as Record<string, string>),
    },
  });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

/** `count` requests, ten at a time, answers in the order sent; and how long the burst took. */
async function burst(
  count: number,
  one: (i: number) => Promise<Answer>,
): Promise<{ answers: Answer[]; seconds: number }> {
  const started = Date.now();
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += 10) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => one(i + j)))));
  }
  return { answers, seconds: (Date.now() - started) / 1000 };
}

const RATE_LIMITED = { error: { code: 'rate_limited', message: 'Too many requests; try again later.' } };

/**
 * The first `limit` requests pass; past them only what the sustained rate (`limit` a minute)
 * earned during the burst; every refusal is the 429 envelope with Retry-After and the policy.
 */
function expectLimited(
  { answers, seconds }: { answers: Answer[]; seconds: number },
  limit: number,
  envelope: unknown = RATE_LIMITED,
  refusedBy: number[] = [limit],
): void {
  expect(answers.slice(0, limit).map((a) => a.status)).toEqual(Array(limit).fill(200));
  const passed = answers.filter((a) => a.status === 200).length;
  expect(passed).toBeLessThanOrEqual(limit + Math.ceil((seconds * limit) / 60) + 1);
  const refused = answers.filter((a) => a.status !== 200);
  expect(refused.length).toBe(answers.length - passed);
  for (const answer of refused) {
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual(envelope);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    const policy = Number(answer.headers.get('ratelimit-limit'));
    expect(refusedBy).toContain(policy);
    expect(answer.headers.get('ratelimit-remaining')).toBe('0');
    expect(answer.headers.get('ratelimit-policy')).toBe(`${policy};w=60`);
  }
}

async function ownedTag(owner: TestKeypair): Promise<string> {
  const row = await insertIdentity(database.db, { owner: owner.publicKey });
  return row.tag;
}

describe('PATCH /v1/identity/{tag}', () => {
  it('200 PATCHes in a burst by one key from one address: 429 past the per-key limit', async () => {
    const { token, keypair } = await signIn(app().url);
    const tag = await ownedTag(keypair);
    const address = newAddress();
    const result = await burst(200, (i) =>
      send(`/v1/identity/${tag}`, {
        method: 'PATCH',
        address,
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ bio: `edit ${i}` }),
      }),
    );
    // past the per-key limit every PATCH is refused; past the per-address one, by that limit
    expectLimited(result, PROFILE_PER_KEY, RATE_LIMITED, [PROFILE_PER_KEY, PROFILE_PER_ADDRESS]);
    expect(
      result.answers.slice(PROFILE_PER_KEY + 5, PROFILE_PER_ADDRESS - 5).map((a) => a.headers.get('ratelimit-limit')),
    ).toEqual(Array(PROFILE_PER_ADDRESS - PROFILE_PER_KEY - 10).fill(String(PROFILE_PER_KEY)));
    // (the address's own budget refills at 2 a second meanwhile, so not every one past it)
    expect(
      result.answers
        .slice(PROFILE_PER_ADDRESS)
        .some((a) => a.headers.get('ratelimit-limit') === String(PROFILE_PER_ADDRESS)),
    ).toBe(true);
  });

  it('one key from many addresses has one budget', async () => {
    const { token, keypair } = await signIn(app().url);
    const tag = await ownedTag(keypair);
    const result = await burst(PROFILE_PER_KEY + 10, (i) =>
      send(`/v1/identity/${tag}`, {
        method: 'PATCH',
        address: newAddress(),
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ bio: `edit ${i}` }),
      }),
    );
    expectLimited(result, PROFILE_PER_KEY);
  });

  it('many keys from one address: 429 past the per-address limit', async () => {
    const callers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const { token, keypair } = await signIn(app().url);
        return { token, tag: await ownedTag(keypair) };
      }),
    );
    const address = newAddress();
    // 6 keys × 25 edits: each key within its own limit, the address past its own
    const result = await burst(150, (i) => {
      const { token, tag } = callers[i % callers.length]!;
      return send(`/v1/identity/${tag}`, {
        method: 'PATCH',
        address,
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ bio: `edit ${i}` }),
      });
    });
    expectLimited(result, PROFILE_PER_ADDRESS);
  });

  it('the settings form spends the same per-key budget', async () => {
    // an app whose key budget refills slowly (2 a minute: one every 30 s), so no refill lands in between
    const slow = await startApp({
      DATABASE_URL: database.url,
      SOLANA_RPC_URL: inject('rpcUrl'),
      CLIENT_ADDRESS_SOURCE: 'proxy',
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMITS: rateLimitsSetting({ profileKey: 2 }),
    });
    try {
      const kp = newKeypair();
      const { token } = await signIn(slow.url, kp);
      const tag = await ownedTag(kp);
      const jar = (
        await nextAuthSignIn(slow.url, kp, await requestChallenge(slow.url, kp), new Map(), {
          'x-forwarded-for': newAddress(),
        })
      ).jar;
      const patchOnce = async () =>
        (
          await fetch(`${slow.url}/v1/identity/${tag}`, {
            method: 'PATCH',
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': newAddress(),
              authorization: `Bearer ${token}`,
            },
            body: JSON.stringify({ bio: 'from the API' }),
          })
        ).status;
      expect([await patchOnce(), await patchOnce(), await patchOnce()]).toEqual([200, 200, 429]);
      const action = await callServerAction(
        slow.url,
        '/settings',
        'saveProfile',
        [tag, { bio: 'from the form' }],
        jar,
        { headers: { 'x-forwarded-for': newAddress() } },
      );
      expect(action.status).toBe(200);
      expect(action.text).toContain(
        '{"ok":false,"error":{"code":"rate_limited","message":"Too many requests; try again later."}}',
      );
    } finally {
      await slow.stop();
    }
  });
});

describe('reads that cost', () => {
  it('GET /v1/events: 429 past the per-address limit', async () => {
    const address = newAddress();
    expectLimited(await burst(200, () => send('/v1/events?limit=1000', { address })), FEED_PER_ADDRESS);
  });

  it('POST /v1/resolve and POST /v1/reverse share one per-address budget', async () => {
    const address = newAddress();
    const result = await burst(200, (i) =>
      i % 2 === 0
        ? send('/v1/resolve', {
            method: 'POST',
            address,
            body: JSON.stringify({ tags: Array.from({ length: 100 }, () => randomTag()) }),
          })
        : send('/v1/reverse', {
            method: 'POST',
            address,
            body: JSON.stringify({ addresses: [newKeypair().publicKey] }),
          }),
    );
    expectLimited(result, BATCH_PER_ADDRESS);
  });
});

describe('POST /api/actions/pay/{tag}', () => {
  it('429 past the per-address limit, with the Action’s headers and `message`', async () => {
    // Registered on the localnet: the Action reads the tag's record there before it builds.
    const { row } = await registeredPayee(database.db, rpcAt(inject('rpcUrl')));
    const address = newAddress();
    const account = newKeypair().publicKey;
    const result = await burst(80, () =>
      send(`/api/actions/pay/${row.tag}?amount=0.1`, { method: 'POST', address, body: JSON.stringify({ account }) }),
    );
    expectLimited(result, ACTION_PER_ADDRESS, { message: RATE_LIMITED.error.message, ...RATE_LIMITED });
    const refused = result.answers.at(-1)!;
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('x-action-version')).toBe('2.4');
    expect(refused.headers.get('x-blockchain-ids')).toMatch(/^solana:/);
  });
});
