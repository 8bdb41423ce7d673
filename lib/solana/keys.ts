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
