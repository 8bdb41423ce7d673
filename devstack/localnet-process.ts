// A localnet (in memory, free port) in a process of its own; prints `url <url>` once up.
// Started through ./service-process.ts (startLocalnetProcess) by the test, e2e and bench stacks.
import { startLocalnet } from '@/localnet';

const localnet = await startLocalnet({ port: 0, dataDir: null });
console.log(`url ${localnet.url}`);
const stop = () => void localnet.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
