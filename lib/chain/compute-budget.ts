import {
  ComputeBudgetInstruction,
  ComputeBudgetProgram,
  type Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';

/**
 * What a built transaction asks of the runtime (DESIGN "Operating"): a compute-unit limit
 * sized to its instructions (lib/chain/compute-units.ts) and a price per unit from the
 * cluster's recent fees (lib/chain/priority-fee.ts). The priority fee charged is
 * price × limit, so both travel together.
 */
export interface ComputeBudget {
  units: number;
  microLamports: number;
}

/** SetComputeUnitLimit then SetComputeUnitPrice: the two instructions every built transaction starts with. */
export function computeBudgetInstructions({ units, microLamports }: ComputeBudget): TransactionInstruction[] {
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports }),
  ];
}

/** The budget a transaction carries, read back from its instructions (null when it lacks either). */
export function readComputeBudget(tx: Pick<Transaction, 'instructions'>): ComputeBudget | null {
  let units: number | null = null;
  let microLamports: number | null = null;
  for (const ix of tx.instructions) {
    if (!ix.programId.equals(ComputeBudgetProgram.programId)) continue;
    const type = ComputeBudgetInstruction.decodeInstructionType(ix);
    if (type === 'SetComputeUnitLimit') units = ComputeBudgetInstruction.decodeSetComputeUnitLimit(ix).units;
    if (type === 'SetComputeUnitPrice')
      microLamports = Number(ComputeBudgetInstruction.decodeSetComputeUnitPrice(ix).microLamports);
  }
  return units === null || microLamports === null ? null : { units, microLamports };
}

/** Lamports per signature on every cluster today. */
export const LAMPORTS_PER_SIGNATURE = 5_000;

/** The network fee of a transaction with `signatures` signatures and this budget, as the runtime charges it. */
export function networkFee(signatures: number, { units, microLamports }: ComputeBudget): bigint {
  const priority = (BigInt(microLamports) * BigInt(units) + 999_999n) / 1_000_000n;
  return BigInt(signatures * LAMPORTS_PER_SIGNATURE) + priority;
}
