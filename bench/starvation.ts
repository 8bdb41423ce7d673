// Heavy readers against the cheap route: /api/health's latency idle, under 64 feed readers
// (each its own address, within its 120-a-minute budget) and under a crawl of share images,
// on an app of its own (the stack's PostgreSQL and localnet, the production build, the
// default rate limits, X-Forwarded-For trusted one hop as behind a proxy). The readers and
// crawlers run at the lowest CPU priority, as if on other machines (bench/starvation-load.ts).
//   npm run bench -- starvation
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp } from '@/devstack/app';
import { openDb } from '@/lib/db/client';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { seedBenchProfiles } from './seed';
import type { StarvationLoad } from './starvation-load';

const LOAD_SCRIPT = 'bench/starvation-load.ts';

/** The issue's target: health p95 under load within 5× of idle. */
const TARGET_P95_RATIO = 5;
/** The load: each phase's length, the readers and the crawlers, and what they read. */
const LOAD = {
  /** A phase: 30 s of health checks (about 600 at idle), so that one p95 is not a handful of samples. */
  seconds: 30,
  feedReaders: 64,
  /** Each reader's pause between pages: its 120-a-minute budget (the `feed` bucket). */
  feedReaderPauseMs: 500,
  ogCrawlers: 8,
  /** Tags the crawl goes round: a crawler re-reads the images of the profiles it follows. */
  ogTags: 50,
  profiles: 500,
  feedRounds: 10,
} as const;

interface Latencies {
  p50: number;
  p95: number;
  n: number;
}

/**
 * Health checked one after another for `seconds`, from a process of its own: the load
 * generator's event loop (reading 64 pages of up to 1 MiB) must not be what is measured.
 */
async function sampleHealth(appUrl: string, seconds: number): Promise<Latencies> {
  const script = `
    const times = [];
    const until = Date.now() + ${seconds * 1000};
    while (Date.now() < until) {
      const started = performance.now();
      const res = await fetch(${JSON.stringify(`${appUrl}/api/health`)});
      await res.arrayBuffer();
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
    process.stdout.write(JSON.stringify(times));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const times = (await printedJson<number[]>(child, 'health sampler')).sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), n: times.length };
}

/**
 * Starts `load` in a process of its own at the lowest CPU priority (bench/starvation-load.ts
 * says why); `end()` stops it and answers its answers, counted by status.
 */
function startLoad(load: StarvationLoad) {
  const child = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', LOAD_SCRIPT, JSON.stringify(load)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers = printedJson<Record<string, number>>(child, `${load.kind} load`);
  answers.catch(() => {}); // awaited by end(); a load that fails early must not be an unhandled rejection
  return {
    end(): Promise<Record<string, number>> {
      child.stdin.end();
      return answers;
    },
  };
}

/** What `child` prints on its standard output, as JSON, once it has exited 0; else fails naming `name`. */
function printedJson<T>(child: ChildProcess, name: string): Promise<T> {
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise<T>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${name} exited ${code}`)),
    ),
  );
}

export async function benchStarvation({ databaseUrl, rpcUrl }: { databaseUrl: string; rpcUrl: string }) {
  const tags = await seedBenchProfiles(databaseUrl, LOAD.profiles);
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 2 });
  try {
    for (let round = 0; round < LOAD.feedRounds; round++) {
      for (let i = 0; i < tags.length; i += 100)
        await db.transaction((tx) => recordIdentityChanges(tx, tags.slice(i, i + 100), new Date()));
    }
  } finally {
    await close();
  }
  // The app's log goes to a file, as a log collector would take it: the load generator must not also read it.
  const logDir = mkdtempSync(path.join(tmpdir(), 'starvation-'));
  const app = await startApp(
    {
      DATABASE_URL: databaseUrl,
      SOLANA_RPC_URL: rpcUrl,
      CLIENT_ADDRESS_SOURCE: 'proxy',
      TRUSTED_PROXY_HOPS: '1',
      INDEXER_INTERVAL_SECONDS: '0',
      WEBHOOK_INTERVAL_SECONDS: '0',
    },
    { logFile: path.join(logDir, 'app.log') },
  );
  try {
    await sampleHealth(app.url, 2); // warm up
    const idle = await sampleHealth(app.url, LOAD.seconds);

    const readers = startLoad({
      kind: 'feed',
      appUrl: app.url,
      count: LOAD.feedReaders,
      pauseMs: LOAD.feedReaderPauseMs,
    });
    const underFeed = await sampleHealth(app.url, LOAD.seconds);
    const readerAnswers = await readers.end();

    const crawlers = startLoad({
      kind: 'og',
      appUrl: app.url,
      count: LOAD.ogCrawlers,
      tags: tags.slice(0, LOAD.ogTags),
    });
    const underCrawl = await sampleHealth(app.url, LOAD.seconds);
    const crawlerAnswers = await crawlers.end();

    const row = (name: string, l: Latencies, statuses?: Record<string, number>) =>
      `| ${name} | ${l.p50} | ${l.p95} | ${(l.p95 / idle.p95).toFixed(1)}× | ${l.n} | ${
        statuses
          ? Object.entries(statuses)
              .map(([s, n]) => `${s}: ${n}`)
              .join(', ')
          : '—'
      } |`;
    console.log(
      `\n## Health under heavy readers (production build, PostgreSQL; target: p95 within ${TARGET_P95_RATIO}× of idle)\n`,
    );
    console.log('| load | health p50 ms | health p95 ms | p95 / idle | samples | the load’s answers |');
    console.log('|---|---|---|---|---|---|');
    console.log(row('idle', idle));
    console.log(
      row(`${LOAD.feedReaders} feed readers, pages of 1,000, each from its own address`, underFeed, readerAnswers),
    );
    console.log(
      row(`${LOAD.ogCrawlers} share-image crawlers going round ${LOAD.ogTags} tags`, underCrawl, crawlerAnswers),
    );
  } finally {
    await app.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
}
