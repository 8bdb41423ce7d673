import { inject } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { createDatabase } from '@/devstack/postgres';
import { LIFTED_LOAD_BOUNDS } from '@/devstack/rate-limits';
import type { TestDatabase } from './database';
import { held, type Lifetime } from './held';

/**
 * An app of the test's own on the shared localnet, with a fresh database: the rate budgets it
 * counts are that test's alone. `env` adds to or overrides the two it sets.
 */
export async function startAppOwnDatabase(env: Record<string, string> = {}): Promise<RunningApp> {
  return startApp({
    DATABASE_URL: await createDatabase(inject('databaseUrl')),
    SOLANA_RPC_URL: inject('rpcUrl'),
    ...LIFTED_LOAD_BOUNDS,
    ...env,
  });
}

export interface OwnAppOptions {
  /** The database it runs on (a fresh one when not given), e.g. an ownDatabase() the test also reads. */
  database?: TestDatabase;
  lifetime?: Lifetime;
}

/**
 * An app of the describe's (or file's) own, as startAppOwnDatabase starts it, held (./held.ts)
 * for its tests: the getter answers the running app inside them and their hooks.
 */
export function ownApp(env: Record<string, string> = {}, { database, lifetime }: OwnAppOptions = {}): () => RunningApp {
  const start = () =>
    database
      ? startApp({ DATABASE_URL: database.url, SOLANA_RPC_URL: inject('rpcUrl'), ...LIFTED_LOAD_BOUNDS, ...env })
      : startAppOwnDatabase(env);
  return held('the own app', start, (app) => app.stop(), lifetime);
}
