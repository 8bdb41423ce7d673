// No zod here: the pages decode keys in the browser; the request schemas are lib/core/keys.ts.
import bs58 from 'bs58';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/**
 * Exactly `byteLength` bytes from base58 text, or null. The length bounds (one character per
 * leading zero byte at least, ⌈n·log 256 / log 58⌉ at most) keep garbage from being decoded.
 */
export function decodeBase58(text: unknown, byteLength: number): Uint8Array | null {
  if (typeof text !== 'string' || text.length < byteLength || text.length > Math.ceil(byteLength * 1.37)) return null;
  if (!BASE58.test(text)) return null;
  const bytes = bs58.decode(text);
  return bytes.length === byteLength ? bytes : null;
}

/** The 32 bytes of a base58 public key (or mint address), or null when it is not one. */
export function decodePublicKey(text: unknown): Uint8Array | null {
  return decodeBase58(text, 32);
}

export function isPublicKey(text: unknown): text is string {
  return decodePublicKey(text) !== null;
}

/** The 64 bytes of an ed25519 signature in base58 (a transaction signature), or null. */
export function decodeSignature(text: unknown): Uint8Array | null {
  return decodeBase58(text, 64);
}

/** Base58 text of at most `maxLength` characters (nonces and other base58 tokens). */
export function isBase58(text: unknown, maxLength: number): text is string {
  return typeof text === 'string' && text.length > 0 && text.length <= maxLength && BASE58.test(text);
}
