import {
  ComputeBudgetInstruction,
  ComputeBudgetProgram,
  type Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { expect } from 'vitest';

/**
 * A built transaction's own instructions: what follows its compute budget, after checking
 * that the budget comes first (SetComputeUnitLimit, then SetComputeUnitPrice).
 */
export function afterBudget(tx: Transaction): TransactionInstruction[] {
  const [limit, price] = tx.instructions;
  expect(
    [limit, price].map(
      (ix) =>
        ix && ix.programId.equals(ComputeBudgetProgram.programId) && ComputeBudgetInstruction.decodeInstructionType(ix),
    ),
  ).toEqual(['SetComputeUnitLimit', 'SetComputeUnitPrice']);
  return tx.instructions.slice(2);
}
