import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { CLUSTER_CHECK_MAX_AGE_MS } from '@/lib/chain/cluster-check';
import { ownDatabase } from '../support/database';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { newKeypair } from '../support/keypair';
import { registeredPayee } from '../support/registered-payee';
import { rpcAt } from '../support/chain';
import { startRpcProxy, type RpcCall, type RpcProxy } from '../support/rpc-proxy';

/*
 * What public requests cost the RPC provider (docs/operating-rpc.md), counted at a proxy in
 * front of the cluster: a reverse lookup's 404 asks nothing; readiness and the indexer's status
 * share one check of the cluster at most CLUSTER_CHECK_MAX_AGE_MS old; the pay Action reads a
 * mint once, not per request; issuing payment requests for one tag reads its record and payout
 * account in one call, shared for a second or two. The app's handlers run in this process
 * (tests/support/in-process.ts).
 */

const database = ownDatabase({ poolSize: 2 });
const calls = new Map<string, number>();
let proxy: RpcProxy;
let app: InProcessApp;

beforeAll(async () => {
  proxy = await startRpcProxy(inject('rpcUrl'), (request) => {
    for (const call of [request ?? []].flat() as RpcCall[])
      calls.set(call.method ?? '?', (calls.get(call.method ?? '?') ?? 0) + 1);
    return undefined;
  });
  app = await inProcessApp({ DATABASE_URL: database.url, SOLANA_RPC_URL: proxy.url });
});
afterAll(async () => {
  await app?.close();
  await proxy?.close();
});

async function counted(work: () => Promise<void>): Promise<Record<string, number>> {
  calls.clear();
  await work();
  return Object.fromEntries(calls);
}

const drain = async (res: Response) => {
  await res.arrayBuffer();
  return res.status;
};

describe('RPC calls per public request', () => {
  it('GET /v1/reverse/{address} answering 404: none', async () => {
    const spent = await counted(async () => {
      for (let i = 0; i < 20; i++)
        expect(await drain(await fetch(`${app.url}/v1/reverse/${newKeypair().publicKey}`))).toBe(404);
    });
    expect(spent).toEqual({});
  });

  it('GET /api/ready, 30 at once: at most one getSlot per CLUSTER_CHECK_MAX_AGE_MS', async () => {
    const spent = await counted(async () => {
      const statuses = await Promise.all(
        Array.from({ length: 30 }, async () => drain(await fetch(`${app.url}/api/ready`))),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    });
    expect(spent.getSlot ?? 0).toBeLessThanOrEqual(1);
    expect(Object.keys(spent).filter((m) => m !== 'getSlot')).toEqual([]);
  });

  it('GET /api/indexer/status, 20 in a row: the shared check, and each block time once', async () => {
    await new Promise((r) => setTimeout(r, CLUSTER_CHECK_MAX_AGE_MS + 100)); // the last check is stale now
    const spent = await counted(async () => {
      for (let i = 0; i < 20; i++) expect(await drain(await fetch(`${app.url}/api/indexer/status`))).toBe(200);
    });
    expect(spent.getSlot ?? 0).toBeLessThanOrEqual(2);
    expect(spent.getBlockTime ?? 0).toBeLessThanOrEqual(2 * (spent.getSlot ?? 0) + 2);
    expect(Object.keys(spent).filter((m) => m !== 'getSlot' && m !== 'getBlockTime')).toEqual([]);
  });

  it('GET /api/actions/pay/{tag} naming a mint, 20 times: one getAccountInfo', async () => {
    const mint = newKeypair().publicKey; // no account: "not a mint", kept a minute
    const { tag } = await insertIdentity(database.db, { preferredToken: mint });
    const spent = await counted(async () => {
      for (let i = 0; i < 20; i++) expect(await drain(await fetch(`${app.url}/api/actions/pay/${tag}`))).toBe(200);
    });
    expect(spent.getAccountInfo).toBe(1);
    expect(Object.keys(spent).filter((m) => m !== 'getAccountInfo' && m !== 'getGenesisHash')).toEqual([]);
  });

  it('POST /v1/payments for one tag, 20 in a row: one getMultipleAccounts per second or two, nothing else', async () => {
    const { tag } = await registeredPayee(database.db, rpcAt(inject('rpcUrl')));
    const started = Date.now();
    const spent = await counted(async () => {
      for (let i = 0; i < 20; i++) {
        const res = await app.fetch('/v1/payments', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${i}.1` },
          body: JSON.stringify({ tag, amount: '0.1', asset: 'SOL' }),
        });
        expect(await drain(res)).toBe(200);
      }
    });
    // The record and the wallet are read together, kept 1.5 s (lib/chain/payee-on-chain.ts).
    expect(spent.getMultipleAccounts).toBeGreaterThanOrEqual(1);
    expect(spent.getMultipleAccounts).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 1_500) + 1);
    expect(Object.keys(spent).filter((m) => m !== 'getMultipleAccounts')).toEqual([]);
  });
});
