// `npm run dev` / `npm start`: the app with embedded defaults. Starts a localnet when
// SOLANA_RPC_URL is unset, runs Next.js (dev or production), and calls the indexer's cron
// route on an interval, as Vercel cron would in production.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError, parseConfig } from '@/lib/config';

const mode = process.argv[2] === 'dev' ? 'dev' : 'start';
const port = Number(process.env.PORT ?? 3000);

async function main(): Promise<void> {
  // The sign-in domain must be where the app really listens.
  process.env.APP_URL ??= `http://localhost:${port}`;
  const config = parseConfig(process.env);
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  let closeLocalnet = async () => {};

  if (!config.solana.rpcUrl) {
    const { startLocalnet } = await import('@/localnet');
    const localnet = await startLocalnet({
      port: Number(process.env.LOCALNET_PORT ?? 8899),
      dataDir: path.join(config.dataDir, 'localnet'),
    });
    env.SOLANA_RPC_URL = localnet.url;
    closeLocalnet = localnet.close;
    console.log(`localnet: ${localnet.url} (program ${config.solana.programId})`);
  }
  env.CRON_SECRET ??= randomBytes(24).toString('base64url');
  if (config.database.driver === 'pglite') console.log(`database: embedded PGlite in ${config.database.dataDir}`);

  const next = spawn(process.execPath, ['node_modules/next/dist/bin/next', mode, '-p', String(port)], {
    env,
    stdio: 'inherit',
  });

  const indexerMs = config.indexerIntervalSeconds * 1000;
  const timer =
    indexerMs > 0
      ? setInterval(() => {
          fetch(`http://127.0.0.1:${port}/api/cron/indexer`, {
            headers: { authorization: `Bearer ${env.CRON_SECRET}` },
          }).catch(() => {}); // the server may still be starting
        }, indexerMs)
      : undefined;

  const stop = async (code: number) => {
    if (timer) clearInterval(timer);
    next.kill('SIGTERM');
    await closeLocalnet();
    process.exit(code);
  };
  next.on('exit', (code) => void stop(code ?? 0));
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
