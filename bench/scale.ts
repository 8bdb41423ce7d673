// Scale benchmark: the reads of the identity and integrator sections on a database of 500
// tags and on one of a million (five million feed events), side by side in one run; the
// plans PostgreSQL picks at a million; indexer catch-up on a 20,000-transaction backlog, and
// reconcile over 20,000 records. Memory after 100,000 /@tag views is its own section (memory.ts).
//   npm run bench -- scale
import { address } from '@solana/kit';
import pg from 'pg';
import { startApp, type RunningApp } from '@/devstack/app';
import { startLocalnetProcess } from '@/devstack/localnet';
import { createDatabase, startPostgres } from '@/devstack/postgres';
import { openDb } from '@/lib/db/client';
import { FEED_PAGE_MAX_BYTES, feedPageQuery } from '@/lib/features/feed/read-events';
import { ACTIVE_ROWS_SQL } from '@/lib/features/integrations/batch-resolve';
import { REVERSE_LOOKUP_SQL } from '@/lib/features/integrations/reverse-lookup';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { BENCH_APP_ENV } from './app-env';
import { comparePairs, median, type LoadSpec } from './measure';
import { copyOfBuild, mb, viewAll } from './scale-apps';
import { indexerCatchUp, reconcileOver, registrationBacklog } from './scale-indexer';
import { seedScale, type ScaleShape, type SeedReport } from './scale-seed';

const SMALL: ScaleShape = { identities: 500, events: 2_500 };
const LARGE: ScaleShape = { identities: 1_000_000, events: 5_000_000 };
/** At a million, reads spread over this many tags (and as many addresses), as traffic would. */
const SPREAD = 20_000;
/** /@tag is read over this many distinct tags on both databases, so both are served alike. */
const PROFILE_TAGS = 500;
const FEED_PAGE = 1000;
const BATCH = 100;
/** Runs of each statement per database in the statement table. */
const STATEMENT_RUNS = 300;
const BACKLOG = 20_000;
/** Every read at a million within 10% of the same read at 500 tags; the feed's tail ≥ 80% of its head. */
const TARGETS = { read: 0.9, feedTail: 0.8 };
const PROGRAM_ID = address(LOCALNET_PROGRAM_ID);
/** Both databases share one server, so each read sees the same cache size at 500 tags and at 1M. */
const DATABASE_SERVER = { shared_buffers: '1GB' };

export interface Sample {
  tags: string[];
  addresses: string[];
  /** `after` for the last full page of the feed. */
  feedTail: string;
}

/** Tags and addresses spread over the whole table, and the feed's last page, read from `databaseUrl`. */
export async function sampleOf(databaseUrl: string, count: number): Promise<Sample> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT setseed(0.42)');
    const tags = await client.query<{ tag: string }>(
      `SELECT tag FROM identities WHERE status = 'active' ORDER BY random() LIMIT $1`,
      [count],
    );
    // Owners and payout wallets, as integrators look them up.
    const addresses = await client.query<{ address: string }>(
      `SELECT CASE WHEN wallet <> owner AND random() < 0.5 THEN wallet ELSE owner END AS address
         FROM identities WHERE status = 'active' ORDER BY random() LIMIT $1`,
      [count],
    );
    const tail = await client.query<{ xid: string; id: string }>(
      `SELECT xid::text AS xid, id::text AS id FROM identity_events ORDER BY xid DESC, id DESC OFFSET $1 LIMIT 1`,
      [FEED_PAGE],
    );
    return {
      tags: tags.rows.map((r) => r.tag),
      addresses: addresses.rows.map((r) => r.address),
      feedTail: `${tail.rows[0]!.xid}-${tail.rows[0]!.id}`,
    };
  } finally {
    await client.end();
  }
}

const seconds = (s: number) => `${s.toFixed(1)} s`;

/** The plans of the feed (head, tail), reverse lookup and batch resolve, as PostgreSQL runs them at a million. */
async function explainReads(databaseUrl: string, sample: Sample): Promise<void> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: databaseUrl }, { poolSize: 1 });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [xid, id] = sample.feedTail.split('-');
    const head = feedPageQuery(db, { xid: '0', id: 0 }, FEED_PAGE, FEED_PAGE_MAX_BYTES).toSQL();
    const tail = feedPageQuery(db, { xid: xid!, id: Number(id) }, FEED_PAGE, FEED_PAGE_MAX_BYTES).toSQL();
    const statements: [string, string, unknown[]][] = [
      ['GET /v1/events, head', head.sql, head.params],
      ['GET /v1/events?after=…, tail', tail.sql, tail.params],
      ['GET /v1/reverse/{address}, one address', REVERSE_LOOKUP_SQL, [[sample.addresses[0]]]],
      [
        'GET /v1/reverse/{address}, a wallet shared by hundreds of tags',
        REVERSE_LOOKUP_SQL,
        [[await sharedWallet(client)]],
      ],
      [`POST /v1/resolve, ${BATCH} tags`, ACTIVE_ROWS_SQL, [sample.tags.slice(0, BATCH)]],
    ];
    console.log('\n## Plans at a million identities (EXPLAIN ANALYZE, after one warm run)');
    for (const [name, text, params] of statements) {
      await client.query(text, params);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`,
        params,
      );
      console.log(`\n${name}:\n${rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`);
    }
  } finally {
    await client.end();
    await close();
  }
}

/**
 * Each read's statement alone, timed from a client as a round trip to PostgreSQL: the two
 * databases in turn (500, 1M, 500, …), a different tag or address each time. What the data's
 * size costs where it is paid, without the app's HTTP work around it.
 */
export async function statementTimes(
  small: { url: string; sample: Sample },
  large: { url: string; sample: Sample },
): Promise<void> {
  const { db, close } = await openDb({ driver: 'node-postgres', url: small.url }, { poolSize: 1 });
  const sides = [small, large].map((side) => ({ ...side, client: new pg.Client({ connectionString: side.url }) }));
  for (const side of sides) await side.client.connect();
  try {
    const feed = (tail: boolean) => (sample: Sample) => {
      const [xid, id] = sample.feedTail.split('-');
      const q = feedPageQuery(
        db,
        tail ? { xid: xid!, id: Number(id) } : { xid: '0', id: 0 },
        FEED_PAGE,
        FEED_PAGE_MAX_BYTES,
      ).toSQL();
      return { text: q.sql, values: q.params };
    };
    const pick = (items: string[], i: number) => items[(i * 7919) % items.length]!;
    const statements: [string, (sample: Sample, i: number) => { text: string; values: unknown[] }][] = [
      [
        'identity by tag (the read of GET /v1/identity, /v1/resolve, /@tag)',
        (sm, i) => ({
          text: `SELECT * FROM identities WHERE tag = ANY($1::text[]) AND status = 'active'`,
          values: [[pick(sm.tags, i)]],
        }),
      ],
      [
        `batch resolve, ${BATCH} tags`,
        (sm, i) => ({
          text: ACTIVE_ROWS_SQL,
          values: [Array.from({ length: BATCH }, (_, j) => pick(sm.tags, i * BATCH + j))],
        }),
      ],
      ['reverse lookup, one address', (sm, i) => ({ text: REVERSE_LOOKUP_SQL, values: [[pick(sm.addresses, i)]] })],
      [`feed page of ${FEED_PAGE}, head`, feed(false)],
      [`feed page of ${FEED_PAGE}, tail (after=)`, feed(true)],
    ];
    console.log(
      `\n## Scale: each read's statement alone, a round trip from a client (${STATEMENT_RUNS} each, the two databases in turn, medians)`,
    );
    console.log('| statement | 500 tags | 1M tags | 1M / 500 |');
    console.log('|---|---:|---:|---:|');
    for (const [name, make] of statements) {
      const times: number[][] = [[], []];
      for (let i = 0; i < STATEMENT_RUNS + 10; i++) {
        for (const [k, side] of sides.entries()) {
          const { text, values } = make(side.sample, i);
          const t0 = performance.now();
          await side.client.query({ name: `s${statements.findIndex(([n]) => n === name)}`, text, values });
          if (i >= 10) times[k]!.push(performance.now() - t0); // the first ten warm the cache and plan
        }
      }
      const [a, b] = times.map(median) as [number, number];
      console.log(`| ${name} | ${(a * 1000).toFixed(0)} µs | ${(b * 1000).toFixed(0)} µs | ${(b / a).toFixed(2)}× |`);
    }
  } finally {
    for (const side of sides) await side.client.end();
    await close();
  }
}

async function sharedWallet(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ wallet: string }>(
    `SELECT wallet FROM identities WHERE wallet <> owner GROUP BY wallet ORDER BY count(*) DESC LIMIT 1`,
  );
  return rows[0]!.wallet;
}

/** The read pairs: each route on the 500-tag app (A) and on the million-tag app (B). */
async function readPairs(small: { app: RunningApp; sample: Sample }, large: { app: RunningApp; sample: Sample }) {
  const etag = async (app: RunningApp, tag: string) => {
    const res = await fetch(`${app.url}/v1/identity/${tag}`);
    await res.arrayBuffer();
    const value = res.headers.get('etag');
    if (!value) throw new Error('GET /v1/identity answered no ETag');
    return value;
  };
  const etags = {
    small: await etag(small.app, small.sample.tags[0]!),
    large: await etag(large.app, large.sample.tags[0]!),
  };
  /** A load cycling through `items`, each request the next one. */
  const cycling = (
    app: RunningApp,
    name: string,
    items: string[],
    path: (item: string) => string,
    extra: Partial<LoadSpec> = {},
  ) => {
    let next = 0;
    return () => ({
      name,
      url: `${app.url}${path(items[0]!)}`,
      nextPath: () => path(items[next++ % items.length]!),
      ...extra,
    });
  };
  const batches = (tags: string[]) =>
    Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ tags: Array.from({ length: BATCH }, (_, j) => tags[(i * 7919 + j * 104729) % tags.length]) }),
    );
  const batchLoad = (app: RunningApp, bodies: string[]) => {
    let next = 0;
    return () => ({
      name: 'batch',
      url: `${app.url}/v1/resolve`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      nextBody: () => bodies[next++ % bodies.length]!,
    });
  };
  const profileTags = (s: Sample) => s.tags.slice(0, PROFILE_TAGS);
  const browser = { headers: { 'accept-encoding': 'gzip, deflate, br' } };
  const both = (
    name: string,
    load: (side: { app: RunningApp; sample: Sample }, etag: string) => () => LoadSpec | Promise<LoadSpec>,
    target = TARGETS.read,
  ) => ({
    name,
    a: load(small, etags.small),
    b: load(large, etags.large),
    target,
  });
  return [
    both('GET /v1/identity/{tag}, tags in turn', ({ app, sample }) =>
      cycling(app, 'identity', sample.tags, (t) => `/v1/identity/${t}`),
    ),
    both('GET /v1/resolve/{tag}, tags in turn', ({ app, sample }) =>
      cycling(app, 'resolve', sample.tags, (t) => `/v1/resolve/${t}`),
    ),
    both(`POST /v1/resolve, ${BATCH} tags`, ({ app, sample }) => batchLoad(app, batches(sample.tags))),
    both('GET /v1/reverse/{address}, addresses in turn', ({ app, sample }) =>
      cycling(app, 'reverse', sample.addresses, (a) => `/v1/reverse/${a}`),
    ),
    both('GET /v1/identity/{tag} → 304', ({ app, sample }, etag) => () => ({
      name: '304',
      url: `${app.url}/v1/identity/${sample.tags[0]}`,
      headers: { 'if-none-match': etag },
      success: '3xx' as const,
    })),
    both(`GET /v1/events, head (${FEED_PAGE})`, ({ app }) => () => ({
      name: 'head',
      url: `${app.url}/v1/events?limit=${FEED_PAGE}`,
    })),
    both(`GET /v1/events?after=, tail (${FEED_PAGE})`, ({ app, sample }) => () => ({
      name: 'tail',
      url: `${app.url}/v1/events?after=${sample.feedTail}&limit=${FEED_PAGE}`,
    })),
    both(`GET /@tag, ${PROFILE_TAGS} tags in turn`, ({ app, sample }) =>
      cycling(app, 'profile', profileTags(sample), (t) => `/@${t}`, browser),
    ),
  ];
}

function printSeed(label: string, shape: ScaleShape, r: SeedReport) {
  console.log(
    `| ${label} | ${shape.identities.toLocaleString('en')} | ${shape.events.toLocaleString('en')} | ${seconds(r.seconds.identities)} | ${seconds(r.seconds.events)} | ${seconds(r.seconds.indexes)} | ${seconds(r.seconds.vacuum)} | ${seconds(r.seconds.total)} | ${mb(r.bytes.identities)} | ${mb(r.bytes.events)} |`,
  );
}

export async function benchScale(): Promise<void> {
  const started = performance.now();
  const stops: (() => Promise<void> | void)[] = [];
  try {
    // A server sized for a million tags: PostgreSQL's default shared_buffers (128 MB) holds
    // a fifth of the identities table and its indexes; a quarter of a 4 GB server holds them.
    const server = await startPostgres(DATABASE_SERVER);
    stops.unshift(() => server.stop());
    const localnet = await startLocalnetProcess();
    stops.unshift(() => localnet.close());
    const urls = { small: await createDatabase(server.url), large: await createDatabase(server.url) };

    console.log(
      '\n## Scale: seeding (INSERT … SELECT over generate_series in PostgreSQL; indexes built after the load, then VACUUM ANALYZE)',
    );
    console.log(
      '| database | identities | feed events | identities + primary tags | events | indexes | vacuum, analyze, prewarm | total | identities on disk | events on disk |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    printSeed('500 tags', SMALL, await seedScale(urls.small, SMALL));
    printSeed('1M tags', LARGE, await seedScale(urls.large, LARGE));

    const samples = { small: await sampleOf(urls.small, SMALL.identities), large: await sampleOf(urls.large, SPREAD) };
    await explainReads(urls.large, samples.large);
    await statementTimes({ url: urls.small, sample: samples.small }, { url: urls.large, sample: samples.large });

    const build = copyOfBuild();
    stops.unshift(() => build.remove());
    const appEnv = (url: string) => ({
      ...BENCH_APP_ENV,
      DATABASE_URL: url,
      SOLANA_RPC_URL: localnet.url,
      NEXT_DIST_DIR: build.dir,
    });
    const small = { app: await startApp(appEnv(urls.small)), sample: samples.small };
    stops.unshift(() => small.app.stop());
    const large = { app: await startApp(appEnv(urls.large)), sample: samples.large };
    stops.unshift(() => large.app.stop());
    // Both apps have rendered and cached the pages the reads will ask for.
    for (const side of [small, large]) await viewAll(side.app, side.sample.tags.slice(0, PROFILE_TAGS));

    const pairs = await readPairs(small, large);
    const summaries = await comparePairs({
      title: 'Scale: reads at 500 tags and at 1M tags (production build, 10 connections)',
      labels: ['500', '1M'],
      pairs,
    });
    const feedHead = summaries.find((s) => s.name.startsWith('GET /v1/events, head'))!;
    const feedTail = summaries.find((s) => s.name.startsWith('GET /v1/events?after='))!;
    // The feed's tail against its head, both at a million: measured side by side too.
    const [tailVsHead] = await comparePairs({
      title: 'Scale: the feed at 1M tags, 5M events: a page at the tail against a page at the head',
      labels: ['head', 'tail'],
      pairs: [
        { name: `GET /v1/events, a page of ${FEED_PAGE}`, a: pairs[5]!.b, b: pairs[6]!.b, target: TARGETS.feedTail },
      ],
    });
    console.log(
      `feed at 1M: head ${feedHead.b.requestsPerSecond.toFixed(0)} pages/s, tail ${feedTail.b.requestsPerSecond.toFixed(0)} pages/s; ` +
        `tail/head ${(tailVsHead!.ratio * 100).toFixed(0)}% (target ≥ ${TARGETS.feedTail * 100}%: ${tailVsHead!.ratio >= TARGETS.feedTail ? 'met' : 'NOT MET'})`,
    );

    // Indexer catch-up and reconcile: one backlog on the localnet, indexed into a fresh
    // database (then reconciled against it) and into the million-tag one.
    console.log(
      `\n## Scale: indexer catch-up on a ${BACKLOG.toLocaleString('en')}-transaction backlog, reconcile over ${BACKLOG.toLocaleString('en')} records`,
    );
    let t0 = performance.now();
    await registrationBacklog(localnet.url, PROGRAM_ID, `s${Date.now().toString(36)}_`, BACKLOG);
    console.log(
      `backlog: ${BACKLOG.toLocaleString('en')} registrations (16 owners) built in ${seconds((performance.now() - t0) / 1000)}`,
    );
    const fresh = await createDatabase(server.url);
    const caughtUp = {
      fresh: await indexerCatchUp(fresh, localnet.url, PROGRAM_ID, BACKLOG),
      large: await indexerCatchUp(urls.large, localnet.url, PROGRAM_ID, BACKLOG),
    };
    t0 = performance.now();
    const reconciled = await reconcileOver(fresh, localnet.url, PROGRAM_ID);
    console.log('| what | transactions or records | seconds | per second |');
    console.log('|---|---:|---:|---:|');
    console.log(
      `| one runIndexer call, empty mirror | ${caughtUp.fresh.transactions} | ${caughtUp.fresh.seconds.toFixed(1)} | ${caughtUp.fresh.perSecond.toFixed(0)} tx/s |`,
    );
    console.log(
      `| one runIndexer call, into the 1M mirror | ${caughtUp.large.transactions} | ${caughtUp.large.seconds.toFixed(1)} | ${caughtUp.large.perSecond.toFixed(0)} tx/s |`,
    );
    console.log(
      `| reconcile (getProgramAccounts against every row; no difference) | ${reconciled.records} | ${reconciled.seconds.toFixed(1)} | ${reconciled.perSecond.toFixed(0)} records/s |`,
    );
    console.log(`\nscale section: ${seconds((performance.now() - started) / 1000)} in all`);
  } finally {
    for (const stop of stops) await Promise.resolve(stop()).catch((err) => console.error('scale teardown:', err));
  }
}
