import {
  ComputeBudgetInstruction,
  ComputeBudgetProgram,
  type Connection,
  type Keypair,
  type Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { expect } from 'vitest';
import { confirmed } from './chain';

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

/** Signs `tx` (in the order given), sends it, waits until it is confirmed, and answers its meta once it succeeded. */
export async function landSigned(connection: Connection, tx: Transaction, ...signers: Keypair[]) {
  for (const signer of signers) tx.partialSign(signer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await confirmed(connection, signature);
  const landed = await connection.getTransaction(signature, {
    commitment: 'confirmed',
    maxSupportedTransactionVersion: 0,
  });
  expect(landed?.meta?.err ?? null).toBeNull();
  return landed!.meta!;
}
