// Shared by the chain benchmarks: fast signing with Node's ed25519.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';

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
