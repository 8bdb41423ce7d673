import {
  decompileTransactionMessage,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  partiallySignTransaction,
  type Instruction,
  type KeyPairSigner,
  type Signature,
  type Transaction,
} from '@solana/kit';
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  ComputeBudgetInstruction,
  identifyComputeBudgetInstruction,
} from '@solana-program/compute-budget';
import { expect } from 'vitest';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { reachAll } from './kit-chain';

/*
 * The transactions the app answers, read and signed with kit: what a wallet does with the
 * base64 of a builder or the pay Action.
 */

/** The wire transaction of base64 `wire`, its legacy message (what every builder of ours makes), and that message decompiled. */
export function decodeWire(wire: string) {
  const transaction = getTransactionDecoder().decode(Buffer.from(wire, 'base64'));
  const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (compiled.version !== 'legacy') throw new Error(`a ${compiled.version} message, not a legacy one`);
  return { transaction, compiled, message: decompileTransactionMessage(compiled) };
}

/**
 * A built transaction's own instructions: what follows its compute budget, after checking
 * that the budget comes first (SetComputeUnitLimit, then SetComputeUnitPrice).
 */
export function afterKitBudget(instructions: readonly Instruction[]): Instruction[] {
  const [limit, price] = instructions;
  expect(
    [limit, price].map(
      (ix) =>
        ix &&
        ix.programAddress === COMPUTE_BUDGET_PROGRAM_ADDRESS &&
        ComputeBudgetInstruction[identifyComputeBudgetInstruction(ix.data!)],
    ),
  ).toEqual(['SetComputeUnitLimit', 'SetComputeUnitPrice']);
  return instructions.slice(2);
}

/** Signs the wire transaction with `signers` (its other signature slots stay as they are), sends it, and waits until it is confirmed; throws if it failed. */
export async function signAndSendWire(rpc: SolanaRpc, wire: string, ...signers: KeyPairSigner[]): Promise<Signature> {
  const { transaction } = decodeWire(wire);
  const signed: Transaction = await partiallySignTransaction(
    signers.map((s) => s.keyPair),
    transaction,
  );
  const signature = await rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', preflightCommitment: 'confirmed' })
    .send();
  await reachAll(rpc, [signature], 'confirmed', 60_000, { refuseFailed: true });
  return signature;
}
