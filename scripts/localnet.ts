// npm run localnet — the JSON-RPC localnet on 127.0.0.1:8899 (LOCALNET_PORT), state in .data/localnet
import path from 'node:path';
import { startLocalnet } from '@/localnet';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';

async function main(): Promise<void> {
  const port = process.env.LOCALNET_PORT ? Number(process.env.LOCALNET_PORT) : 8899;
  if (!Number.isInteger(port) || port < 0 || port > 65534) {
    throw new Error(`LOCALNET_PORT must be a port number below 65535, got ${process.env.LOCALNET_PORT}`);
  }
  const dataDir = path.join(process.cwd(), '.data/localnet');
  const localnet = await startLocalnet({ port, host: '127.0.0.1', dataDir });
  console.log(`localnet: JSON-RPC ${localnet.url}  PubSub ${localnet.wsUrl}`);
  console.log(`localnet: program ${LOCALNET_PROGRAM_ID}  state ${dataDir}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`localnet: ${signal}, saving state and stopping`);
    localnet.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('localnet: could not stop cleanly:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error('localnet:', e instanceof Error ? e.message : e);
  process.exit(1);
});
