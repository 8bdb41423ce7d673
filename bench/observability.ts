// The cost of metrics and logging on the hot path: POST /v1/auth/challenge, GET
// /v1/identity/{tag} and the trivial route, each served by two instances of the same build on
// the same database, one observing (request id, metrics, a log line per request) and one with
// OBSERVABILITY=off, measured in turn in one run (issue: under 5% on each).
//   npm run bench -- observability
import { generateKeyPairSync } from 'node:crypto';
import bs58 from 'bs58';
import { startApp, type RunningApp } from '@/devstack/app';
import type { Stack } from '@/devstack/stack';
import { BENCH_APP_ENV } from './app-env';
import { measure, median, type LoadResult, type LoadSpec } from './measure';
import { seedBenchProfile } from './seed';

const TARGET_OVERHEAD = 0.05;
const ROUNDS = 10;
const ROUND_SECONDS = 1.5;

function pubkey(): string {
  const x = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
  return bs58.encode(Buffer.from(x, 'base64url'));
}

export async function benchObservability({ databaseUrl, rpcUrl }: Stack) {
  const tag = await seedBenchProfile(databaseUrl);
  const env = { ...BENCH_APP_ENV, DATABASE_URL: databaseUrl, SOLANA_RPC_URL: rpcUrl };
  // started one after the other, each in turn the first (BENCH_OBSERVED_FIRST=0 starts the bare one first)
  const observedFirst = process.env.BENCH_OBSERVED_FIRST !== '0';
  const [observed, bare] = observedFirst
    ? [await startApp(env), await startApp({ ...env, OBSERVABILITY: 'off' })]
    : await startApp({ ...env, OBSERVABILITY: 'off' }).then(async (b) => [await startApp(env), b] as const);
  try {
    const challengeBody = JSON.stringify({ pubkey: pubkey() });
    const routes: { name: string; load: (app: RunningApp) => LoadSpec }[] = [
      { name: 'GET /api/health (trivial)', load: (app) => ({ name: 'trivial', url: `${app.url}/api/health` }) },
      { name: 'GET /v1/identity/{tag}', load: (app) => ({ name: 'identity', url: `${app.url}/v1/identity/${tag}` }) },
      {
        name: 'POST /v1/auth/challenge',
        load: (app) => ({ name: 'challenge', url: `${app.url}/v1/auth/challenge`, method: 'POST', headers: { 'content-type': 'application/json' }, body: challengeBody }),
      },
    ];
    for (const route of routes) for (const app of [observed, bare]) await measure({ ...route.load(app), durationSeconds: 1 }); // warm-up

    const results = routes.map(() => ({ on: [] as LoadResult[], off: [] as LoadResult[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, route] of routes.entries()) {
        // which instance goes first alternates, so the machine's drift falls on both alike
        const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const side of order) {
          const app = side === 'on' ? observed : bare;
          results[i]![side].push(await measure({ ...route.load(app), durationSeconds: ROUND_SECONDS }));
        }
      }
    }

    console.log(
      `\n## Metrics and logging on the hot path (production build, 10 connections) — ${ROUNDS} rounds of ${ROUND_SECONDS} s per instance, ` +
        'the instance with OBSERVABILITY=off and the observing one in turn; overhead = 1 − the median of each round\'s throughput ratio',
    );
    console.log('| route | req/s off | req/s on | p50 ms off | p50 ms on | p99 ms off | p99 ms on | failed | overhead | range | target |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const summaries = routes.map((route, i) => {
      const { on, off } = results[i]!;
      const overheads = on.map((r, round) => 1 - r.requestsPerSecond / off[round]!.requestsPerSecond);
      const overhead = median(overheads);
      const failed = [...on, ...off].reduce((n, r) => n + r.non2xx + r.errors, 0);
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
      const verdict = `< ${pct(TARGET_OVERHEAD)} ${overhead < TARGET_OVERHEAD ? 'met' : 'NOT MET'}`;
      console.log(
        `| ${route.name} | ${median(off.map((r) => r.requestsPerSecond)).toFixed(0)} | ${median(on.map((r) => r.requestsPerSecond)).toFixed(0)} | ` +
          `${median(off.map((r) => r.p50))} | ${median(on.map((r) => r.p50))} | ${median(off.map((r) => r.p99))} | ${median(on.map((r) => r.p99))} | ` +
          `${failed} | ${pct(overhead)} | ${pct(Math.min(...overheads))} to ${pct(Math.max(...overheads))} | ${verdict} |`,
      );
      return { name: route.name, overhead, failed };
    });
    return summaries;
  } finally {
    await Promise.all([observed.stop(), bare.stop()]);
  }
}
