// Imported once by instrumentation.ts in the Node.js runtime (never the Edge runtime).
import { ConfigError, getConfig } from './config';

try {
  getConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
