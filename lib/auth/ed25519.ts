import { createPublicKey, verify } from 'node:crypto';
import bs58 from 'bs58';

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

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{64,90}$/;
const BASE64 = /^[A-Za-z0-9+/]{86}==$/;

/** A 64-byte signature from its text: base58 (Solana's usual form) or base64; else null. */
export function decodeSignature(text: string): Uint8Array | null {
  let bytes: Uint8Array | null = null;
  if (BASE58.test(text)) bytes = bs58.decode(text);
  else if (BASE64.test(text)) bytes = Buffer.from(text, 'base64');
  return bytes && bytes.length === 64 ? bytes : null;
}
