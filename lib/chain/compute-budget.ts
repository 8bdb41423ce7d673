import {
  ComputeBudgetInstruction,
  ComputeBudgetProgram,
  type Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import type { ComputeBudget } from './network-fee';

export { LAMPORTS_PER_SIGNATURE, networkFee, type ComputeBudget } from './network-fee';

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
