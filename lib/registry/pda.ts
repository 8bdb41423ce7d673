import { PublicKey } from '@solana/web3.js';

/** First seed of every tag record PDA; the second is the tag's bytes. */
export const TAG_SEED = 'tag';

/**
 * The tag record address `findProgramAddress(["tag", tag], programId)` and its canonical
 * bump. The tag must already be canonical (≤ 32 bytes, one seed); longer input throws.
 */
export function findTagRecordAddress(tag: string, programId: PublicKey): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([Buffer.from(TAG_SEED), Buffer.from(tag, 'utf8')], programId);
}
