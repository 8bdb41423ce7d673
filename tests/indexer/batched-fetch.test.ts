import { describe, expect, it } from 'vitest';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { ownDatabase } from '../support/database';
import { ownLocalnet } from '../support/localnet';
import { startRpcProxy } from '../support/rpc-proxy';
import { fundedSigner, kitChainAt, registerMany, rpcAt } from '../support/chain';

/*
 * The indexer reads transactions in JSON-RPC batch requests (INDEXER_FETCH_BATCH, lib/features/indexer/fetch-transactions.ts). A provider
 * that refuses batches, as some do, costs speed only: each batch that fails is asked again one
 * transaction at a time, and nothing is passed over.
 */

/** A proxy that answers every batch request with the JSON-RPC error such providers give, and forwards the rest. */
async function batchRefusingProxy(
  upstream: string,
): Promise<{ url: string; refused: () => number; singles: () => number; close(): Promise<void> }> {
  let refused = 0;
  let singles = 0;
  const proxy = await startRpcProxy(upstream, (request) => {
    if (Array.isArray(request)) {
      refused += 1;
      return { json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not allowed' } } };
    }
    if (request?.method === 'getTransaction') singles += 1;
    return undefined;
  });
  return { url: proxy.url, refused: () => refused, singles: () => singles, close: proxy.close };
}

describe('batched transaction reads', () => {
  const localnet = ownLocalnet();
  const database = ownDatabase();

  it('a provider that refuses batch requests: every transaction is read one by one instead, none passed over', async () => {
    const rpc = rpcAt(localnet.url);
    const owner = await fundedSigner(rpc, 10);
    await registerMany(rpc, owner, 60, 'bf');
    const proxy = await batchRefusingProxy(localnet.url);
    try {
      const summary = await runIndexer({
        db: database.db,
        ...kitChainAt(proxy.url),
        maxTransactions: 1000,
        pageSize: 1000,
        now: new Date(),
      });
      expect(summary).toMatchObject({ status: 'completed', processed: 60, indexed: 60, deferred: [], more: false });
      expect(proxy.refused()).toBe(2); // 60 transactions: two batches of up to 50, each refused
      expect(proxy.singles()).toBe(60);
    } finally {
      await proxy.close();
    }
  });
});
