import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@/lib/core/config';
import { RATE_LIMIT_BUCKETS } from '@/lib/core/rate-limit-buckets';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';

describe('configuration (DESIGN.md "Configuration")', () => {
  it('embedded defaults when nothing is set', () => {
    const c = parseConfig({});
    expect(c.database).toEqual({ driver: 'pglite', dataDir: '.data/pglite' });
    expect(c.solana).toEqual({
      rpcUrl: undefined,
      publicRpcUrl: undefined,
      cluster: 'localnet',
      programId: LOCALNET_PROGRAM_ID,
    });
    expect(c.authDomain).toBe('localhost:3000');
    expect(c.appUrl.href).toBe('http://localhost:3000/');
    expect(c.rateLimits.auth).toEqual({
      limit: RATE_LIMIT_BUCKETS.auth.limit,
      windowSeconds: RATE_LIMIT_BUCKETS.auth.windowSeconds,
    });
    expect(c.server).toEqual({
      port: 3000,
      host: undefined,
      localnetPort: 8899,
      keepAliveTimeoutMs: 65_000,
      headersTimeoutMs: 66_000,
    });
    expect(c.heavyWork).toEqual({ concurrency: 4, maxEventLoopUtilization: 0.7, bytesPerSecond: 16 * 1024 * 1024 });
  });

  it('keep-alive and headers timeouts: above a load balancer’s 60 s by default, settable, headers above keep-alive', () => {
    expect(parseConfig({ KEEP_ALIVE_TIMEOUT_MS: '120000', HEADERS_TIMEOUT_MS: '121000' }).server).toMatchObject({
      keepAliveTimeoutMs: 120_000,
      headersTimeoutMs: 121_000,
    });
    expect(() => parseConfig({ KEEP_ALIVE_TIMEOUT_MS: '70000' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n  HEADERS_TIMEOUT_MS: must be above KEEP_ALIVE_TIMEOUT_MS (Node.js closes a reused connection otherwise)',
      ),
    );
    expect(() => parseConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS/);
  });

  it('chooses node-postgres for DATABASE_URL and @vercel/postgres for POSTGRES_URL', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://u:p@h/db' }).database.driver).toBe('node-postgres');
    expect(parseConfig({ POSTGRES_URL: 'postgres://u:p@h/db' }).database.driver).toBe('vercel-postgres');
  });

  it('browsers get SOLANA_PUBLIC_RPC_URL when set, else SOLANA_RPC_URL', () => {
    expect(parseConfig({ SOLANA_RPC_URL: 'https://rpc.example/?api-key=secret' }).solana.publicRpcUrl).toBe(
      'https://rpc.example/?api-key=secret',
    );
    expect(
      parseConfig({
        SOLANA_RPC_URL: 'https://rpc.example/?api-key=secret',
        SOLANA_PUBLIC_RPC_URL: 'https://public.example',
      }).solana.publicRpcUrl,
    ).toBe('https://public.example');
  });

  it('sign-in domains: APP_URL host with port, plus AUTH_DOMAINS', () => {
    const c = parseConfig({
      APP_URL: 'https://tags.example:8443',
      AUTH_DOMAINS: 'Preview.example, partner.example:3000',
    });
    expect(c.authDomain).toBe('tags.example:8443');
    expect(c.extraAuthDomains).toEqual(['preview.example', 'partner.example:3000']);
  });

  /** A value each variable refuses. */
  const INVALID: Record<string, string> = {
    DATABASE_URL: 'mysql://x',
    SOLANA_RPC_URL: 'not a url',
    SOLANA_CLUSTER: 'moonnet',
    TAG_PROGRAM_ID: 'xyz',
    APP_URL: 'ftp://x',
    AUTH_DOMAINS: 'https://with-scheme.example',
    AUTH_SECRET: 'short',
    RATE_LIMITS: 'auth=-3',
    PORT: '70000',
    LOG_LEVEL: 'loud',
    OTEL_METRIC_EXPORT_INTERVAL: '10',
    TRUSTED_PROXY_HOPS: 'two',
  };
  it.each(Object.entries(INVALID))('an invalid %s is refused with a message naming it', (variable, value) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(new RegExp(`${variable}:`));
  });

  it('an unset APP_URL is where npm start listens: http://localhost:PORT', () => {
    expect(parseConfig({ PORT: '4123' }).appUrl.href).toBe('http://localhost:4123/');
    expect(parseConfig({ PORT: '4123', APP_URL: 'https://tags.example' }).appUrl.href).toBe('https://tags.example/');
  });

  it('RATE_LIMITS overrides the named buckets, a limit alone or with its window, and leaves the others', () => {
    const { rateLimits } = parseConfig({ RATE_LIMITS: 'auth=5/3600, register=3' });
    expect(rateLimits.auth).toEqual({ limit: 5, windowSeconds: 3600 });
    expect(rateLimits.register).toEqual({ limit: 3, windowSeconds: RATE_LIMIT_BUCKETS.register.windowSeconds });
    expect(rateLimits.feed).toEqual({
      limit: RATE_LIMIT_BUCKETS.feed.limit,
      windowSeconds: RATE_LIMIT_BUCKETS.feed.windowSeconds,
    });
  });

  it.each([
    [
      'an unknown bucket',
      'logins=5',
      'RATE_LIMITS: no bucket `logins` (buckets: auth, sync, register, availability, primary, avatar, profile, profileKey, feed, batch, action, actionMint, status, payments, webhooks)',
    ],
    ['a malformed entry', 'auth:5', 'RATE_LIMITS: `auth:5` is not bucket=limit or bucket=limit/windowSeconds'],
    ['a zero limit', 'auth=0', 'RATE_LIMITS: `auth=0`: the limit and the window must be positive'],
    ['a zero window', 'auth=5/0', 'RATE_LIMITS: `auth=5/0`: the limit and the window must be positive'],
  ])('RATE_LIMITS with %s is refused, naming it', (_name, value, line) => {
    expect(() => parseConfig({ RATE_LIMITS: value })).toThrow(new ConfigError(`Invalid configuration:\n  ${line}`));
  });

  it('AUTH_SECRET is required in production on Vercel', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', VERCEL: '1' })).toThrow(/AUTH_SECRET: required/);
  });

  it('ACTION_IDENTITY_SECRET: required in production on a public cluster; a keygen array or base58; the embedded key on localnet', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', SOLANA_CLUSTER: 'devnet' })).toThrow(
      /ACTION_IDENTITY_SECRET: required in production on devnet/,
    );
    const secret = Array.from({ length: 64 }, (_, i) => i);
    const fromArray = parseConfig({
      NODE_ENV: 'production',
      SOLANA_CLUSTER: 'devnet',
      ACTION_IDENTITY_SECRET: JSON.stringify(secret),
      ENS_GATEWAY_SIGNER_KEY: `0x${'42'.repeat(32)}`,
    });
    expect(Array.from(fromArray.actionIdentitySecret)).toEqual(secret);
    expect(() => parseConfig({ ACTION_IDENTITY_SECRET: '[1,2,3]' })).toThrow(
      /ACTION_IDENTITY_SECRET: must be a 64-byte/,
    );
    expect(parseConfig({ NODE_ENV: 'production' }).actionIdentitySecret).toHaveLength(64);
  });

  it('the built server stops at start-up naming the invalid variable', () => {
    const run = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', '0'], {
      env: { ...process.env, SOLANA_CLUSTER: 'moonnet' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(/SOLANA_CLUSTER:/);
  });
});
