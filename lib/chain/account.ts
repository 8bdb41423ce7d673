import { PublicKey } from '@solana/web3.js';

/** sha256("account:TagRecord")[0..8], Anchor's account discriminator. */
export const TAG_RECORD_DISCRIMINATOR = Uint8Array.from([0x50, 0xb4, 0xb3, 0xa3, 0xb7, 0x64, 0x9f, 0x3f]);

/** Longest tag the record holds (one PDA seed). */
export const TAG_RECORD_MAX_TAG_BYTES = 32;

/** Byte offsets of the record's fields, as program/src/abi.h lays them out. */
export const TAG_RECORD_OFFSETS = {
  owner: 8,
  wallet: 40,
  pendingOwner: 72,
  bump: 104,
  registeredAt: 105,
  tagLength: 113,
  tag: 117,
} as const;

/**
 * discriminator 8 ‖ owner 32 ‖ wallet 32 ‖ pending_owner 32 ‖ bump 1 ‖ registered_at 8 ‖
 * tag (4 + 32, zero padded): 149 bytes.
 */
export const TAG_RECORD_SIZE = TAG_RECORD_OFFSETS.tag + TAG_RECORD_MAX_TAG_BYTES;

const ZERO_KEY = new Uint8Array(32);

/**
 * A tag record as the program stores it at `["tag", tag]`. `owner` is the current owner
 * (the registrant until a transfer is accepted), `wallet` the payout wallet, `pendingOwner`
 * the key a standing transfer offer names (`null` when none; all zero on chain). `bump` is
 * the canonical bump of the record's address, `registeredAt` the Clock sysvar's unix
 * timestamp (seconds) at registration; neither changes during the record's life.
 */
export interface TagRecord {
  owner: PublicKey;
  wallet: PublicKey;
  pendingOwner: PublicKey | null;
  bump: number;
  registeredAt: bigint;
  tag: string;
}

/** Decodes record data; `null` for anything that is not a well-formed TagRecord. */
export function decodeTagRecord(data: Uint8Array): TagRecord | null {
  if (!(data instanceof Uint8Array) || data.length !== TAG_RECORD_SIZE) return null;
  for (let i = 0; i < 8; i++) if (data[i] !== TAG_RECORD_DISCRIMINATOR[i]) return null;
  const at = TAG_RECORD_OFFSETS;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const tagLength = view.getUint32(at.tagLength, true);
  if (tagLength > TAG_RECORD_MAX_TAG_BYTES) return null;
  let tag: string;
  try {
    tag = new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(at.tag, at.tag + tagLength));
  } catch {
    return null;
  }
  const pending = data.subarray(at.pendingOwner, at.pendingOwner + 32);
  return {
    owner: new PublicKey(data.subarray(at.owner, at.owner + 32)),
    wallet: new PublicKey(data.subarray(at.wallet, at.wallet + 32)),
    pendingOwner: pending.every((b) => b === 0) ? null : new PublicKey(pending),
    bump: data[at.bump],
    registeredAt: view.getBigInt64(at.registeredAt, true),
    tag,
  };
}

/**
 * The record's bytes, as the program would write them: for tests that plant a record (or a
 * look-alike) with `setAccount`, and for fixtures of the indexer. Throws on a tag longer
 * than one seed or a bump outside 0..255.
 */
export function encodeTagRecord(record: TagRecord): Uint8Array {
  const tagBytes = new TextEncoder().encode(record.tag);
  if (tagBytes.length > TAG_RECORD_MAX_TAG_BYTES)
    throw new RangeError(`tag is ${tagBytes.length} bytes, over ${TAG_RECORD_MAX_TAG_BYTES}`);
  if (!Number.isInteger(record.bump) || record.bump < 0 || record.bump > 255)
    throw new RangeError(`bump ${record.bump} is not a u8`);
  const at = TAG_RECORD_OFFSETS;
  const data = new Uint8Array(TAG_RECORD_SIZE);
  const view = new DataView(data.buffer);
  data.set(TAG_RECORD_DISCRIMINATOR, 0);
  data.set(record.owner.toBytes(), at.owner);
  data.set(record.wallet.toBytes(), at.wallet);
  data.set(record.pendingOwner?.toBytes() ?? ZERO_KEY, at.pendingOwner);
  data[at.bump] = record.bump;
  view.setBigInt64(at.registeredAt, record.registeredAt, true);
  view.setUint32(at.tagLength, tagBytes.length, true);
  data.set(tagBytes, at.tag);
  return data;
}
