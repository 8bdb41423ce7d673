// Heavy readers against the cheap route: /api/health's latency idle, under 64 feed readers
// (each its own address, within its 120-a-minute budget) and under a crawl of share images,
// on an app of its own (the stack's PostgreSQL and localnet, the production build, the
// default rate limits, X-Forwarded-For trusted one hop as behind a proxy).
//   npm run bench -- starvation
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp } from '@/devstack/app';
import { openDb } from '@/lib/db/client';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { seedBenchProfiles } from './seed';

/** The issue's target: health p95 under load within 5× of idle. */
const TARGET_P95_RATIO = 5;
/** The load: each phase's length, the readers and the crawlers, and what they read. */
const LOAD = {
  seconds: 15,
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
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`health sampler exited ${code}`)))),
  );
  const times = (JSON.parse(out) as number[]).sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), n: times.length };
}

/** Runs `client(i)` for each of `count` clients until `stop` is set; counts their answers by status. */
async function clients(
  count: number,
  client: (i: number, answered: (status: number) => void, stopped: () => boolean) => Promise<void>,
) {
  const statuses = new Map<number, number>();
  let stop = false;
  const running = Array.from({ length: count }, (_, i) =>
    client(
      i,
      (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
      () => stop,
    ).catch(() => {}),
  );
  return {
    statuses,
    async end() {
      stop = true;
      await Promise.all(running);
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const addressOf = (i: number) => `10.77.${i >> 8}.${(i % 254) + 1}`;

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

    const readers = await clients(LOAD.feedReaders, async (i, answered, stopped) => {
      let after = '0-0';
      await pause(Math.random() * LOAD.feedReaderPauseMs); // independent readers: they do not start in step
      while (!stopped()) {
        const res = await fetch(`${app.url}/v1/events?after=${after}&limit=1000`, {
          headers: { 'x-forwarded-for': addressOf(i) },
        });
        answered(res.status);
        if (res.status === 200) {
          // `next` from the page's end, without parsing up to 1 MiB here; at the live end (`next` unchanged), from the start again
          const next = /"next":"([0-9-]+)"}$/.exec(await res.text())?.[1] ?? '0-0';
          after = next === after ? '0-0' : next;
        } else await res.arrayBuffer();
        await pause(LOAD.feedReaderPauseMs * (0.5 + Math.random())); // on average its budget's pace, never in step for long
      }
    });
    const underFeed = await sampleHealth(app.url, LOAD.seconds);
    await readers.end();

    const crawlers = await clients(LOAD.ogCrawlers, async (i, answered, stopped) => {
      for (let n = i; !stopped(); n += LOAD.ogCrawlers) {
        const res = await fetch(`${app.url}/profile/${tags[n % LOAD.ogTags]}/opengraph-image`, {
          headers: { 'x-forwarded-for': addressOf(1000 + i) },
        });
        answered(res.status);
        await res.arrayBuffer();
      }
    });
    const underCrawl = await sampleHealth(app.url, LOAD.seconds);
    await crawlers.end();

    const row = (name: string, l: Latencies, statuses?: Map<number, number>) =>
      `| ${name} | ${l.p50} | ${l.p95} | ${(l.p95 / idle.p95).toFixed(1)}× | ${l.n} | ${statuses ? [...statuses].map(([s, n]) => `${s}: ${n}`).join(', ') : '—'} |`;
    console.log(
      `\n## Health under heavy readers (production build, PostgreSQL; target: p95 within ${TARGET_P95_RATIO}× of idle)\n`,
    );
    console.log('| load | health p50 ms | health p95 ms | p95 / idle | samples | the load’s answers |');
    console.log('|---|---|---|---|---|---|');
    console.log(row('idle', idle));
    console.log(
      row(`${LOAD.feedReaders} feed readers, pages of 1,000, each from its own address`, underFeed, readers.statuses),
    );
    console.log(
      row(`${LOAD.ogCrawlers} share-image crawlers going round ${LOAD.ogTags} tags`, underCrawl, crawlers.statuses),
    );
  } finally {
    await app.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
}
