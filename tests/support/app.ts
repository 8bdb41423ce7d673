import { inject } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { createDatabase } from '@/devstack/postgres';

/**
 * An app of the test's own on the shared localnet, with a fresh database: the rate budgets it
 * counts are that test's alone. `env` adds to or overrides the two it sets.
 */
export async function startAppOwnDatabase(env: Record<string, string> = {}): Promise<RunningApp> {
  return startApp({ DATABASE_URL: await createDatabase(inject('databaseUrl')), SOLANA_RPC_URL: inject('rpcUrl'), ...env });
}
