/**
 * What a built transaction asks of the runtime (DESIGN "Operating"): a compute-unit limit
 * sized to its instructions (lib/chain/compute-units.ts) and a price per unit from the
 * cluster's recent fees (lib/chain/priority-fee.ts). The priority fee charged is
 * price × limit, so both travel together. No SDK here: the register page computes the fee
 * in the browser (lib/chain/registration-cost.ts).
 */
export interface ComputeBudget {
  units: number;
  microLamports: number;
}

/** Lamports per signature on every cluster today. */
export const LAMPORTS_PER_SIGNATURE = 5_000;

/** The network fee of a transaction with `signatures` signatures and this budget, as the runtime charges it. */
export function networkFee(signatures: number, { units, microLamports }: ComputeBudget): bigint {
  const priority = (BigInt(microLamports) * BigInt(units) + 999_999n) / 1_000_000n;
  return BigInt(signatures * LAMPORTS_PER_SIGNATURE) + priority;
}
