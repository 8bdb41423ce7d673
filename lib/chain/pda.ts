import { PublicKey } from '@solana/web3.js';

/** First seed of every tag record PDA; the second is the tag's bytes. */
export const TAG_SEED = 'tag';

/**
 * The tag record address `findProgramAddress(["tag", tag], programId)` and its canonical
 * bump. The tag must already be canonical (≤ 32 bytes, one seed); longer input throws.
 */
export function findTagRecordAddress(tag: string, programId: PublicKey): [PublicKey, number] {
  // TextEncoder rather than Buffer: the register page computes it in the browser too.
  return PublicKey.findProgramAddressSync([UTF8.encode(TAG_SEED), UTF8.encode(tag)], programId);
}

const UTF8 = new TextEncoder();
