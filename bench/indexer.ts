// npx tsx bench/indexer.ts [appUrl rpcUrl] — indexer throughput, and confirmation → identity
// latency through /v1/sync and through the cron route. Needs a production build (npm run build)
// unless an app URL (and the RPC URL it uses) is given.
import { pathToFileURL } from 'node:url';
import { address, lamports, type RpcTransport, type Signature } from '@solana/kit';
import { createKitClient, RPC_TIMEOUT_MS, type SolanaRpc } from '@/lib/chain/rpc';
import { openDb } from '@/lib/db/client';
import { INDEXER_FETCH_BATCH } from '@/lib/features/indexer/fetch-transactions';
import { runIndexer } from '@/lib/features/indexer/run-indexer';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { startApp, TEST_CRON_SECRET } from '@/devstack/app';
import { startLocalnetProcess } from '@/devstack/localnet';
import { createDatabase, startPostgres } from '@/devstack/postgres';
import { reconcileMirror } from '@/lib/features/indexer/reconcile';
import { lifecycleBacklog, type LifecycleMix } from './lifecycle-backlog';
import { newNodeSigner, nodeSignedWire, type NodeSigner } from './node-key';
import { liftedRateLimits } from '@/devstack/rate-limits';
import { reachAll } from '@/tests/support/chain';

const PROGRAM_ID = address(LOCALNET_PROGRAM_ID);
/** How often the cron route runs: Vercel cron as vercel.json schedules it (every minute), and scripts/serve.ts's default. */
const CRON_SCHEDULES = [
  { name: 'vercel', label: 'Vercel cron', intervalSeconds: 60 },
  { name: 'serve', label: 'npm start,', intervalSeconds: 15 },
] as const;
/** finalized → identity via POST /v1/sync (p95), and the indexer's throughput on a backlog of mixed lifecycle transactions. */
const TARGETS = { syncMs: 1000, lifecyclePerSecond: 500 };

export interface IndexerBenchResult {
  backlog: number;
  runSeconds: number;
  indexedPerSecond: number;
  lifecycle: { backlog: number; mix: LifecycleMix; runSeconds: number; transactionsPerSecond: number };
  syncMs: { p50: number; p95: number; max: number };
  cronRunMs: number;
  cronExpectedWaitMs: Record<(typeof CRON_SCHEDULES)[number]['name'], number>;
}

/** The cluster at a URL as the bench uses it: kit's RPC, the transport under it (batches), the URL. */
interface BenchChain {
  url: string;
  rpc: SolanaRpc;
  transport: RpcTransport;
}

function chainAt(url: string): BenchChain {
  return { url, ...createKitClient(url, RPC_TIMEOUT_MS) };
}

async function funded(chain: BenchChain): Promise<NodeSigner> {
  const owner = newNodeSigner();
  const signature = await chain.rpc.requestAirdrop(owner.address, lamports(1_000_000_000_000n)).send();
  await waitFor(chain, [signature], 'confirmed');
  return owner;
}

/** Waits until every signature reaches `commitment`; a transaction that failed stops the bench. */
function waitFor(chain: BenchChain, signatures: string[], commitment: 'confirmed' | 'finalized'): Promise<void> {
  return reachAll(chain.rpc, signatures, commitment, 120_000, { refuseFailed: true });
}

/** `count` registrations by one owner, `inFlight` at once; resolves with the tags once finalized. */
async function registerBacklog(chain: BenchChain, owner: NodeSigner, prefix: string, count: number, inFlight = 16) {
  const tags: string[] = [];
  const signatures: string[] = [];
  let { value: latest } = await chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  let latestAt = 0;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // One block per transaction on localnet; a blockhash lives 150 blocks.
      if (i - latestAt >= 100) {
        latestAt = i;
        latest = (await chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
      }
      const tag = `${prefix}${i}`;
      const instruction = registerTagInstruction({
        programAddress: PROGRAM_ID,
        tag,
        owner: owner.address,
        wallet: owner.address,
        feePayer: owner.address,
      });
      const wire = nodeSignedWire([instruction], owner, latest);
      signatures.push(await chain.rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true }).send());
      tags.push(tag);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  await waitFor(chain, signatures, 'finalized');
  return { tags, signatures };
}

/** The cluster side of a run alone: listing the backlog and fetching every transaction. */
async function fetchOnlySeconds(chain: BenchChain, count: number): Promise<number> {
  const t0 = performance.now();
  const signatures: string[] = [];
  let before: Signature | undefined;
  while (signatures.length < count) {
    const page = await chain.rpc
      .getSignaturesForAddress(PROGRAM_ID, { limit: 1000, commitment: 'finalized', ...(before ? { before } : {}) })
      .send();
    if (!page.length) break;
    signatures.push(...page.map((p) => p.signature));
    before = page[page.length - 1]!.signature;
  }
  // As the indexer reads them: JSON-RPC batches, a few in flight.
  const batches: string[][] = [];
  for (let i = 0; i < signatures.length; i += INDEXER_FETCH_BATCH.size)
    batches.push(signatures.slice(i, i + INDEXER_FETCH_BATCH.size));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const payload = batches[next++]!.map((signature, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'getTransaction',
        params: [signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 1 }],
      }));
      await chain.transport({ payload });
    }
  };
  await Promise.all(Array.from({ length: INDEXER_FETCH_BATCH.inFlight }, worker));
  return (performance.now() - t0) / 1000;
}

function quantiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), max: at(1) };
}

async function untilIdentity(appUrl: string, tag: string): Promise<void> {
  const res = await fetch(`${appUrl}/v1/identity/${tag}`);
  if (res.status !== 200) throw new Error(`GET /v1/identity/${tag}: ${res.status}`);
}

/**
 * (a) registrations indexed per second by one runIndexer call over a localnet backlog of
 * `backlog` registrations, against a real PostgreSQL; (b) confirmation (finalized) → GET
 * /v1/identity 200 through POST /v1/sync, and through the cron route at its schedule
 * (expected wait = interval / 2 + one run's time).
 */
export async function benchIndexer(
  ctx: {
    appUrl?: string;
    rpcUrl?: string;
    databaseUrl?: string;
    backlog?: number;
    syncSamples?: number;
    cronSecret?: string;
  } = {},
): Promise<IndexerBenchResult> {
  const backlog = ctx.backlog ?? 2000;
  const stops: (() => Promise<void>)[] = [];
  try {
    const localnet = await startLocalnetProcess();
    stops.unshift(() => localnet.close());
    let serverUrl = ctx.databaseUrl;
    if (!serverUrl) {
      const pgServer = await startPostgres();
      stops.unshift(() => pgServer.stop());
      serverUrl = pgServer.url;
    }

    // (a) throughput
    const local = chainAt(localnet.url);
    const owner = await funded(local);
    const built = performance.now();
    await registerBacklog(local, owner, `b${Date.now().toString(36)}_`, backlog);
    const buildSeconds = (performance.now() - built) / 1000;
    const { summary, runSeconds } = await indexIntoFreshDatabase(serverUrl, local, stops);
    if (summary.indexed !== backlog) throw new Error(`indexed ${summary.indexed} of ${backlog}`);
    const indexedPerSecond = Math.round(summary.indexed / runSeconds);
    console.log(`\n## indexer`);
    console.log(`backlog: ${backlog} registrations built in ${buildSeconds.toFixed(1)} s`);
    console.log(
      `(a) one runIndexer call: ${summary.indexed} indexed in ${runSeconds.toFixed(2)} s → ${indexedPerSecond} registrations/s`,
    );
    const rpcOnly = await fetchOnlySeconds(local, backlog);
    console.log(
      `    the RPC side alone (list, then getTransaction in batches of ${INDEXER_FETCH_BATCH.size}, ${INDEXER_FETCH_BATCH.inFlight} in flight, no database): ${rpcOnly.toFixed(2)} s`,
    );

    // (c) a backlog of mixed lifecycle transactions, on a localnet of its own
    const lifecycle = await benchLifecycleBacklog(serverUrl, backlog, stops);

    // (b) confirmation → identity
    let appUrl = ctx.appUrl;
    let rpcUrl = ctx.rpcUrl;
    if (!appUrl || !rpcUrl) {
      const app = await startApp({
        DATABASE_URL: await createDatabase(serverUrl),
        SOLANA_RPC_URL: localnet.url,
        RATE_LIMITS: liftedRateLimits(['sync'], 100_000_000),
      });
      stops.unshift(() => app.stop());
      appUrl = app.url;
      rpcUrl = localnet.url;
    }
    const cronHeaders = { authorization: `Bearer ${ctx.cronSecret ?? TEST_CRON_SECRET}` };
    const chain = chainAt(rpcUrl);
    const payer = await funded(chain);
    // Drain whatever backlog the app's chain has, so the cron figure is the steady state.
    for (;;) {
      const drained = (await (await fetch(`${appUrl}/api/cron/indexer`, { headers: cronHeaders })).json()) as {
        more?: boolean;
        status?: string;
      };
      if (!drained.more && drained.status === 'completed') break;
    }
    const samples = ctx.syncSamples ?? 20;
    const prefix = `s${Date.now().toString(36)}_`;
    const syncMs: number[] = [];
    for (let i = 0; i < samples + 2; i++) {
      const { tags, signatures } = await registerBacklog(chain, payer, `${prefix}${i}_`, 1, 1);
      const started = performance.now();
      const res = await fetch(`${appUrl}/v1/sync`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ signature: signatures[0] }),
      });
      if (res.status !== 200) throw new Error(`sync: ${res.status} ${await res.text()}`);
      await untilIdentity(appUrl, tags[0]!);
      if (i >= 2) syncMs.push(performance.now() - started); // two warm-ups
    }
    const cronRuns: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { tags } = await registerBacklog(chain, payer, `c${prefix}${i}_`, 1, 1);
      const started = performance.now();
      const res = await fetch(`${appUrl}/api/cron/indexer`, { headers: cronHeaders });
      if (res.status !== 200) throw new Error(`cron: ${res.status} ${await res.text()}`);
      await untilIdentity(appUrl, tags[0]!);
      if (i >= 2) cronRuns.push(performance.now() - started);
    }
    const cronRunMs = quantiles(cronRuns).p50;
    const result: IndexerBenchResult = {
      backlog,
      runSeconds: Math.round(runSeconds * 100) / 100,
      indexedPerSecond,
      lifecycle,
      syncMs: quantiles(syncMs),
      cronRunMs,
      cronExpectedWaitMs: Object.fromEntries(
        CRON_SCHEDULES.map(({ name, intervalSeconds }) => [name, Math.round((intervalSeconds * 1000) / 2 + cronRunMs)]),
      ) as IndexerBenchResult['cronExpectedWaitMs'],
    };
    const verdict = result.syncMs.p95 < TARGETS.syncMs ? 'met' : 'MISSED';
    console.log(`(b) finalized → GET /v1/identity 200:`);
    console.log(
      `  via POST /v1/sync: p50 ${result.syncMs.p50} ms, p95 ${result.syncMs.p95} ms, max ${result.syncMs.max} ms (${samples} samples; target < ${TARGETS.syncMs} ms: ${verdict})`,
    );
    console.log(`  via the cron route: one run ${cronRunMs} ms; expected wait = interval / 2 + run:`);
    for (const { name, label, intervalSeconds } of CRON_SCHEDULES) {
      console.log(`    ${label} every ${intervalSeconds} s: ${(result.cronExpectedWaitMs[name] / 1000).toFixed(1)} s`);
    }
    return result;
  } finally {
    for (const stop of stops) await stop().catch(() => {});
  }
}

/** The localnet's program on `chain` as the indexer takes it (lib/chain/chain-and-mirror.ts). */
function kitChain({ url, rpc, transport }: BenchChain) {
  return { rpc, transport, rpcUrl: url, programAddress: PROGRAM_ID };
}

/** One runIndexer call over everything the program has on `chain`, into a fresh database, timed. */
async function indexIntoFreshDatabase(serverUrl: string, chain: BenchChain, stops: (() => Promise<void>)[]) {
  const handle = await openDb({ driver: 'node-postgres', url: await createDatabase(serverUrl) }, { poolSize: 10 });
  stops.unshift(() => handle.close());
  const started = performance.now();
  const summary = await runIndexer({
    db: handle.db,
    ...kitChain(chain),
    maxTransactions: 1_000_000,
    pageSize: 1000,
    now: new Date(),
  });
  return { handle, summary, runSeconds: (performance.now() - started) / 1000 };
}

/**
 * One runIndexer call over `backlog` successful lifecycle transactions (registrations, wallet
 * changes, offers, cancels, accepts, releases and registrations again) on a fresh database;
 * the mirror is then checked against getProgramAccounts (reconcile finds nothing).
 */
export async function benchLifecycleBacklog(
  serverUrl: string,
  backlog: number,
  stops: (() => Promise<void>)[],
): Promise<IndexerBenchResult['lifecycle']> {
  const localnet = await startLocalnetProcess();
  stops.unshift(() => localnet.close());
  const local = chainAt(localnet.url);
  const built = performance.now();
  const { mix } = await lifecycleBacklog(local.rpc, PROGRAM_ID, {
    total: backlog,
    tags: 100,
    prefix: `l${Date.now().toString(36)}_`,
    waitFinalized: (signatures) => waitFor(local, signatures, 'finalized'),
  });
  const buildSeconds = (performance.now() - built) / 1000;
  const { handle, summary, runSeconds } = await indexIntoFreshDatabase(serverUrl, local, stops);
  if (summary.processed < backlog) throw new Error(`processed ${summary.processed} of ${backlog}`);
  const report = await reconcileMirror({
    db: handle.db,
    ...kitChain(local),
    repair: false,
    now: new Date(),
  });
  if (report.differences.length)
    throw new Error(`the mirror differs from the chain after the run: ${JSON.stringify(report.differences[0])}`);
  const transactionsPerSecond = Math.round(summary.processed / runSeconds);
  const verdict = transactionsPerSecond >= TARGETS.lifecyclePerSecond ? 'met' : 'MISSED';
  console.log(
    `(c) mixed lifecycle backlog: ${backlog} transactions built in ${buildSeconds.toFixed(1)} s (${Object.entries(mix)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')})`,
  );
  console.log(
    `    one runIndexer call: ${summary.processed} processed (${summary.indexed} created, ${summary.updated} updated, ${summary.removed} removed) in ${runSeconds.toFixed(2)} s → ${transactionsPerSecond} tx/s (target ≥ ${TARGETS.lifecyclePerSecond}: ${verdict}); mirror equals chain`,
  );
  return { backlog, mix, runSeconds: Math.round(runSeconds * 100) / 100, transactionsPerSecond };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [appUrl, rpcUrl] = process.argv.slice(2);
  benchIndexer({ appUrl, rpcUrl }).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
