import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildDir, startApp, TEST_AUTH_SECRET, type RunningApp } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { freePort } from '@/devstack/ports';
import { inlineScriptHashes, rpcOrigins } from '@/lib/web/security-headers';
import { stackDatabase } from '../support/database';

/*
 * Security headers on every response, and the pages' CSP: scripts by the hashes of
 * the page's own inline scripts, no 'unsafe-inline', no nonce; the RPC in connect-src.
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

/** The directives of a CSP header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

/** The hashes a browser needs for the page's inline scripts, computed here on their own. */
function hashesOfInlineScripts(html: string): string[] {
  const found = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  return [...new Set(found.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`))];
}

async function expectPageHeaders(url: string, rpc: string): Promise<void> {
  const res = await fetch(url, { headers: { accept: 'text/html' } });
  const html = await res.text();
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  for (const [name, value] of Object.entries(BASE)) expect(res.headers.get(name), `${name} of ${url}`).toBe(value);
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('font-src')).toEqual(["'self'"]);
  const scripts = csp.get('script-src')!;
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts.some((s) => s.startsWith("'nonce-"))).toBe(false);
  const needed = hashesOfInlineScripts(html);
  expect(needed.length).toBeGreaterThan(0);
  expect([...scripts].sort()).toEqual(["'self'", ...needed].sort());
  for (const origin of rpcOrigins(rpc)) expect(csp.get('connect-src')).toContain(origin);
}

describe('every page carries the security headers, its CSP made for its own inline scripts', () => {
  const pages = () => ['/', '/register', '/settings', '/profile', `/@${taken}`, '/@nobody_here', '/no/such/page'];

  it('each page', async () => {
    for (const path of pages()) await expectPageHeaders(`${appUrl}${path}`, rpcUrl);
  });

  it('RPC origins in connect-src: the endpoint and its PubSub socket', () => {
    expect(rpcOrigins('http://127.0.0.1:8899')).toEqual(['http://127.0.0.1:8899', 'ws://127.0.0.1:8900', 'ws://127.0.0.1:8899']);
    expect(rpcOrigins('https://rpc.example.org/?api-key=x')).toEqual(['https://rpc.example.org', 'wss://rpc.example.org']);
  });

  it.each([['/v1/identity/nobody_here'], ['/v1/nope'], ['/api/health'], ['/v1/openapi.json']])('%s: the base headers and a CSP that allows nothing', async (path) => {
    const res = await fetch(`${appUrl}${path}`);
    for (const [name, value] of Object.entries(BASE)) expect(res.headers.get(name)).toBe(value);
    expect(directives(res.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
    expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('no HSTS over http', async () => {
    expect((await fetch(`${appUrl}/`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('npm start compresses: each page once per distinct page, everything else as it goes', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['identity', null],
  ])('Accept-Encoding %j: /@tag, one of its scripts and the OpenAPI document go out as %s', async (accept, expected) => {
    const page = await fetch(`${appUrl}/@${taken}`, { headers: { 'accept-encoding': accept } });
    expect(page.headers.get('content-encoding')).toBe(expected);
    expect(page.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    const html = await page.text(); // fetch decodes what it was sent
    expect(html).toContain(`@${taken}`);
    expect([...directives(page.headers.get('content-security-policy')).get('script-src')!].sort()).toEqual(["'self'", ...hashesOfInlineScripts(html)].sort());
    const script = html.match(/<script src="(\/_next\/static\/[^"]+\.js)"/)?.[1];
    expect(script, 'a script of the page').toBeDefined();
    for (const path of [script!, '/v1/openapi.json']) {
      const res = await fetch(`${appUrl}${path}`, { headers: { 'accept-encoding': accept } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-encoding'), path).toBe(expected);
      await res.arrayBuffer();
    }
  });
});

describe('inlineScriptHashes', () => {
  it('hashes inline JavaScript only, as the browser reads it (CR LF as LF), once each', () => {
    const html =
      '<script>a()</script><script src="/x.js"></script><script type="application/json">{"x":1}</script>' +
      '<script type="module">b()\r\n</script><script>a()</script>';
    const sha = (t: string) => `sha256-${createHash('sha256').update(t).digest('base64')}`;
    expect(inlineScriptHashes(html)).toEqual([sha('a()'), sha('b()\n')]);
  });
});

describe('APP_URL over https', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ DATABASE_URL: inject('databaseUrl'), SOLANA_RPC_URL: rpcUrl, APP_URL: 'https://tags.example' });
  });
  afterAll(() => app?.stop());

  it('pages carry HSTS and upgrade-insecure-requests', async () => {
    const res = await fetch(`${app.url}/`);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect(directives(res.headers.get('content-security-policy')).has('upgrade-insecure-requests')).toBe(true);
  });
});

describe('without scripts/serve.ts in front (as on Vercel): proxy.ts gives pages the same CSP', () => {
  let url: string;
  let stop: () => void;
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_DIST_DIR: buildDir(),
        APP_URL: url,
        AUTH_SECRET: TEST_AUTH_SECRET,
        DATABASE_URL: inject('databaseUrl'),
        SOLANA_RPC_URL: rpcUrl,
        CLIENT_ADDRESS_SOURCE: 'proxy',
        TRUSTED_PROXY_HOPS: '1',
      },
      stdio: 'ignore',
    });
    stop = () => child.kill('SIGTERM');
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('next start did not answer within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(() => stop?.());

  it('each page', async () => {
    for (const path of ['/', '/register', `/@${taken}`, '/@nobody_here']) await expectPageHeaders(`${url}${path}`, rpcUrl);
  });
});
