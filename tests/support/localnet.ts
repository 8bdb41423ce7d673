import { existsSync } from 'node:fs';
import path from 'node:path';

/** The localnet for tests (in memory, free port), once lib/chain/localnet exists. */
export async function startTestLocalnet(): Promise<{ url: string; close(): Promise<void> }> {
  if (!existsSync(path.join(process.cwd(), 'lib/chain/localnet/index.ts'))) {
    return { url: 'http://127.0.0.1:1', close: async () => {} };
  }
  const { startLocalnet } = await import('@/lib/chain/localnet');
  return startLocalnet({ port: 0, dataDir: null });
}
