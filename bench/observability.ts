// The cost of metrics and logging on the hot path: POST /v1/auth/challenge, GET
// /v1/identity/{tag} and the trivial route, each served by two instances of the same build on
// the same database, one observing (request id, metrics, a log line per request) and one with
// OBSERVABILITY=off, measured in turn in one run (issue: under 5% on each).
// Two instances of one build differ by up to ±5% on their own (where the JIT and the heap
// happened to land), which would fall wholly on one side of the ratio: so the run starts
// PAIRS pairs in turn, fresh, each measured over its rounds, and the overhead is the median
// over every round of every pair.
// Each instance writes its log to a file, as `npm start >> file` or a collector would take
// it, not to a pipe this process reads: this process generates the load, and must not also
// do the log collector's work on the same two cores. The line count is checked against the
// requests served, so a run where the lines stopped cannot pass.
// Besides throughput, each instance's CPU time per request (from /proc, both sides of every
// round): on a machine others share, throughput moves with their load, while CPU time per
// request mostly does not.
// `observability-vercel` measures the same with each instance a bare `next start` as Vercel
// runs it (VERCEL=1), where each log line is written as it comes rather than buffered.
//   npm run bench -- observability
//   npm run bench -- observability-vercel
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import bs58 from 'bs58';
import { startApp, startBareNext, VERCEL_EDGE_HEADERS, type RunningApp } from '@/devstack/app';
import type { Stack } from '@/devstack/stack';
import { BENCH_APP_ENV } from './app-env';
import { measure, median, type LoadResult, type LoadSpec } from './measure';
import { seedBenchProfile } from './seed';

const TARGET_OVERHEAD = 0.05;
const PAIRS = 3;
const ROUNDS_PER_PAIR = 6;
const ROUND_SECONDS = 1.5;

/** The CPU time (user + system, µs) a process has used, from /proc; null where there is none. */
function cpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
/** Linux's USER_HZ, which /proc/<pid>/stat counts in. */
const CLOCK_TICKS_PER_SECOND = 100;

type Measured = LoadResult & { cpuMicrosPerRequest: number | null };

/** One load run against `app`, with the CPU time the app used per request answered. */
async function measureWithCpu(app: RunningApp, spec: LoadSpec): Promise<Measured> {
  const before = cpuMicros(app.pid);
  const result = await measure(spec);
  const after = cpuMicros(app.pid);
  return {
    ...result,
    cpuMicrosPerRequest:
      before === null || after === null || result.requests === 0 ? null : (after - before) / result.requests,
  };
}

function pubkey(): string {
  const x = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
  return bs58.encode(Buffer.from(x, 'base64url'));
}

type Route = { name: string; load: (app: RunningApp) => LoadSpec };
/** How each instance is served: `npm start` (our server), or a bare `next start` as on Vercel. */
type Shape = 'npm-start' | 'vercel';
type Rounds = { on: Measured[]; off: Measured[] };

/** One pair of fresh instances, measured over ROUNDS_PER_PAIR rounds of every route; `observedFirst` starts the observing one first. */
async function measurePair(
  shape: Shape,
  env: Record<string, string>,
  routes: Route[],
  observedFirst: boolean,
  logDir: string,
  pair: number,
): Promise<Rounds[]> {
  const logFile = (side: 'on' | 'off') => path.join(logDir, `pair-${pair}-${side}.log`);
  const serve = shape === 'vercel' ? startBareNext : startApp;
  const start = (side: 'on' | 'off') =>
    serve(side === 'on' ? env : { ...env, OBSERVABILITY: 'off' }, { logFile: logFile(side) });
  const first = await start(observedFirst ? 'on' : 'off');
  const second = await start(observedFirst ? 'off' : 'on').catch(async (err) => {
    await first.stop();
    throw err;
  });
  const [observed, bare] = observedFirst ? [first, second] : [second, first];
  const results = routes.map((): Rounds => ({ on: [], off: [] }));
  let served = 0; // requests the observing instance answered, each of which must have its line
  try {
    for (const route of routes)
      for (const app of [observed, bare]) {
        const warmUp = await measure({ ...route.load(app), durationSeconds: 1 });
        if (app === observed) served += warmUp.requests;
      }
    for (let round = 0; round < ROUNDS_PER_PAIR; round++) {
      for (const [i, route] of routes.entries()) {
        // which instance goes first alternates, so the machine's drift falls on both alike
        const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const side of order) {
          const app = side === 'on' ? observed : bare;
          results[i]![side].push(await measureWithCpu(app, { ...route.load(app), durationSeconds: ROUND_SECONDS }));
        }
      }
    }
  } finally {
    await Promise.all([observed.stop(), bare.stop()]); // a stopped server has written every line
  }
  served += results.reduce((n, r) => n + r.on.reduce((m, x) => m + x.requests, 0), 0);
  const lines = readFileSync(logFile('on'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"msg":"request"')).length;
  if (lines < served) throw new Error(`the observing instance wrote ${lines} request lines for ${served} requests`);
  return results;
}

export async function benchObservability({ databaseUrl, rpcUrl }: Stack, shape: Shape = 'npm-start') {
  const tag = await seedBenchProfile(databaseUrl);
  const env = { ...BENCH_APP_ENV, DATABASE_URL: databaseUrl, SOLANA_RPC_URL: rpcUrl };
  const challengeBody = JSON.stringify({ pubkey: pubkey() });
  const headers: Record<string, string> = shape === 'vercel' ? { ...VERCEL_EDGE_HEADERS } : {};
  const routes: Route[] = [
    { name: 'GET /api/health (trivial)', load: (app) => ({ name: 'trivial', url: `${app.url}/api/health`, headers }) },
    {
      name: 'GET /v1/identity/{tag}',
      load: (app) => ({ name: 'identity', url: `${app.url}/v1/identity/${tag}`, headers }),
    },
    {
      name: 'POST /v1/auth/challenge',
      load: (app) => ({
        name: 'challenge',
        url: `${app.url}/v1/auth/challenge`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: challengeBody,
      }),
    },
  ];
  const logDir = mkdtempSync(path.join(tmpdir(), 'bench-observability-'));
  const pairs: Rounds[][] = [];
  try {
    // each pair started fresh, the observing instance first in every other one
    for (let pair = 0; pair < PAIRS; pair++)
      pairs.push(await measurePair(shape, env, routes, pair % 2 === 0, logDir, pair));
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }

  console.log(
    `\n## Metrics and logging on the hot path (production build, ${shape === 'vercel' ? 'bare `next start` with VERCEL=1, as on Vercel' : '`npm start`'}, 10 connections) — ${PAIRS} pairs of fresh instances, each over ${ROUNDS_PER_PAIR} rounds of ${ROUND_SECONDS} s per instance, ` +
      "the instance with OBSERVABILITY=off and the observing one in turn, logs written to files; overhead = 1 − the median of every round's throughput ratio (each pair's median beside it); " +
      "CPU = the instance's CPU time per request (µs, median of the rounds), CPU overhead = the median of each round's on / off − 1",
  );
  console.log(
    '| route | req/s off | req/s on | p50 ms off | p50 ms on | p99 ms off | p99 ms on | failed | overhead | by pair | range | CPU µs off | CPU µs on | CPU overhead | target |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const overheadsOf = ({ on, off }: Rounds) =>
    on.map((r, round) => 1 - r.requestsPerSecond / off[round]!.requestsPerSecond);
  return routes.map((route, i) => {
    const on = pairs.flatMap((p) => p[i]!.on);
    const off = pairs.flatMap((p) => p[i]!.off);
    const overheads = overheadsOf({ on, off });
    const overhead = median(overheads);
    const byPair = pairs.map((p) => pct(median(overheadsOf(p[i]!)))).join(', ');
    const cpuOn = on.map((r) => r.cpuMicrosPerRequest);
    const cpuOff = off.map((r) => r.cpuMicrosPerRequest);
    const cpuKnown = cpuOn.every((x) => x !== null) && cpuOff.every((x) => x !== null);
    const cpuOverhead = cpuKnown ? median(cpuOn.map((x, round) => x! / cpuOff[round]! - 1)) : null;
    const failed = [...on, ...off].reduce((n, r) => n + r.non2xx + r.errors, 0);
    const verdict = `< ${pct(TARGET_OVERHEAD)} ${overhead < TARGET_OVERHEAD ? 'met' : 'NOT MET'}`;
    const us = (xs: (number | null)[]) => (cpuKnown ? median(xs as number[]).toFixed(0) : '—');
    console.log(
      `| ${route.name} | ${median(off.map((r) => r.requestsPerSecond)).toFixed(0)} | ${median(on.map((r) => r.requestsPerSecond)).toFixed(0)} | ` +
        `${median(off.map((r) => r.p50))} | ${median(on.map((r) => r.p50))} | ${median(off.map((r) => r.p99))} | ${median(on.map((r) => r.p99))} | ` +
        `${failed} | ${pct(overhead)} | ${byPair} | ${pct(Math.min(...overheads))} to ${pct(Math.max(...overheads))} | ` +
        `${us(cpuOff)} | ${us(cpuOn)} | ${cpuOverhead === null ? '—' : pct(cpuOverhead)} | ${verdict} |`,
    );
    return { name: route.name, overhead, cpuOverhead, failed };
  });
}
