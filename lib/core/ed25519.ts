import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

/**
 * ed25519 check with Node's built-in crypto (~0.1 ms here, against ~10 ms for tweetnacl):
 * the key is built from a JWK of the raw 32 bytes. Never throws. The sign-in check
 * (features/auth) and the Action Identity memo's (features/integrations) use it; the localnet,
 * which imports nothing of lib/, checks transaction signatures with its own (localnet/wire.ts).
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
      format: 'jwk',
    });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/**
 * ed25519 signature of `message` by a 64-byte secret key (seed, then public key, as Solana
 * keypairs hold it), with Node's built-in crypto: the same bytes as tweetnacl's, at a
 * fraction of its cost.
 */
export function signEd25519(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
  const key = createPrivateKey({
    key: {
      kty: 'OKP',
      crv: 'Ed25519',
      d: Buffer.from(secretKey.subarray(0, 32)).toString('base64url'),
      x: Buffer.from(secretKey.subarray(32, 64)).toString('base64url'),
    },
    format: 'jwk',
  });
  return new Uint8Array(sign(null, message, key));
}
