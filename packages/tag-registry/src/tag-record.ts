/**
 * The TagRecord account beyond what the generated codec gives: the program's own strictness
 * when reading one (exact size, discriminator, tag length within one seed, the tag as UTF-8),
 * the tag as text, a standing offer as `null`, and the byte offsets a getProgramAccounts
 * filter needs.
 */
import { type Address, type ReadonlyUint8Array } from '@solana/kit';
import { getTagRecordDecoder, getTagRecordEncoder, getTagRecordSize, TAG_RECORD_DISCRIMINATOR } from './generated';

/** Longest tag the record holds (one PDA seed): the IDL's `tag: [u8; 32]`. */
export const TAG_RECORD_MAX_TAG_BYTES = 32;

/** The record's size, 149 bytes: what a getProgramAccounts `dataSize` filter matches. */
export const TAG_RECORD_SIZE = getTagRecordSize();

/**
 * Byte offsets of the record's fields, for memcmp filters. program/tests/abi.test.ts checks
 * them against the IDL's field order and sizes and against program/src/abi.h.
 */
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
 * A tag record as the program stores it at `["tag", tag]`. `owner` is the current owner
 * (the registrant until a transfer is accepted), `wallet` the payout wallet, `pendingOwner`
 * the key a standing transfer offer names (`null` when none; all zero on chain). `bump` is
 * the canonical bump of the record's address, `registeredAt` the Clock sysvar's unix
 * timestamp (seconds) at registration; neither changes during the record's life.
 */
export interface TagRecordFields {
  owner: Address;
  wallet: Address;
  pendingOwner: Address | null;
  bump: number;
  registeredAt: bigint;
  tag: string;
}

const ZERO_ADDRESS = '11111111111111111111111111111111' as Address;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

function sameBytes(a: ReadonlyUint8Array, b: ReadonlyUint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Reads record data; `null` for anything that is not a well-formed TagRecord. Never throws. */
export function parseTagRecord(data: ReadonlyUint8Array): TagRecordFields | null {
  if (!(data instanceof Uint8Array) || data.length !== TAG_RECORD_SIZE) return null;
  const record = getTagRecordDecoder().decode(data);
  if (!sameBytes(record.discriminator, TAG_RECORD_DISCRIMINATOR) || record.tagLen > TAG_RECORD_MAX_TAG_BYTES)
    return null;
  let tag: string;
  try {
    tag = STRICT_UTF8.decode(record.tag.subarray(0, record.tagLen));
  } catch {
    return null;
  }
  const { owner, wallet, pendingOwner, bump, registeredAt } = record;
  return { owner, wallet, pendingOwner: pendingOwner === ZERO_ADDRESS ? null : pendingOwner, bump, registeredAt, tag };
}

/**
 * The record's bytes, as the program would write them: for tests that plant a record (or a
 * look-alike) and for fixtures of the indexer. Throws on a tag longer than one seed or a
 * bump outside 0..255.
 */
export function tagRecordBytes(record: TagRecordFields): Uint8Array {
  const tagBytes = new TextEncoder().encode(record.tag);
  if (tagBytes.length > TAG_RECORD_MAX_TAG_BYTES)
    throw new RangeError(`tag is ${tagBytes.length} bytes, over ${TAG_RECORD_MAX_TAG_BYTES}`);
  if (!Number.isInteger(record.bump) || record.bump < 0 || record.bump > 255)
    throw new RangeError(`bump ${record.bump} is not a u8`);
  const tag = new Uint8Array(TAG_RECORD_MAX_TAG_BYTES);
  tag.set(tagBytes);
  return new Uint8Array(
    getTagRecordEncoder().encode({
      ...record,
      pendingOwner: record.pendingOwner ?? ZERO_ADDRESS,
      tagLen: tagBytes.length,
      tag,
    }),
  );
}
