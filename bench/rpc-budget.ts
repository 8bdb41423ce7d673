// RPC calls per public request, counted at a proxy in front of the cluster
// (docs/operating-rpc.md): reverse lookups answering 404, readiness, the indexer's status and
// the pay Action's GET naming a mint.
//   npm run bench -- rpc
import { randomBytes } from 'node:crypto';
import { generateKeyPairSigner, getAddressDecoder } from '@solana/kit';
import { startApp } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { openDb } from '@/lib/db/client';
import { startRpcProxy, type RpcCall } from '@/tests/support/rpc-proxy';
import { BENCH_APP_ENV } from './app-env';

const REQUESTS = 200;
/** Callers at once: a flood, as the red team sent. */
const CONCURRENCY = 20;

export async function benchRpcBudget({ databaseUrl, rpcUrl }: { databaseUrl: string; rpcUrl: string }) {
  const calls = new Map<string, number>();
  const proxy = await startRpcProxy(rpcUrl, (request) => {
    for (const call of [request ?? []].flat() as RpcCall[])
      calls.set(call.method ?? '?', (calls.get(call.method ?? '?') ?? 0) + 1);
    return undefined;
  });
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 2 });
  const { tag } = await insertIdentity(db, { preferredToken: (await generateKeyPairSigner()).address });
  await close();
  const app = await startApp({
    DATABASE_URL: databaseUrl,
    SOLANA_RPC_URL: proxy.url,
    INDEXER_INTERVAL_SECONDS: '0',
    WEBHOOK_INTERVAL_SECONDS: '0',
    ...BENCH_APP_ENV,
  });
  try {
    const routes: [string, () => string][] = [
      ['GET /v1/reverse/{address} → 404', () => `/v1/reverse/${getAddressDecoder().decode(randomBytes(32))}`],
      ['GET /api/ready', () => '/api/ready'],
      ['GET /api/indexer/status', () => '/api/indexer/status'],
      ['GET /api/actions/pay/{tag}, a mint named', () => `/api/actions/pay/${tag}`],
    ];
    console.log(`\n## RPC calls per request (${REQUESTS} requests, ${CONCURRENCY} at once, counted at a proxy)\n`);
    console.log('| route | requests | seconds | RPC calls | per request | by method |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, path] of routes) {
      calls.clear();
      const started = performance.now();
      let sent = 0;
      const statuses = new Map<number, number>();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (sent < REQUESTS) {
            sent += 1;
            const res = await fetch(`${app.url}${path()}`);
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            await res.arrayBuffer();
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const total = [...calls.values()].reduce((a, b) => a + b, 0);
      const byMethod = [...calls].map(([m, n]) => `${m} ${n}`).join(', ') || '—';
      console.log(
        `| ${name} | ${REQUESTS} (${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}) | ${seconds.toFixed(1)} | ${total} | ${(total / REQUESTS).toFixed(3)} | ${byMethod} |`,
      );
    }
  } finally {
    await app.stop();
    await proxy.close();
  }
}
