import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalnet, type Localnet } from '@/localnet';
import type { DbHandle } from '@/lib/db/client';
import { runIndexer } from '@/lib/indexer/run-indexer';
import { PROGRAM_ID, connect, freshDatabase, fund, registerMany } from './support';

/*
 * The indexer reads transactions in JSON-RPC batch requests (INDEXER_FETCH_BATCH). A provider
 * that refuses batches, as some do, costs speed only: each batch that fails is asked again one
 * transaction at a time, and nothing is passed over.
 */

const databaseUrl = inject('databaseUrl');

/** A proxy that answers every batch request with the JSON-RPC error such providers give, and forwards the rest. */
async function batchRefusingProxy(upstream: string): Promise<{ url: string; refused: () => number; singles: () => number; close(): Promise<void> }> {
  let refused = 0;
  let singles = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const call = JSON.parse(body) as { method?: string } | unknown[];
    res.writeHead(200, { 'content-type': 'application/json' });
    if (Array.isArray(call)) {
      refused += 1;
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not allowed' } }));
      return;
    }
    if (call.method === 'getTransaction') singles += 1;
    res.end(await (await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    singles: () => singles,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('batched transaction reads', () => {
  let localnet: Localnet;
  let handle: DbHandle;
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, dataDir: null });
    handle = (await freshDatabase(databaseUrl)).handle;
  });
  afterAll(async () => {
    await handle?.close();
    await localnet?.close();
  });

  it('a provider that refuses batch requests: every transaction is read one by one instead, none passed over', async () => {
    const owner = Keypair.generate();
    await fund(connect(localnet.url), owner.publicKey, 10);
    await registerMany(connect(localnet.url), owner, 60, 'bf');
    const proxy = await batchRefusingProxy(localnet.url);
    try {
      const summary = await runIndexer({
        db: handle.db,
        connection: connect(proxy.url),
        programId: PROGRAM_ID,
        maxTransactions: 1000,
        pageSize: 1000,
        now: new Date(),
        afterCommit: async () => {},
      });
      expect(summary).toMatchObject({ status: 'completed', processed: 60, indexed: 60, deferred: [], more: false });
      expect(proxy.refused()).toBe(2); // 60 transactions: two batches of up to 50, each refused
      expect(proxy.singles()).toBe(60);
    } finally {
      await proxy.close();
    }
  });
});
