import { migratePostgres } from '@/lib/db/client';
import { startApp } from '@/tests/support/app';
import { startPostgres } from '@/tests/support/postgres';
import { startServiceProcess } from '@/tests/support/service-process';

export interface E2eStack {
  appUrl: string;
  rpcUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * What the browser tests run against: a real PostgreSQL (migrated), a localnet with the
 * program, and the production build (`next start`) pointed at both, on localnet.
 */
export async function startE2eStack(): Promise<E2eStack> {
  const pg = await startPostgres();
  const stops: (() => Promise<void>)[] = [() => pg.stop()];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err) => console.error('e2e teardown:', err));
  };
  try {
    await migratePostgres(pg.url);
    const localnet = await startServiceProcess('tests/support/localnet-process.ts');
    stops.push(() => localnet.close());
    const app = await startApp({
      DATABASE_URL: pg.url,
      SOLANA_RPC_URL: localnet.url,
      SOLANA_CLUSTER: 'localnet',
      // Every test signs in and registers from the same address.
      AUTH_RATE_LIMIT: '1000000',
      SYNC_RATE_LIMIT: '1000000',
      REGISTER_RATE_LIMIT: '1000000',
      AVAILABILITY_RATE_LIMIT: '1000000',
      INDEXER_INTERVAL_SECONDS: '0',
    });
    stops.push(() => app.stop());
    return { appUrl: app.url, rpcUrl: localnet.url, databaseUrl: pg.url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
