import bs58 from 'bs58';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** The 32 bytes of a base58 public key, or null when it is not one. */
export function decodePublicKey(text: unknown): Uint8Array | null {
  if (typeof text !== 'string' || text.length < 32 || text.length > 44 || !BASE58.test(text)) return null;
  const bytes = bs58.decode(text);
  return bytes.length === 32 ? bytes : null;
}

export function isPublicKey(text: unknown): text is string {
  return decodePublicKey(text) !== null;
}
