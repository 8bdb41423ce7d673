import { PublicKey } from '@solana/web3.js';
import { networkFee } from './compute-budget';
import { registerTagLimit } from './compute-units';
import { findTagRecordAddress } from '@/packages/tag-registry/src/web3js';

export interface RegistrationCost {
  /** Rent of the tag's record: held by the record, paid back to whoever releases it. */
  rent: bigint;
  /** The network fee at most: signatures plus the priority fee at the ceiling price for the whole limit. */
  fee: bigint;
  total: bigint;
}

/**
 * The most registering `tag` costs its payer (DESIGN "Register"): the record's rent plus the
 * network fee when the built transaction's price sits at the ceiling. Browser-safe: the
 * register page shows it before anything is built or signed.
 */
export function maxRegistrationCost(a: {
  tag: string;
  programId: string;
  rentLamports: number;
  maxMicroLamports: number;
  signatures: number;
}): RegistrationCost {
  const [, bump] = findTagRecordAddress(a.tag, new PublicKey(a.programId));
  const rent = BigInt(a.rentLamports);
  const fee = networkFee(a.signatures, { units: registerTagLimit(a.tag, bump), microLamports: a.maxMicroLamports });
  return { rent, fee, total: rent + fee };
}
