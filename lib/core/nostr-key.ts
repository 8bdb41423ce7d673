/*
 * A Nostr public key as people paste it: `npub1…` (NIP-19, bech32) or its 64 hex digits. Stored
 * and answered as lower-case hex, the form NIP-05's /.well-known/nostr.json must carry. Pure, so
 * the settings form checks a key before sending it. Bech32 (BIP-173) is short enough to write here
 * rather than pull a library into the browser bundle for one field.
 */

const HEX_KEY = /^[0-9a-f]{64}$/;
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) chk ^= GENERATOR[i]!;
  }
  return chk >>> 0;
}

function hrpExpanded(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >>> 5), 0, ...codes.map((c) => c & 31)];
}

/** The payload of a bech32 string with this human-readable part, as 8-bit bytes; null when it is not one. */
function bech32Bytes(text: string, hrp: string): Uint8Array | null {
  if (text.length > 90 || text !== text.toLowerCase()) return null;
  const sep = text.lastIndexOf('1');
  if (text.slice(0, sep) !== hrp) return null;
  const words: number[] = [];
  for (const c of text.slice(sep + 1)) {
    const word = CHARSET.indexOf(c);
    if (word < 0) return null;
    words.push(word);
  }
  if (words.length < 6 || polymod([...hrpExpanded(hrp), ...words]) !== 1) return null;
  // 5-bit groups → bytes; leftover bits must be zero padding of less than a group
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const word of words.slice(0, -6)) {
    acc = (acc << 5) | word;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >>> bits) & 0xff);
    }
  }
  if (bits >= 5 || (acc & ((1 << bits) - 1)) !== 0) return null;
  return Uint8Array.from(bytes);
}

/** `npub1…` or 64 hex digits (any case) → 64 lower-case hex digits; null when it is neither. */
export function nostrKeyHex(text: string): string | null {
  const lower = text.toLowerCase();
  if (HEX_KEY.test(lower)) return lower;
  // BIP-173: all lower case or all upper case, never mixed
  const bytes = bech32Bytes(text === text.toUpperCase() ? lower : text, 'npub');
  if (!bytes || bytes.length !== 32) return null;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Is this a stored Nostr key (64 lower-case hex digits)? */
export function isNostrKeyHex(text: string): boolean {
  return HEX_KEY.test(text);
}

/** 64 hex digits → the key's `npub1…` (NIP-19), as Nostr clients show it. */
export function npubOf(hex: string): string {
  const hrp = 'npub';
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < hex.length; i += 2) {
    acc = ((acc << 8) | parseInt(hex.slice(i, i + 2), 16)) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  const chk = polymod([...hrpExpanded(hrp), ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (chk >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => CHARSET[w]).join('')}`;
}
