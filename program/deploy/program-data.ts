/**
 * Reading loader-v3 accounts back: the program account (which names its ProgramData), the
 * ProgramData (slot, upgrade authority, then the ELF followed by zero padding up to the max
 * data length) and a buffer. And the one comparison deploy and verify both print.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { BUFFER_HEADER_SIZE, PROGRAM_ACCOUNT_SIZE, PROGRAM_DATA_HEADER_SIZE } from './loader-v3';

const TAG_BUFFER = 1;
const TAG_PROGRAM = 2;
const TAG_PROGRAM_DATA = 3;

const u32 = (data: Uint8Array, at: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(at, true);

function optionalKey(data: Uint8Array, at: number): string | null {
  return data[at] === 1 ? bs58.encode(data.subarray(at + 1, at + 33)) : null;
}

/** The ProgramData address a program account points to. */
export function parseProgramAccount(data: Uint8Array): string {
  if (data.length < PROGRAM_ACCOUNT_SIZE || u32(data, 0) !== TAG_PROGRAM)
    throw new Error('not a loader-v3 program account');
  return bs58.encode(data.subarray(4, 36));
}

export interface ProgramData {
  slot: bigint;
  /** The upgrade authority, or null once the program is final. */
  authority: string | null;
  /** The ELF and the zero padding after it (max data length in all). */
  bytes: Uint8Array;
}

export function parseProgramData(data: Uint8Array): ProgramData {
  if (data.length < PROGRAM_DATA_HEADER_SIZE || u32(data, 0) !== TAG_PROGRAM_DATA)
    throw new Error('not a loader-v3 ProgramData account');
  const slot = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(4, true);
  return { slot, authority: optionalKey(data, 12), bytes: data.subarray(PROGRAM_DATA_HEADER_SIZE) };
}

export function parseBuffer(data: Uint8Array): { authority: string | null; bytes: Uint8Array } {
  if (data.length < BUFFER_HEADER_SIZE || u32(data, 0) !== TAG_BUFFER)
    throw new Error('not a loader-v3 buffer account');
  return { authority: optionalKey(data, 4), bytes: data.subarray(BUFFER_HEADER_SIZE) };
}

/**
 * Where the ELF inside padded program data ends, from its own header: the end of the
 * section header table or of the last segment, whichever is later. Trailing zeros cannot
 * tell it (an ELF may itself end in zero bytes, ours does); null when it is no ELF64.
 */
export function elfLength(bytes: Uint8Array): number | null {
  if (
    bytes.length < 64 ||
    bytes[0] !== 0x7f ||
    bytes[1] !== 0x45 ||
    bytes[2] !== 0x4c ||
    bytes[3] !== 0x46 ||
    bytes[4] !== 2
  )
    return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shoff = Number(view.getBigUint64(40, true));
  let end = shoff + view.getUint16(58, true) * view.getUint16(60, true);
  const phoff = Number(view.getBigUint64(32, true));
  const phnum = view.getUint16(56, true);
  end = Math.max(end, 64, phoff + phnum * 56);
  for (let i = 0; i < phnum && phoff + i * 56 + 56 <= bytes.length; i++) {
    const at = phoff + i * 56;
    end = Math.max(end, Number(view.getBigUint64(at + 8, true) + view.getBigUint64(at + 32, true)));
  }
  return end <= bytes.length ? end : null;
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface Comparison {
  match: boolean;
  deployedLength: number;
  deployedSha256: string;
  localSha256: string;
  /** First offset where the bytes differ (or where one of them ends), when they do. */
  firstDifference: number | null;
}

/**
 * Deployed program data against a local build: equal when the data starts with the local
 * ELF and holds only zeros after it.
 */
export function compareProgram(deployedPadded: Uint8Array, local: Uint8Array): Comparison {
  const trailingStart = (() => {
    let end = deployedPadded.length;
    while (end > 0 && deployedPadded[end - 1] === 0) end--;
    return end;
  })();
  const deployedLength = elfLength(deployedPadded) ?? trailingStart;
  const deployed = deployedPadded.subarray(0, deployedLength);
  let firstDifference: number | null = null;
  const common = Math.min(local.length, deployedPadded.length);
  for (let i = 0; i < common; i++) {
    if (deployedPadded[i] !== local[i]) {
      firstDifference = i;
      break;
    }
  }
  if (firstDifference === null && local.length > deployedPadded.length) firstDifference = deployedPadded.length;
  if (firstDifference === null && trailingStart > local.length) firstDifference = local.length; // more bytes after the local ELF
  return {
    match: firstDifference === null,
    deployedLength,
    deployedSha256: sha256Hex(deployed),
    localSha256: sha256Hex(local),
    firstDifference,
  };
}
