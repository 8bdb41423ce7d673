import { describe, expect, it } from 'vitest';
import { ownApp } from '../support/app';
import { newKeypair } from '../support/keypair';
import { callServerAction, nextAuthSignIn } from './web-session';
import { rateLimitsSetting } from '@/devstack/rate-limits';

/*
 * One rate-limit entry point for /v1, next-auth and the server actions: the pages'
 * sign-in shares SPEC 8's auth budget with /v1/auth/challenge and verify, and the register
 * page's action shares POST /v1/register's. Direct mode (npm start's default), a database of
 * its own, and client-chosen X-Forwarded-For values that change nothing.
 */

const AUTH_LIMIT = 4;
const REGISTER_LIMIT = 3;
const app = ownApp({
  RATE_LIMITS: rateLimitsSetting({ auth: { limit: AUTH_LIMIT, windowSeconds: 3600 }, register: REGISTER_LIMIT }),
});

let spoof = 0;
const spoofed = () => ({ 'x-forwarded-for': `203.0.113.${++spoof}` });

async function challenge(pubkey: string): Promise<{ status: number; message?: string }> {
  const res = await fetch(`${app().url}/v1/auth/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...spoofed() },
    body: JSON.stringify({ pubkey }),
  });
  const body = (await res.json()) as { message?: string };
  return { status: res.status, message: body.message };
}

describe('next-auth, /v1 and the register action share their limits', () => {
  let session: Map<string, string>;

  it('a next-auth sign-in spends the auth budget that /v1 challenges spend, and is refused past it', async () => {
    const kp = newKeypair();
    const first = await challenge(kp.publicKey); // 1
    expect(first.status).toBe(200);
    const signedIn = await nextAuthSignIn(app().url, kp, first.message!, new Map(), spoofed()); // 2
    expect(signedIn.url).not.toContain('error=');
    session = signedIn.jar;
    const third = await challenge(kp.publicKey); // 3
    const fourth = await challenge(kp.publicKey); // 4
    expect([third.status, fourth.status]).toEqual([200, 200]);
    expect((await challenge(kp.publicKey)).status).toBe(429);
    const refused = await nextAuthSignIn(app().url, kp, fourth.message!, new Map(), spoofed());
    expect(refused.url).toContain('error=RateLimited');
  });

  it('the register action spends the budget POST /v1/register spends, and answers rate_limited past it', async () => {
    // Unauthenticated /v1/register calls are counted before the token is checked.
    for (let i = 0; i < REGISTER_LIMIT; i++) {
      const res = await fetch(`${app().url}/v1/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...spoofed() },
        body: JSON.stringify({ tag: 'sharedlimit' }),
      });
      expect(res.status).toBe(401);
    }
    const action = await callServerAction(
      app().url,
      '/register',
      'buildRegistration',
      [{ tag: 'sharedlimit' }],
      session,
      { headers: spoofed() },
    );
    expect(action.status).toBe(200);
    expect(action.text).toContain(
      '{"ok":false,"error":{"code":"rate_limited","message":"Too many requests; try again later."}}',
    );
  });
});
