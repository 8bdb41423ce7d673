import { migratePostgres } from '@/lib/db/migrate';
import { requireProductionBuild, startApp } from './app';
import { startLocalnetProcess } from './localnet';
import { startPostgres } from './postgres';

export interface Stack {
  appUrl: string;
  rpcUrl: string;
  /** The migrated database the app uses; other databases on its server via createDatabase. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * What the tests, the browser tests and the benchmarks run against: a real PostgreSQL
 * (migrated), a localnet with the program, and the production build, served as `npm start`
 * serves it (scripts/serve.ts), pointed at both, with `appEnv` on top (rate limits, intervals).
 */
export async function startStack(appEnv: Record<string, string> = {}): Promise<Stack> {
  // Before anything starts: a missing build is the commonest reason a run cannot go on.
  requireProductionBuild();
  // PostgreSQL and the localnet start side by side: neither needs the other, and each spends
  // most of its start waiting on a child process.
  const [pgStart, localnetStart] = await Promise.allSettled([
    startPostgres().then(async (pg) => {
      await migratePostgres(pg.url).catch(async (err) => {
        await pg.stop();
        throw err;
      });
      return pg;
    }),
    startLocalnetProcess(),
  ]);
  const stops: (() => Promise<void>)[] = [];
  if (pgStart.status === 'fulfilled') stops.push(() => pgStart.value.stop());
  if (localnetStart.status === 'fulfilled') stops.push(() => localnetStart.value.close());
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err) => console.error('stack teardown:', err));
  };
  try {
    if (pgStart.status === 'rejected') throw pgStart.reason;
    if (localnetStart.status === 'rejected') throw localnetStart.reason;
    const pg = pgStart.value;
    const localnet = localnetStart.value;
    const app = await startApp({ DATABASE_URL: pg.url, SOLANA_RPC_URL: localnet.url, ...appEnv });
    stops.push(() => app.stop());
    return { appUrl: app.url, rpcUrl: localnet.url, databaseUrl: pg.url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
