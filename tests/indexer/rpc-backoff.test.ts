import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createConnection } from '@/lib/chain/rpc';
import { readLastRun } from '@/lib/features/indexer/last-run';
import { FIRST_BACKOFF_MS } from '@/lib/features/indexer/rpc-backoff';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { ownDatabase } from '../support/database';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';
import { PROGRAM_ID } from '../support/chain';

/*
 * An RPC provider that rate-limits the indexer (HTTP 429 past a call's deadline) does not fail
 * it run after run: the run that meets it ends quietly (`backing_off`), the runs of the next
 * seconds do nothing and ask nothing, the pause doubles while the provider keeps refusing, and
 * the first run after the quota returns completes (lib/features/indexer/rpc-backoff.ts).
 */

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
    const connection = createConnection(proxy.url, 2000); // a short deadline: the 429s end the call within it
    const run = (at: number) =>
      runIndexer({
        db: database.db,
        connection,
        programId: PROGRAM_ID,
        maxTransactions: 100,
        pageSize: 100,
        now: new Date(at),
      });
    const t0 = Date.now();

    refusing = true;
    const first = await run(t0);
    expect(first).toMatchObject({
      status: 'backing_off',
      processed: 0,
      backingOffUntil: new Date(t0 + FIRST_BACKOFF_MS).toISOString(),
    });
    // recorded where every instance sees it, as a run the provider stopped
    expect(await readLastRun(database.db, PROGRAM_ID.toBase58())).toMatchObject({ outcome: 'failed' });

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
    expect(await readLastRun(database.db, PROGRAM_ID.toBase58())).toMatchObject({ outcome: 'completed' });

    // recovered: the next refusal pauses from the start again
    refusing = true;
    const again = await run(t0 + 4 * FIRST_BACKOFF_MS);
    expect(again).toMatchObject({
      status: 'backing_off',
      backingOffUntil: new Date(t0 + 5 * FIRST_BACKOFF_MS).toISOString(),
    });
    refusing = false;
  }, 120_000);
});
