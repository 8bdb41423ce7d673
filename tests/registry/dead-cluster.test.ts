import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { TEST_CRON_SECRET } from '@/devstack/app';
import { freePort } from '@/devstack/ports';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { signIn } from '../support/sign-in';
import { postAuthed } from '../support/http';
import { cron } from '../indexer/support';

/*
 * An app whose SOLANA_RPC_URL points at a closed port, and with CRON_SECRET set empty:
 * every chain-backed answer is 503 with Retry-After, and the cron route is refused. Its
 * handlers run in this process (tests/support/in-process.ts).
 */
const UNAVAILABLE = {
  error: { code: 'service_unavailable', message: 'The Solana cluster cannot be reached right now; try again shortly.' },
};

describe('a cluster that cannot be reached', () => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await inProcessApp({ SOLANA_RPC_URL: `http://127.0.0.1:${await freePort()}`, CRON_SECRET: '' });
  });
  afterAll(async () => app?.close());

  it('POST /v1/register: 503 with Retry-After', async () => {
    const { token } = await signIn(app.url);
    const res = await postAuthed(`${app.url}/v1/register`, token, { tag: 'deadcluster' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.json).toEqual(UNAVAILABLE);
  });

  it('POST /v1/register: a reserved tag gets 503 too (checks and blockhash are read together)', async () => {
    // The blockhash is fetched with the checks; without a cluster there is no transaction to give.
    const { token } = await signIn(app.url);
    const res = await postAuthed(`${app.url}/v1/register`, token, { tag: 'admin' });
    expect(res.status).toBe(503);
  });

  it('the lifecycle builders: 503 with Retry-After (the caller is judged on chain)', async () => {
    const { token } = await signIn(app.url);
    for (const [path, body] of [
      ['wallet', { wallet: bs58.encode(randomBytes(32)) }],
      ['transfer/accept', {}],
      ['release', {}],
    ] as const) {
      const res = await postAuthed(`${app.url}/v1/identity/deadcluster/${path}`, token, body);
      expect(res.status, path).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.json).toEqual(UNAVAILABLE);
    }
  });

  it('GET /v1/availability/{tag}: 503', async () => {
    const res = await fetch(`${app.url}/v1/availability/deadcluster`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual(UNAVAILABLE);
  });

  it('POST /v1/sync: 503', async () => {
    const res = await postAuthed(`${app.url}/v1/sync`, null, { signature: bs58.encode(randomBytes(64)) });
    expect(res.status).toBe(503);
    expect(res.json).toEqual(UNAVAILABLE);
  });

  it('the cron route is refused when CRON_SECRET is unset, whatever is sent', async () => {
    for (const authorization of [`Bearer ${TEST_CRON_SECRET}`, 'Bearer ', null]) {
      const res = await cron(app.url, authorization);
      expect(res.status).toBe(401);
    }
  });
});
