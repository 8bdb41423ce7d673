import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, startBareNext, type RunningApp } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { rpcOrigins } from '@/lib/web/server/security-headers';
import { stackDatabase } from '../support/database';
import { directives, expectStrictPageHeaders } from '../support/page-headers';

/*
 * Security headers on every response, and the pages' CSP: no 'unsafe-inline' scripts. The App
 * Router's pages allow their inline scripts by a nonce fresh per view (proxy.ts); /@tag has no
 * inline script and allows 'self' only. The RPC endpoint is in connect-src.
 */

const appUrl = inject('appUrl');
const rpcUrl = inject('rpcUrl');
const database = stackDatabase({ poolSize: 1 });
let taken: string;

beforeAll(async () => {
  taken = (await insertIdentity(database.db)).tag;
});

const BASE = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

async function expectPageHeaders(url: string, rpc: string): Promise<void> {
  const res = await fetch(url, { headers: { accept: 'text/html' } });
  const html = await res.text();
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  for (const [name, value] of Object.entries(BASE)) expect(res.headers.get(name), `${name} of ${url}`).toBe(value);
  expectStrictPageHeaders({ html, headers: res.headers }, url);
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('font-src')).toEqual(["'self'"]);
  const scripts = csp.get('script-src')!;
  const inlineScript = /<script(?![^>]*\ssrc=)[^>]*>/;
  if (new URL(url).pathname.startsWith('/@')) {
    // /@tag (a profile or not): no inline script at all, and a CSP the same for every view.
    expect(scripts).toEqual(["'self'"]);
    expect(html).not.toMatch(inlineScript);
  } else if (scripts.length === 2) {
    // An App Router page: its RSC payload runs by the view's nonce (expectStrictPageHeaders checked each script has it).
    expect(scripts[1]).toMatch(/^'nonce-[A-Za-z0-9+/=]{20,}'$/);
  } else {
    expect(scripts).toEqual(["'self'"]);
    expect(html).not.toMatch(inlineScript);
  }
  for (const origin of rpcOrigins(rpc)) expect(csp.get('connect-src')).toContain(origin);
}

describe('every page carries the security headers and a strict CSP', () => {
  const pages = () => [
    '/',
    '/register',
    '/settings',
    '/profile',
    `/@${taken}`,
    '/@nobody_here',
    '/no/such/page',
    '/nosuchpage',
  ];

  it('each page', async () => {
    for (const path of pages()) await expectPageHeaders(`${appUrl}${path}`, rpcUrl);
  });

  it('a fresh nonce per view of an App Router page', async () => {
    const nonce = async () =>
      /'nonce-([^']+)'/.exec((await fetch(`${appUrl}/`)).headers.get('content-security-policy') ?? '')?.[1];
    const seen = new Set([await nonce(), await nonce(), await nonce()]);
    expect(seen.size).toBe(3);
  });

  it('RPC origins in connect-src: the endpoint and its PubSub socket', () => {
    expect(rpcOrigins('http://127.0.0.1:8899')).toEqual([
      'http://127.0.0.1:8899',
      'ws://127.0.0.1:8900',
      'ws://127.0.0.1:8899',
    ]);
    expect(rpcOrigins('https://rpc.example.org/?api-key=x')).toEqual([
      'https://rpc.example.org',
      'wss://rpc.example.org',
    ]);
  });

  it.each([
    ['/v1/identity/nobody_here'],
    ['/v1/nope'],
    ['/api/health'],
    ['/v1/openapi.json'],
    ['/v1/identity/%40nobody_here'],
  ])('%s: the base headers and a CSP that allows nothing', async (path) => {
    const res = await fetch(`${appUrl}${path}`);
    for (const [name, value] of Object.entries(BASE)) expect(res.headers.get(name)).toBe(value);
    expect(directives(res.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
    expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('no HSTS over http', async () => {
    expect((await fetch(`${appUrl}/`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('Next.js compresses, the same for every answer and every deployment shape', () => {
  // Next.js's compression is gzip (brotli is the CDN's, where there is one).
  it.each([
    ['gzip, deflate, br', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['identity', null],
  ])('Accept-Encoding %j: /@tag, /, a script and the OpenAPI document go out as %s', async (accept, expected) => {
    const page = await fetch(`${appUrl}/@${taken}`, { headers: { 'accept-encoding': accept } });
    expect(page.headers.get('content-encoding')).toBe(expected);
    expect(page.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(await page.text()).toContain(`@${taken}`); // fetch decodes what it was sent
    const home = await fetch(`${appUrl}/`, { headers: { 'accept-encoding': accept } });
    expect(home.headers.get('content-encoding')).toBe(expected);
    await home.arrayBuffer();
    // The home page has no script (lib/web/server/home-page.ts): an App Router page's.
    const register = await fetch(`${appUrl}/register`, { headers: { 'accept-encoding': accept } });
    const script = (await register.text()).match(/<script src="(\/_next\/static\/[^"]+\.js)"/)?.[1];
    expect(script, 'a script of the page').toBeDefined();
    for (const path of [script!, '/v1/openapi.json']) {
      const res = await fetch(`${appUrl}${path}`, { headers: { 'accept-encoding': accept } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-encoding'), path).toBe(expected);
      await res.arrayBuffer();
    }
  });
});

describe('APP_URL over https', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      DATABASE_URL: inject('databaseUrl'),
      SOLANA_RPC_URL: rpcUrl,
      APP_URL: 'https://tags.example',
    });
  });
  afterAll(() => app?.stop());

  it('pages carry HSTS and upgrade-insecure-requests', async () => {
    const res = await fetch(`${app.url}/`);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect(directives(res.headers.get('content-security-policy')).has('upgrade-insecure-requests')).toBe(true);
  });
});

describe('under a bare `next start` (as on Vercel): the same headers, from the same code', () => {
  let bare: RunningApp;
  beforeAll(async () => {
    bare = await startBareNext({ DATABASE_URL: inject('databaseUrl'), SOLANA_RPC_URL: rpcUrl });
  });
  afterAll(() => bare?.stop());

  it('each page', async () => {
    for (const path of ['/', '/register', `/@${taken}`, '/@nobody_here'])
      await expectPageHeaders(`${bare.url}${path}`, rpcUrl);
  });
});
