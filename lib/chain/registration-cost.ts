import type { Address } from '@solana/kit';
import { findTagRecordPda } from '@/packages/tag-registry/src/generated/pdas/tagRecord';
import { registerTagLimit } from './compute-units';
import { networkFee } from './network-fee';

export interface RegistrationCost {
  /** Rent of the tag's record: held by the record, paid back to whoever releases it. */
  rent: bigint;
  /** The network fee at most: signatures plus the priority fee at the ceiling price for the whole limit. */
  fee: bigint;
  total: bigint;
}

/**
 * The bump of `tag`'s record address, which its registration's compute limit depends on
 * (lib/chain/compute-units.ts). kit derives it with the platform's SHA-256, so it is async.
 */
export async function tagRecordBump(tag: string, programId: string): Promise<number> {
  const [, bump] = await findTagRecordPda({ tag }, { programAddress: programId as Address });
  return bump;
}

/**
 * The most registering `tag` costs its payer (DESIGN "Register"): the record's rent plus the
 * network fee when the built transaction's price sits at the ceiling. Browser-safe: the
 * register page shows it before anything is built or signed.
 */
export function maxRegistrationCost(a: {
  tag: string;
  /** `tagRecordBump(tag, programId)`. */
  bump: number;
  rentLamports: number;
  maxMicroLamports: number;
  signatures: number;
}): RegistrationCost {
  const rent = BigInt(a.rentLamports);
  const fee = networkFee(a.signatures, { units: registerTagLimit(a.tag, a.bump), microLamports: a.maxMicroLamports });
  return { rent, fee, total: rent + fee };
}
