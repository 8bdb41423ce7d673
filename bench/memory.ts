// Memory of one instance after 100,000 distinct /@tag views: the app (scripts/serve.ts, as
// `npm start` runs it) on a database of 100,000 identities, each profile viewed once (each a
// first render, then kept by whatever the app caches), its resident memory read as it goes.
//   npm run bench -- memory
import pg from 'pg';
import { startApp } from '@/devstack/app';
import { startLocalnetProcess } from '@/devstack/localnet';
import { createDatabase, startPostgres } from '@/devstack/postgres';
import { copyOfBuild, mb, residentBytes, viewAll } from './scale-apps';
import { seedScale } from './scale-seed';

const VIEWS = 100_000;
/** Where resident memory is read, in views so far. */
const CHECKPOINTS = [1_000, 10_000, 25_000, 50_000, 75_000, 100_000];

async function activeTags(databaseUrl: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tag: string }>(
      `SELECT tag FROM identities WHERE status = 'active' ORDER BY md5(tag) LIMIT $1`,
      [count],
    );
    if (rows.length < count) throw new Error(`only ${rows.length} active tags to view`);
    return rows.map((r) => r.tag);
  } finally {
    await client.end();
  }
}

export async function benchMemory(): Promise<void> {
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const server = await startPostgres();
    stops.unshift(() => server.stop());
    const localnet = await startLocalnetProcess();
    stops.unshift(() => localnet.close());
    const url = await createDatabase(server.url);
    // A few more than the views: blocked tags are left out of them.
    await seedScale(url, { identities: Math.ceil(VIEWS * 1.01), events: Math.ceil(VIEWS * 1.01) });
    const tags = await activeTags(url, VIEWS);
    const build = copyOfBuild();
    stops.unshift(() => build.remove());
    const app = await startApp({ DATABASE_URL: url, SOLANA_RPC_URL: localnet.url, NEXT_DIST_DIR: build.dir });
    stops.unshift(() => app.stop());

    console.log(
      `\n## Memory: one instance (Next.js in scripts/serve.ts), ${VIEWS.toLocaleString('en')} distinct /@tag views`,
    );
    console.log(
      '| distinct /@tag views | resident memory (RSS) | views/s since the last line | views failed since the last line |',
    );
    console.log('|---:|---:|---:|---:|');
    console.log(`| 0 (started, nothing viewed) | ${mb(residentBytes(app.pid))} | | |`);
    let viewed = 0;
    const t0 = performance.now();
    for (const checkpoint of CHECKPOINTS) {
      // A view that failed is printed, not fatal: the memory after the others is still the figure.
      const { viewsPerSecond, failures } = await viewAll(app, tags.slice(viewed, checkpoint));
      viewed = checkpoint;
      console.log(
        `| ${viewed.toLocaleString('en')} | ${mb(residentBytes(app.pid))} | ${viewsPerSecond.toFixed(0)} | ${failures} |`,
      );
    }
    console.log(`${viewed.toLocaleString('en')} views in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    for (const stop of stops) await Promise.resolve(stop()).catch((err) => console.error('memory teardown:', err));
  }
}
