import { createPublicKey, verify } from 'node:crypto';
import { decodeBase58 } from '@/lib/solana/keys';

/**
 * ed25519 check with Node's built-in crypto (~0.1 ms here, against ~10 ms for tweetnacl):
 * the key is built from a JWK of the raw 32 bytes. Never throws.
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

const BASE64 = /^[A-Za-z0-9+/]{86}==$/;

/** A 64-byte signature from its text: base58 (Solana's usual form) or base64; else null. */
export function decodeSignature(text: string): Uint8Array | null {
  return decodeBase58(text, 64) ?? (BASE64.test(text) ? Buffer.from(text, 'base64') : null);
}
