// A localnet (in memory, free port) in a process of its own; prints `url <url>` once up.
// Started through tests/support/service-process.ts by the e2e stack and the benchmarks.
import { startLocalnet } from '@/localnet';

const localnet = await startLocalnet({ port: 0, dataDir: null });
console.log(`url ${localnet.url}`);
const stop = () => void localnet.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
