// Runs a localnet (in memory, free port) in its own process for the browser tests, and prints
// its URL as one JSON line. A separate tsx process because the localnet's imports
// (`litesvm/dist/internal`) do not resolve under Playwright's ESM loader.
import { startTestLocalnet } from '@/tests/support/localnet';

const localnet = await startTestLocalnet();
console.log(JSON.stringify({ url: localnet.url }));
const stop = () => void localnet.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
