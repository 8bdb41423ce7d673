import { PublicKey } from '@solana/web3.js';

/** sha256("account:TagRecord")[0..8], Anchor's account discriminator. */
export const TAG_RECORD_DISCRIMINATOR = Uint8Array.from([0x50, 0xb4, 0xb3, 0xa3, 0xb7, 0x64, 0x9f, 0x3f]);

/** Longest tag the record holds (one PDA seed). */
export const TAG_RECORD_MAX_TAG_BYTES = 32;

/** discriminator 8 ‖ owner 32 ‖ wallet 32 ‖ bump 1 ‖ registered_at 8 ‖ tag (4 + 32, zero padded). */
export const TAG_RECORD_SIZE = 8 + 32 + 32 + 1 + 8 + 4 + TAG_RECORD_MAX_TAG_BYTES;

/**
 * A tag record as the program stores it at `["tag", tag]`. Written once by `register_tag`
 * and never changed: `owner` signed the registration, `bump` is the canonical bump of the
 * record's address, `registeredAt` is the Clock sysvar's unix timestamp (seconds) then.
 */
export interface TagRecord {
  owner: PublicKey;
  wallet: PublicKey;
  bump: number;
  registeredAt: bigint;
  tag: string;
}

/** Decodes record data; `null` for anything that is not a well-formed TagRecord. */
export function decodeTagRecord(data: Uint8Array): TagRecord | null {
  if (!(data instanceof Uint8Array) || data.length !== TAG_RECORD_SIZE) return null;
  for (let i = 0; i < 8; i++) if (data[i] !== TAG_RECORD_DISCRIMINATOR[i]) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const tagLength = view.getUint32(81, true);
  if (tagLength > TAG_RECORD_MAX_TAG_BYTES) return null;
  let tag: string;
  try {
    tag = new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(85, 85 + tagLength));
  } catch {
    return null;
  }
  return {
    owner: new PublicKey(data.subarray(8, 40)),
    wallet: new PublicKey(data.subarray(40, 72)),
    bump: data[72],
    registeredAt: view.getBigInt64(73, true),
    tag,
  };
}
