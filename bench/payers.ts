// Payer-safety benchmark: GET /v1/identity/{tag}/signals against the trivial route of the same
// build, side by side in one run (target ≥ 85%, as identity reads), with GET /v1/identity beside
// it for reference; and register's availability check with look-alikes over one million tags
// (seeded with generate_series in a database of its own; target p95 < 5 ms).
//   npm run bench -- payers
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { address } from '@solana/kit';
import { createKitClient, RPC_TIMEOUT_MS } from '@/lib/chain/rpc';
import { createDatabase } from '@/devstack/postgres';
import { openDb } from '@/lib/db/client';
import { executePrepared } from '@/lib/db/rows';
import { findSkeletonMates, SKELETON_MATES_SQL } from '@/lib/features/identity/lookalikes';
import { skeletonOf } from '@/lib/core/skeleton';
import { moderate } from '@/lib/features/identity/moderation';
import { checkTag } from '@/lib/features/registry/availability';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { compareRoutes } from './measure';
import { seedBenchProfiles } from './seed';

const SIGNALS_TARGET = 0.85;
const TAGS = 1_000_000;
const CHECKS = 2000;
const P95_TARGET_MS = 5;

export async function benchPayers({
  appUrl,
  databaseUrl,
  rpcUrl,
}: {
  appUrl: string;
  databaseUrl: string;
  rpcUrl: string;
}) {
  const tags = await seedBenchProfiles(databaseUrl, 500);
  let next = 0;
  const get = (name: string, path: string) => ({ name, load: () => ({ name, url: `${appUrl}${path}` }) });
  const names = { one: 'GET /v1/identity/{tag}/signals, one tag', spread: 'GET /v1/identity/{tag}/signals, 500 tags' };
  await compareRoutes({
    title: 'Signals for payers (production build, 10 connections)',
    baseline: get('GET /api/health (trivial)', '/api/health'),
    routes: [
      get(names.one, `/v1/identity/${tags[0]}/signals`),
      {
        name: names.spread,
        load: () => ({
          name: 'spread',
          url: `${appUrl}/v1/identity/${tags[0]}/signals`,
          nextPath: () => `/v1/identity/${tags[next++ % tags.length]}/signals`,
        }),
      },
      get('GET /v1/identity/{tag}, one tag (reference)', `/v1/identity/${tags[0]}`),
    ],
    targets: { [names.one]: SIGNALS_TARGET, [names.spread]: SIGNALS_TARGET },
  });
  await benchAvailabilityAtScale({ databaseUrl, rpcUrl });
}

/**
 * One million tags in a database of the bench's own: tags `u<hex>` and, every 1,000th, a
 * verified `shop<n>` with a look-alike `5hop<n>` beside it. Then `CHECKS` availability checks of
 * tags that hit a look-alike, tags that are taken, and fresh tags, one at a time.
 */
export async function benchAvailabilityAtScale({ databaseUrl, rpcUrl }: { databaseUrl: string; rpcUrl: string }) {
  const url = await createDatabase(databaseUrl);
  const { db, close } = await openDb({ driver: 'node-postgres', url }, { poolSize: 2 });
  try {
    const seeded = performance.now();
    // On a connection of its own: the app's handles stop a statement after STATEMENT_TIMEOUT_MS (lib/db/client.ts).
    const seeder = new pg.Client({ connectionString: url });
    await seeder.connect();
    try {
      await seeder.query(`
        INSERT INTO identities (tag, pda, owner, wallet, created_at, signature, slot, verified)
        SELECT CASE WHEN i % 1000 = 0 THEN 'shop' || i WHEN i % 1000 = 1 THEN 'bob' || i ELSE 'u' || substr(md5(i::text), 1, 14) END,
               'seed-pda-' || i, md5(i::text), md5(i::text), now(), md5(i::text), 1, i % 1000 = 0
        FROM generate_series(1, ${TAGS}) AS i`);
      await seeder.query('ANALYZE identities');
    } finally {
      await seeder.end();
    }
    const seedSeconds = (performance.now() - seeded) / 1000;
    await moderate(db, 'bob1001', 'verify'); // through the moderation path too: one more protected tag

    const { rpc } = createKitClient(rpcUrl, RPC_TIMEOUT_MS);
    const programAddress = address(LOCALNET_PROGRAM_ID);
    const probe = (i: number): string => {
      const n = (i % 900) * 1000;
      switch (i % 4) {
        case 0:
          return `5hop${n + 1000}`; // a look-alike of a verified tag: refused
        case 1:
          return `b0b${n + 1}`; // a look-alike of a plain tag: warned
        case 2:
          return `u${(i * 7919).toString(16).padStart(8, '0')}zz`; // fresh
        default:
          return `shop${n + 1000}`; // taken
      }
    };
    const mirror: number[] = [];
    const whole: number[] = [];
    const inDatabase: number[] = [];
    for (let i = 0; i < CHECKS; i++) {
      const tag = probe(i);
      let t = performance.now();
      await findSkeletonMates(db, tag);
      mirror.push(performance.now() - t);
      t = performance.now();
      await checkTag(db, rpc, programAddress, tag);
      whole.push(performance.now() - t);
      // PostgreSQL's own execution time of the same statement: the part the index decides, apart from this VM's scheduling.
      const [plan] = await executePrepared<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>(
        db,
        'bench_skeleton_mates_plan',
        `EXPLAIN (ANALYZE, FORMAT JSON) ${SKELETON_MATES_SQL}`,
        [skeletonOf(tag), tag],
      );
      inDatabase.push(plan!['QUERY PLAN'][0]['Execution Time']);
    }
    const row = (name: string, xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
      const p95 = at(0.95);
      return `| ${name} | ${at(0.5).toFixed(2)} | ${p95.toFixed(2)} | ${at(0.99).toFixed(2)} | < ${P95_TARGET_MS} ms ${p95 < P95_TARGET_MS ? 'met' : 'NOT MET'} |`;
    };
    console.log(
      `\n## Availability with look-alikes over ${TAGS.toLocaleString('en')} tags — ${CHECKS} checks, one at a time (seeded in ${seedSeconds.toFixed(0)} s; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
    );
    console.log('| check | p50 ms | p95 ms | p99 ms | target (p95) |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(row('the mirror (own row and look-alikes, one statement on the skeleton index)', mirror));
    console.log(row('register’s whole check (mirror, then the record on chain when the mirror allows)', whole));
    console.log(row('the mirror statement inside PostgreSQL (EXPLAIN ANALYZE execution time)', inDatabase));
  } finally {
    await close();
  }
}
