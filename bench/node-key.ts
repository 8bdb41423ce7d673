// Shared by the chain benchmarks: fast signing with Node's ed25519.
import { createPrivateKey, type KeyObject } from 'node:crypto';

/**
 * A Node ed25519 key for a 64-byte secret key (seed, then public key: web3.js's `Keypair`,
 * the tests' key pairs): it signs in ~50 µs where a pure-JS signer takes milliseconds, which
 * the client would otherwise be measuring.
 */
export function nodeKey({ secretKey }: { secretKey: Uint8Array }): KeyObject {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  return createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: b64(secretKey.subarray(0, 32)), x: b64(secretKey.subarray(32, 64)) },
    format: 'jwk',
  });
}
