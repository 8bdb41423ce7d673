import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { postJson } from '../support/http';
import { newKeypair, signText } from '../support/keypair';
import { rateLimitsSetting } from '@/devstack/rate-limits';

const LIMIT = 6;
let apps: RunningApp[] = [];

beforeAll(async () => {
  // Behind one proxy, as two instances behind a load balancer: clients told apart by the
  // x-forwarded-for entry it appends.
  const env = {
    DATABASE_URL: inject('databaseUrl'),
    SOLANA_RPC_URL: inject('rpcUrl'),
    CLIENT_ADDRESS_SOURCE: 'proxy',
    TRUSTED_PROXY_HOPS: '1',
    RATE_LIMITS: rateLimitsSetting({ auth: { limit: LIMIT, windowSeconds: 60 } }),
  };
  apps = await Promise.all([startApp(env), startApp(env)]);
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop()));
});

describe('the shared auth rate limit (SPEC 8)', () => {
  it('holds across two server processes sharing one database, for challenge and verify together', async () => {
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${Date.now() % 200}` };
    const kp = newKeypair();
    const statuses: number[] = [];
    let last429: Awaited<ReturnType<typeof postJson>> | undefined;
    for (let i = 0; i < LIMIT + 4; i++) {
      const app = apps[i % 2];
      const res =
        i % 3 === 2
          ? await postJson(`${app.url}/v1/auth/verify`, { pubkey: kp.publicKey, message: 'x', signature: 'y' }, headers)
          : await postJson(`${app.url}/v1/auth/challenge`, { pubkey: kp.publicKey }, headers);
      statuses.push(res.status);
      if (res.status === 429) last429 = res;
      else expect(res.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    }
    expect(statuses.slice(0, LIMIT).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429, 429]);
    expect(last429!.json).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    const retryAfter = Number(last429!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(last429!.headers.get('ratelimit-remaining')).toBe('0');
    expect(last429!.headers.get('ratelimit-policy')).toBe(`${LIMIT};w=60`);
  });

  it('another client address keeps its own budget', async () => {
    const kp = newKeypair();
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${Date.now() % 200}` };
    const res = await postJson(`${apps[0].url}/v1/auth/challenge`, { pubkey: kp.publicKey }, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    // and sign-in completes on the other process
    const message = (res.json as { message: string }).message;
    const verify = await postJson(
      `${apps[1].url}/v1/auth/verify`,
      { pubkey: kp.publicKey, message, signature: signText(kp, message) },
      headers,
    );
    // each process's APP_URL differs (its port), so a challenge issued for one domain is refused by the other
    expect(verify.status).toBe(401);
  });
});
