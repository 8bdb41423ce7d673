// Shared by the chain benchmarks: a localnet in a child process (as it runs beside the app,
// so the client's work is not counted as the server's), and fast signing with Node's ed25519.
import { spawn } from 'node:child_process';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Keypair } from '@solana/web3.js';
import { startLocalnet } from '@/lib/chain/localnet';

if (process.env.BENCH_LOCALNET_CHILD === '1') {
  const localnet = await startLocalnet({ port: 0, dataDir: null });
  console.log(`url ${localnet.url}`);
  process.once('SIGTERM', () => void localnet.close().then(() => process.exit(0)));
}

export async function startLocalnetProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_LOCALNET_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^url (\S+)$/m.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`localnet child exited with ${code}`)));
  });
  return {
    url,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A Node ed25519 key for a web3.js keypair: it signs in ~50 µs where web3.js's pure-JS
 * signing takes milliseconds, which the client would otherwise be measuring.
 */
export function nodeKey(keypair: Keypair): KeyObject {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  return createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: b64(keypair.secretKey.subarray(0, 32)), x: b64(keypair.publicKey.toBytes()) },
    format: 'jwk',
  });
}
