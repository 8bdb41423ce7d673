import type { TestProject } from 'vitest/node';
import { migratePostgres } from '@/lib/db/client';
import { hasProductionBuild, startApp, type TestApp } from './app';
import { startPostgres } from './postgres';
import { startLocalnet } from '@/localnet';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    rpcUrl: string;
    /** The shared production app, or '' when there is no build (unit runs). */
    appUrl: string;
  }
}

/** One real PostgreSQL, one localnet and one production app for the whole run. */
export default async function setup(project: TestProject) {
  const pg = await startPostgres();
  await migratePostgres(pg.url);
  const localnet = await startLocalnet({ port: 0, dataDir: null });
  let app: TestApp | undefined;
  if (hasProductionBuild()) {
    app = await startApp({
      DATABASE_URL: pg.url,
      SOLANA_RPC_URL: localnet.url,
      AUTH_RATE_LIMIT: '1000000',
      SYNC_RATE_LIMIT: '1000000',
      AVAILABILITY_RATE_LIMIT: '1000000',
    });
  }
  project.provide('databaseUrl', pg.url);
  project.provide('rpcUrl', localnet.url);
  project.provide('appUrl', app?.url ?? '');
  return async () => {
    await app?.stop();
    await localnet.close();
    await pg.stop();
  };
}
