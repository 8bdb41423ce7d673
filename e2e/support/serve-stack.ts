// `npx tsx e2e/support/serve-stack.ts`: the e2e stack, kept up for looking at pages by hand.
import { startE2eStack } from './stack';

const stack = await startE2eStack();
console.log(JSON.stringify({ appUrl: stack.appUrl, rpcUrl: stack.rpcUrl, databaseUrl: stack.databaseUrl }));
const stop = () => void stack.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
