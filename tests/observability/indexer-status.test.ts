import { generateKeyPairSigner } from '@solana/kit';
import { describe, expect, inject, it } from 'vitest';
import { TEST_CRON_SECRET } from '@/devstack/app';
import { createDatabase } from '@/devstack/postgres';
import { watchIndexerLag } from '@/lib/features/indexer/lag-gauges';
import type { IndexerStatus } from '@/lib/features/indexer/status';
import { held } from '../support/held';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { ownLocalnet } from '../support/localnet';
import { airdrop, fundedSigner, reachAll, registration, rpcAt, sendSigned } from '../support/chain';
import { runCron } from '../indexer/support';
import { sample } from './support';
import { CLUSTER_CHECK_MAX_AGE_MS } from '@/lib/chain/cluster-check';

/*
 * The indexer's lag on a chain of this file's own (every slot is one of its transactions) and
 * a database of its own, with no background indexer: the lag grows by a slot per transaction
 * while nothing runs, and falls to nothing after a run. The routes' handlers run in this
 * process (tests/support/in-process.ts), the lag gauges watched as production's services do.
 */

const METRICS_TOKEN = 'metrics-token-0123456789';
const localnet = ownLocalnet();
const database = held(
  'the database',
  () => createDatabase(inject('databaseUrl')),
  async () => {},
);
const app = held<InProcessApp>(
  'the app',
  async () => {
    const opened = await inProcessApp({ DATABASE_URL: database(), SOLANA_RPC_URL: localnet.url, METRICS_TOKEN });
    watchIndexerLag(opened.services);
    return opened;
  },
  (a) => a.close(),
);

/** The status once the cluster's shared check (at most CLUSTER_CHECK_MAX_AGE_MS old) has aged out: it shows the chain as it is now. */
async function status(): Promise<IndexerStatus> {
  await new Promise((r) => setTimeout(r, CLUSTER_CHECK_MAX_AGE_MS + 100));
  const res = await app().fetch('/api/indexer/status', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as IndexerStatus;
}

/** Transactions that are not the program's: they move the chain on, not the cursor. */
async function otherTransactions(n: number): Promise<void> {
  const rpc = rpcAt(localnet.url);
  for (let i = 0; i < n; i++) await airdrop(rpc, (await generateKeyPairSigner()).address, 1);
}

describe('GET /api/indexer/status', () => {
  it('reports a lag that grows while the indexer is stopped and falls after a run', async () => {
    const rpc = rpcAt(localnet.url);
    const owner = await fundedSigner(rpc);
    const registered = await sendSigned(rpc, [await registration(owner, `lag${Date.now() % 100000}`)], owner);
    await reachAll(rpc, [registered], 'finalized');

    const before = await status();
    expect(before.lastRun).toBeNull();
    expect(before.cursor).toEqual({ signature: null, slot: null });
    expect(before.lag!.slots).toBe(before.finalizedSlot);

    await runCron(app().url);
    const caughtUp = await status();
    expect(caughtUp.lag).toEqual({ slots: 0, seconds: 0 });
    expect(caughtUp.cursor.slot).toBeGreaterThan(0);
    expect(caughtUp.caughtUpSlot).toBe(caughtUp.finalizedSlot);
    expect(caughtUp.lastRun).toMatchObject({ outcome: 'completed', processed: 1, deferred: 0, recordedSkips: 0 });
    expect(Date.now() - Date.parse(caughtUp.lastRun!.finishedAt)).toBeLessThan(60_000);

    // stopped: each transaction on the chain is a slot the mirror has not looked at
    await otherTransactions(3);
    const behind = await status();
    expect(behind.finalizedSlot).toBe(caughtUp.finalizedSlot! + 3);
    expect(behind.lag!.slots).toBe(3);
    expect(behind.lag!.seconds).toBeGreaterThanOrEqual(0);
    await otherTransactions(2);
    const further = await status();
    expect(further.lag!.slots).toBe(5);
    expect(further.lastRun).toEqual(caughtUp.lastRun);

    // the metrics read the same figure
    const metrics = await (
      await app().fetch('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(sample(metrics, 'indexer_lag_slots', {})).toBe(5);

    await runCron(app().url);
    const after = await status();
    expect(after.lag).toEqual({ slots: 0, seconds: 0 });
    expect(after.cursor).toEqual(caughtUp.cursor); // none of the program's: the cursor stays
    expect(after.caughtUpSlot).toBe(further.finalizedSlot);
    expect(after.lastRun).toMatchObject({ outcome: 'completed', processed: 0 });
    expect(Date.parse(after.lastRun!.startedAt)).toBeGreaterThanOrEqual(Date.parse(caughtUp.lastRun!.startedAt));
  });

  it('records a failed run where every instance sees it, and keeps the caught-up slot of the last good one', async () => {
    const good = await status();
    // another instance on the same database whose cluster cannot be reached runs the indexer
    const stranded = await inProcessApp({ DATABASE_URL: database(), SOLANA_RPC_URL: 'http://127.0.0.1:1' });
    try {
      const failed = await stranded.fetch('/api/cron/indexer', {
        headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
      });
      expect(failed.status).toBe(503);
    } finally {
      await stranded.close();
    }
    const after = await status();
    expect(after.lastRun).toMatchObject({ outcome: 'failed', processed: 0 });
    expect(after.private!.lastRunError).toMatch(/cluster/i);
    expect(after.caughtUpSlot).toBe(good.caughtUpSlot);
    expect(after.lag).toEqual({ slots: 0, seconds: 0 });
  });
});
