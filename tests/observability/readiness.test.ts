import { describe, expect, inject, it } from 'vitest';
import { migratePostgres } from '@/lib/db/migrate';
import { startControllablePostgres, type ControllablePostgres } from '../db/postgres-control';
import { captureLogs } from '../support/captured-logs';
import { held } from '../support/held';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { readResponse } from '../support/http';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';
import { loggedLine } from './support';
import { CLUSTER_CHECK_MAX_AGE_MS } from '@/lib/chain/cluster-check';

/** Until the cluster's shared check has aged out, so the next readiness makes a new one. */
const checkAgesOut = () => new Promise((r) => setTimeout(r, CLUSTER_CHECK_MAX_AGE_MS + 100));

/*
 * GET /api/ready against a PostgreSQL this file stops and starts, and the shared localnet
 * behind a proxy that can refuse every call or hold it past the deadline. The cluster's check
 * is shared and at most CLUSTER_CHECK_MAX_AGE_MS old (lib/chain/cluster-check.ts): a change of
 * the cluster shows once the last check has aged out. The route's handlers run in this process
 * (tests/support/in-process.ts), bound to that database and proxy; its log lines are read here.
 */

let cluster: 'up' | 'refusing' | 'silent' = 'up';
const postgres = held<ControllablePostgres>(
  'the database',
  async () => {
    const pg = await startControllablePostgres();
    await migratePostgres(pg.url);
    return pg;
  },
  (pg) => pg.close(),
);
const proxy = held<RpcProxy>(
  'the rpc proxy',
  () =>
    startRpcProxy(inject('rpcUrl'), async () => {
      if (cluster === 'refusing') return { status: 503, text: 'unavailable' };
      if (cluster === 'silent') await new Promise((r) => setTimeout(r, 4000));
      return undefined;
    }),
  (p) => p.close(),
);
const app = held<InProcessApp>(
  'the app',
  () => inProcessApp({ DATABASE_URL: postgres().url, SOLANA_RPC_URL: proxy().url }),
  (a) => a.close(),
);
const logs = captureLogs();

async function ready() {
  const started = Date.now();
  const res = await readResponse(await app().fetch('/api/ready'));
  return { ...res, ms: Date.now() - started };
}

/** Readiness once it is 200 again (the pool drops the connections the restart broke on first use). */
async function readyAgain(timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await ready();
    if (res.status === 200 || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const passed = { ok: true, ms: expect.any(Number) };
const clusterPassed = { ...passed, finalizedSlot: expect.any(Number), ageMs: expect.any(Number) };

describe('GET /api/ready', () => {
  it('200 with both checks passed', async () => {
    const res = await ready();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toEqual({ ok: true, checks: { database: passed, cluster: clusterPassed } });
    expect((res.json as { checks: { cluster: { ageMs: number } } }).checks.cluster.ageMs).toBeLessThanOrEqual(
      CLUSTER_CHECK_MAX_AGE_MS,
    );
  });

  it('503 naming the database while it is stopped, 200 once it is back', async () => {
    await postgres().stop();
    try {
      const res = await ready();
      expect(res.status).toBe(503);
      expect(res.json).toEqual({
        ok: false,
        checks: { database: { ok: false, ms: expect.any(Number), error: 'unavailable' }, cluster: clusterPassed },
      });
      // the answer's id is on the line that says why
      const requestId = res.headers.get('x-request-id');
      const line = await loggedLine(logs, (l) => l.requestId === requestId && l.msg === 'readiness: check failed');
      expect(line).toMatchObject({ level: 'warn', check: 'database' });
    } finally {
      await postgres().start();
    }
    const back = await readyAgain();
    expect(back.status).toBe(200);
    expect(back.json).toMatchObject({ ok: true });
  });

  it.each([
    ['refuses every call', 'refusing', 'unavailable'],
    ['does not answer at all (503 within its 2 s deadline)', 'silent', 'timeout'],
  ] as const)('503 naming the cluster while it %s, 200 once it answers again', async (_case, state, error) => {
    cluster = state;
    try {
      await checkAgesOut();
      const res = await ready();
      expect(res.status).toBe(503);
      expect(res.json).toEqual({
        ok: false,
        checks: { database: passed, cluster: { ok: false, ms: expect.any(Number), ageMs: expect.any(Number), error } },
      });
      expect(res.ms).toBeLessThan(3500);
    } finally {
      cluster = 'up';
    }
    expect((await readyAgain()).status).toBe(200);
  });

  it('503 naming both when both are down, 200 after both come back', async () => {
    await postgres().stop();
    cluster = 'refusing';
    try {
      await checkAgesOut();
      const res = await ready();
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ ok: false, checks: { database: { ok: false }, cluster: { ok: false } } });
    } finally {
      cluster = 'up';
      await postgres().start();
    }
    expect((await readyAgain()).status).toBe(200);
  });

  it('GET /api/health stays 200 (liveness) whatever the database does', async () => {
    await postgres().stop();
    try {
      const res = await app().fetch('/api/health');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    } finally {
      await postgres().start();
    }
  });
});
