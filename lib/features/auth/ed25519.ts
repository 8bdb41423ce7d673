import { decodeBase58 } from '@/lib/core/keys';

const BASE64 = /^[A-Za-z0-9+/]{86}==$/;

/** A 64-byte signature from its text: base58 (Solana's usual form) or base64; else null. */
export function decodeSignature(text: string): Uint8Array | null {
  return decodeBase58(text, 64) ?? (BASE64.test(text) ? Buffer.from(text, 'base64') : null);
}
