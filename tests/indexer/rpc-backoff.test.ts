import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROGRAM_ADDRESS } from '../support/chain';
import { createKitClient } from '@/lib/chain/rpc';
import { readLastRun } from '@/lib/features/indexer/last-run';
import { prometheusText } from '@/lib/observability/metrics';
import { FIRST_BACKOFF_MS } from '@/lib/features/indexer/rpc-backoff';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { ownDatabase } from '../support/database';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';
import { sample } from '../observability/support';

/*
 * An RPC provider that rate-limits the indexer (HTTP 429 past a call's deadline) does not fail
 * it run after run: the run that meets it ends quietly (`backing_off`), the runs of the next
 * seconds do nothing and ask nothing, the pause doubles while the provider keeps refusing, and
 * the first run after the quota returns completes (lib/features/indexer/rpc-backoff.ts). The
 * 429s are waited out inside one call by the app's transport (lib/chain/rpc-transport.ts, via
 * createKitClient) until its deadline, and the metrics count that call once, by method and outcome.
 */

/** The calls of `method` the metrics counted with `outcome` so far. */
async function counted(method: string, outcome: string): Promise<number> {
  return sample(await prometheusText(), 'solana_rpc_calls_total', { method, outcome });
}

const database = ownDatabase({ poolSize: 2 });
let refusing = false;
let calls = 0;
let proxy: RpcProxy;

beforeAll(async () => {
  proxy = await startRpcProxy(inject('rpcUrl'), () => {
    calls += 1;
    return refusing ? { status: 429, text: 'Too Many Requests' } : undefined;
  });
});
afterAll(() => proxy?.close());

describe('the indexer under RPC rate limiting', () => {
  it('backs off instead of failing, asks nothing while it waits, doubles the pause, and recovers', async () => {
    const { rpc, transport } = createKitClient(proxy.url, 2000); // a short deadline: the 429s end the call within it
    const run = (at: number) =>
      runIndexer({
        db: database.db,
        rpc,
        transport,
        rpcUrl: proxy.url,
        programAddress: PROGRAM_ADDRESS,
        maxTransactions: 100,
        pageSize: 100,
        now: new Date(at),
      });
    const t0 = Date.now();

    refusing = true;
    calls = 0;
    const first = await run(t0);
    expect(first).toMatchObject({
      status: 'backing_off',
      processed: 0,
      backingOffUntil: new Date(t0 + FIRST_BACKOFF_MS).toISOString(),
    });
    // one call (its first getSlot), asked again after each 429 until the deadline
    expect(calls).toBeGreaterThan(1);
    // recorded where every instance sees it, as a run the provider stopped
    expect(await readLastRun(database.db, PROGRAM_ADDRESS)).toMatchObject({ outcome: 'failed' });

    calls = 0;
    expect(await run(t0 + 1000)).toMatchObject({ status: 'backing_off' });
    expect(calls).toBe(0);

    // still refusing when the pause ends: twice as long this time
    const second = await run(t0 + FIRST_BACKOFF_MS + 1);
    expect(second).toMatchObject({
      status: 'backing_off',
      backingOffUntil: new Date(t0 + FIRST_BACKOFF_MS + 1 + 2 * FIRST_BACKOFF_MS).toISOString(),
    });

    refusing = false;
    const back = await run(t0 + 3 * FIRST_BACKOFF_MS + 2);
    expect(back.status).toBe('completed');
    expect(await readLastRun(database.db, PROGRAM_ADDRESS)).toMatchObject({ outcome: 'completed' });

    // recovered: the next refusal pauses from the start again
    refusing = true;
    const again = await run(t0 + 4 * FIRST_BACKOFF_MS);
    expect(again).toMatchObject({
      status: 'backing_off',
      backingOffUntil: new Date(t0 + 5 * FIRST_BACKOFF_MS).toISOString(),
    });
    refusing = false;
  }, 120_000);

  it('the transport counts a call once, by method and outcome, its 429 waits included', async () => {
    // A method of this test alone: the metrics are the process's, and other files' apps call getSlot too.
    const method = `probe_${Date.now()}`;
    const { transport } = createKitClient(proxy.url, 2000);
    const call = () => transport({ payload: { jsonrpc: '2.0', id: 1, method, params: [] } });

    refusing = true;
    calls = 0;
    await expect(call()).rejects.toThrow(/429/);
    expect(calls).toBeGreaterThan(1); // asked again after each 429 until the deadline
    expect([await counted(method, 'rate_limited'), await counted(method, 'ok')]).toEqual([1, 0]);

    refusing = false;
    await call(); // the localnet answers a JSON-RPC error for an unknown method: the transport's call is ok
    expect([await counted(method, 'rate_limited'), await counted(method, 'ok')]).toEqual([1, 1]);
  });
});
