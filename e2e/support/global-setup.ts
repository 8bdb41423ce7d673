import type { FullConfig } from '@playwright/test';
import { startE2eStack } from './stack';

/**
 * Starts PostgreSQL, a localnet and the production app once for the run, and hands their
 * addresses to the tests through the environment (workers start after this and inherit it).
 * The returned function is Playwright's teardown.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const stack = await startE2eStack();
  process.env.E2E_APP_URL = stack.appUrl;
  process.env.E2E_RPC_URL = stack.rpcUrl;
  process.env.E2E_DATABASE_URL = stack.databaseUrl;
  return () => stack.stop();
}
