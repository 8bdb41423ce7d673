/**
 * Program derived addresses, synchronously: kit's `getProgramDerivedAddress` is async (it
 * hashes with WebCrypto), while LiteSVM, the loader-v3 builders and the localnet's genesis
 * are synchronous. The derivation is the runtime's: sha256(seeds ‖ bump ‖ program ‖
 * "ProgramDerivedAddress"), the first bump from 255 down whose hash is off the ed25519 curve.
 * tests/abi/tag-registry.test.ts checks the tag record's against the generated `findTagRecordPda`.
 */
import { getAddressDecoder, getAddressEncoder, isOffCurveAddress, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';

const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');
/** The runtime's limits on seeds (the bump counts as one). */
const MAX_SEEDS = 16;
const MAX_SEED_BYTES = 32;

/** The program address of exactly `seeds` (the bump among them) under `program`; `null` when it falls on the curve. */
export function createProgramAddressSync(seeds: readonly Uint8Array[], program: Address): Address | null {
  if (seeds.length > MAX_SEEDS) throw new RangeError(`at most ${MAX_SEEDS} seeds, got ${seeds.length}`);
  for (const seed of seeds) {
    if (seed.length > MAX_SEED_BYTES)
      throw new RangeError(`a seed is at most ${MAX_SEED_BYTES} bytes, got ${seed.length}`);
  }
  const hash = createHash('sha256');
  for (const seed of seeds) hash.update(seed);
  hash.update(new Uint8Array(getAddressEncoder().encode(program))).update(PDA_MARKER);
  const candidate = getAddressDecoder().decode(hash.digest());
  return isOffCurveAddress(candidate) ? candidate : null;
}

/** The canonical program address of `seeds` under `program` and its bump. */
export function findProgramAddressSync(seeds: readonly Uint8Array[], program: Address): [Address, number] {
  for (let bump = 255; bump >= 0; bump--) {
    const candidate = createProgramAddressSync([...seeds, Uint8Array.of(bump)], program);
    if (candidate) return [candidate, bump];
  }
  throw new Error('no bump gives an address off the curve');
}

/** First seed of every tag record (the IDL's const seed); the second is the tag's bytes. */
const TAG_SEED = new TextEncoder().encode('tag');

/** The tag record address `["tag", tag]` and its canonical bump, under the localnet's program unless given. */
export function findTagRecordAddress(
  tag: string,
  program: Address = LOCALNET_PROGRAM_ID as Address,
): [Address, number] {
  return findProgramAddressSync([TAG_SEED, new TextEncoder().encode(tag)], program);
}
