import { chromium } from '@playwright/test';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { liftedRateLimits } from '@/devstack/rate-limits';
import { openDb, STATEMENT_TIMEOUT_MS, type DbHandle } from '@/lib/db/client';
import { migratePostgres } from '@/lib/db/migrate';
import { newKeypair } from '../support/keypair';
import { startControllablePostgres, type ControllablePostgres } from './postgres-control';

/*
 * A database that fails soft: an outage or a deadline is a 503 with Retry-After on
 * /v1 and a friendly page elsewhere, the service recovers on its own, and one locked table
 * does not take sign-in down. A PostgreSQL server and an app of this test's own.
 */

let server: ControllablePostgres;
let app: RunningApp;
let seed: DbHandle;

beforeAll(async () => {
  server = await startControllablePostgres();
  await migratePostgres(server.url);
  seed = await openDb({ driver: 'node-postgres', url: server.url }, { poolSize: 1 });
  app = await startApp({
    DATABASE_URL: server.url,
    SOLANA_RPC_URL: inject('rpcUrl'),
    RATE_LIMITS: liftedRateLimits(['availability']),
  });
});
afterAll(async () => {
  await app?.stop();
  await seed?.close();
  await server?.close();
});

const UNAVAILABLE = {
  error: { code: 'service_unavailable', message: 'The service is briefly unavailable; try again shortly.' },
};

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

function challenge(): Promise<Response> {
  return fetch(`${app.url}/v1/auth/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pubkey: newKeypair().publicKey }),
  });
}

describe('PostgreSQL stopped, then started again', () => {
  it('/v1 answers 503 envelopes with Retry-After, /@tag a 503 page, and all recovers without a restart', async () => {
    const row = await insertIdentity(seed.db);
    expect((await fetch(`${app.url}/v1/identity/${row.tag}`)).status).toBe(200);

    await server.stop();
    try {
      for (const call of [() => fetch(`${app.url}/v1/identity/${row.tag}`), challenge]) {
        const { value: res, ms } = await timed(call);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.json()).toEqual(UNAVAILABLE);
        expect(ms).toBeLessThan(5000);
      }
      // /@tag reads the database on every view: a 503 page of its own, with Retry-After and no
      // detail of the cause, that the browser shows as it is (the page needs no script).
      const path = `/@${randomTag('down_')}`;
      const page = await fetch(`${app.url}${path}`);
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('5');
      expect(page.headers.get('cache-control')).toBe('no-store');
      const text = await page.text();
      expect(text).toContain('Something went wrong');
      expect(text).not.toMatch(/ECONNREFUSED|at \S+ \(|node_modules/);
      const browser = await chromium.launch({
        executablePath: process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE || '/usr/bin/chromium',
        args: ['--no-sandbox'],
      });
      try {
        const tab = await browser.newPage();
        await tab.goto(`${app.url}${path}`);
        await expect
          .poll(() => tab.locator('main').textContent(), { timeout: 15_000 })
          .toContain('Something went wrong');
      } finally {
        await browser.close();
      }
    } finally {
      await server.start();
    }

    // Back without restarting the app: the pool reconnects on the next requests.
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await fetch(`${app.url}/v1/identity/${row.tag}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect((await challenge()).status).toBe(200);
    expect((await fetch(`${app.url}/@${row.tag}`)).status).toBe(200);
  });
});

describe('the identities table locked from another connection', () => {
  let locker: pg.Client;
  beforeAll(async () => {
    locker = new pg.Client({ connectionString: server.url });
    await locker.connect();
  });
  afterAll(() => locker?.end());

  async function whileLocked(fn: () => Promise<void>): Promise<void> {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE identities IN ACCESS EXCLUSIVE MODE');
    try {
      await fn();
    } finally {
      await locker.query('ROLLBACK');
    }
  }

  it('GET /v1/identity answers 503 within the statement timeout while POST /v1/auth/challenge still answers 200', async () => {
    const row = await insertIdentity(seed.db);
    await whileLocked(async () => {
      const read = timed(() => fetch(`${app.url}/v1/identity/${row.tag}`));
      await new Promise((r) => setTimeout(r, 200));
      const signIn = await timed(challenge);
      expect(signIn.value.status).toBe(200);
      expect(signIn.ms).toBeLessThan(1000);
      const { value: res, ms } = await read;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual(UNAVAILABLE);
      expect(ms).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 100);
      expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 1000);
    });
    expect((await fetch(`${app.url}/v1/identity/${row.tag}`)).status).toBe(200);
  });

  it('more requests stuck on the lock than the main pool has connections: sign-in keeps answering, the rest 503', async () => {
    await whileLocked(async () => {
      const stuck = Array.from({ length: 15 }, (_, i) => fetch(`${app.url}/v1/availability/${randomTag(`lock${i}_`)}`));
      await new Promise((r) => setTimeout(r, 300));
      const signIn = await timed(challenge);
      expect(signIn.value.status).toBe(200);
      expect(signIn.ms).toBeLessThan(1000);
      const statuses = (await Promise.all(stuck)).map((r) => r.status);
      expect(
        statuses.every((s) => s === 503),
        String(statuses),
      ).toBe(true);
    });
  });
});
