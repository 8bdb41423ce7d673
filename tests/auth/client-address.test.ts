import { describe, expect, it } from 'vitest';
import { clientAddress, markSocketAddressServer, SOCKET_ADDRESS_HEADER } from '@/lib/http/client-address';
import { parseConfig } from '@/lib/core/config';
import { ownApp } from '../support/app';
import { newKeypair } from '../support/keypair';
import { rateLimitsSetting } from '@/devstack/rate-limits';

/*
 * A rate limit no client can dodge: the client address comes from the deployment
 * the configuration names, never from a header the client writes. Each app has a database of
 * its own, so the budgets counted are this file's alone.
 */

const LIMIT = 30;

async function challenge(appUrl: string, headers: Record<string, string>) {
  const res = await fetch(`${appUrl}/v1/auth/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ pubkey: newKeypair().publicKey }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('direct mode, the default of npm start: the socket address, whatever the headers say', () => {
  const app = ownApp({ RATE_LIMITS: rateLimitsSetting({ auth: { limit: LIMIT, windowSeconds: 3600 } }) });

  it(`40 challenges with 40 different X-Forwarded-For and X-Real-IP values: ${LIMIT} answered, then 429`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const spoof = `203.0.113.${i + 1}`;
      const res = await challenge(app().url, {
        'x-forwarded-for': spoof,
        'x-real-ip': spoof,
        [SOCKET_ADDRESS_HEADER]: spoof,
      });
      statuses.push(res.status);
      if (res.status === 429)
        expect(res.body).toEqual({ error: { code: 'rate_limited', message: 'Too many requests; try again later.' } });
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(40 - LIMIT).fill(429)]);
  });
});

describe('behind a configured proxy: the configured hop, counted from the right', () => {
  const app = ownApp({
    CLIENT_ADDRESS_SOURCE: 'proxy',
    TRUSTED_PROXY_HOPS: '2',
    RATE_LIMITS: rateLimitsSetting({ auth: { limit: 5, windowSeconds: 3600 } }),
  });

  it('entries left of the hop are the client’s to write and change nothing; another address at the hop has its own budget', async () => {
    // Two proxies: the outer one appended 198.51.100.7 (the client it saw), the inner one 10.0.0.1.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await challenge(app().url, { 'x-forwarded-for': `192.0.2.${i}, 198.51.100.7, 10.0.0.1` })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const other = await challenge(app().url, { 'x-forwarded-for': '198.51.100.8, 10.0.0.1' });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('4');
  });

  it('a request with fewer entries than proxies did not come through them: 403 in the envelope', async () => {
    const res = await challenge(app().url, { 'x-forwarded-for': '198.51.100.9' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: { code: 'forbidden', message: 'Requests must come through the configured proxy.' },
    });
  });
});

describe('clientAddress', () => {
  const h = (headers: Record<string, string>) => new Headers(headers);
  const codeThrown = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as { code?: string }).code;
    }
    return 'nothing thrown';
  };

  it('vercel: the address Vercel’s edge sets, not x-forwarded-for', () => {
    expect(
      clientAddress(h({ 'x-vercel-forwarded-for': '203.0.113.5', 'x-forwarded-for': '1.1.1.1' }), { source: 'vercel' }),
    ).toBe('203.0.113.5');
  });

  it('vercel without its header: refused, never a fallback on a client header', () => {
    expect(
      codeThrown(() =>
        clientAddress(h({ 'x-forwarded-for': '1.1.1.1', 'x-real-ip': '1.1.1.1' }), { source: 'vercel' }),
      ),
    ).toBe('service_unavailable');
  });

  it('direct outside scripts/serve.ts: refused, since the socket header could be the client’s', () => {
    expect(codeThrown(() => clientAddress(h({ [SOCKET_ADDRESS_HEADER]: '127.0.0.1' }), { source: 'direct' }))).toBe(
      'service_unavailable',
    );
  });

  it('direct under the server: the stamped socket address, an IPv4-mapped one as IPv4', () => {
    markSocketAddressServer();
    expect(
      clientAddress(h({ [SOCKET_ADDRESS_HEADER]: '::ffff:127.0.0.1', 'x-forwarded-for': '9.9.9.9' }), {
        source: 'direct',
      }),
    ).toBe('127.0.0.1');
  });
});

describe('CLIENT_ADDRESS_SOURCE in the configuration', () => {
  it.each([
    ['direct by default', {}, { source: 'direct' }],
    ['vercel by default on Vercel', { VERCEL: '1' }, { source: 'vercel' }],
    ['proxy with its hops', { CLIENT_ADDRESS_SOURCE: 'proxy', TRUSTED_PROXY_HOPS: '2' }, { source: 'proxy', hops: 2 }],
  ])('%s', (_name, env, expected) => {
    expect(parseConfig(env as Record<string, string>).clientAddress).toEqual(expected);
  });

  it.each([
    [
      'proxy without TRUSTED_PROXY_HOPS',
      { CLIENT_ADDRESS_SOURCE: 'proxy' },
      /TRUSTED_PROXY_HOPS: required with CLIENT_ADDRESS_SOURCE=proxy/,
    ],
    [
      'TRUSTED_PROXY_HOPS without proxy',
      { TRUSTED_PROXY_HOPS: '1' },
      /TRUSTED_PROXY_HOPS: applies only with CLIENT_ADDRESS_SOURCE=proxy/,
    ],
    [
      'vercel off Vercel',
      { CLIENT_ADDRESS_SOURCE: 'vercel' },
      /CLIENT_ADDRESS_SOURCE: vercel is only for deployments on Vercel/,
    ],
  ])('refuses %s', (_name, env, message) => {
    expect(() => parseConfig(env as Record<string, string>)).toThrow(message);
  });
});
