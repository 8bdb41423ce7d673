import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { migratePostgres } from '@/lib/db/client';
import { startApp } from '@/tests/support/app';
import { startPostgres } from '@/tests/support/postgres';

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
    const localnet = await startLocalnetProcess();
    stops.push(() => localnet.close());
    const app = await startApp({
      DATABASE_URL: pg.url,
      SOLANA_RPC_URL: localnet.url,
      SOLANA_CLUSTER: 'localnet',
      // Every test signs in and registers from the same address.
      AUTH_RATE_LIMIT: '1000000',
      SYNC_RATE_LIMIT: '1000000',
      REGISTER_RATE_LIMIT: '1000000',
      INDEXER_INTERVAL_SECONDS: '0',
    });
    stops.push(() => app.stop());
    return { appUrl: app.url, rpcUrl: localnet.url, databaseUrl: pg.url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** e2e/support/localnet-process.ts in a child process; resolves once it prints its URL. */
async function startLocalnetProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/localnet-process.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the localnet did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the localnet exited (${code}) before it started`)));
    lines.on('line', (line) => {
      try {
        const { url } = JSON.parse(line) as { url?: string };
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      } catch {
        // a log line
      }
    });
  }).catch(async (err) => {
    await close();
    throw err;
  });
  return { url, close };
}
