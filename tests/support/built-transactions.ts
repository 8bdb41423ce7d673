import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  ComputeBudgetInstruction,
  identifyComputeBudgetInstruction,
} from '@solana-program/compute-budget';
import { getBase64EncodedWireTransaction, partiallySignTransaction, type KeyPairSigner } from '@solana/kit';
import { expect } from 'vitest';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { decodeWire, reachAll, sendWire } from './chain';

/*
 * The transactions the app builds (unsigned, compute budget first), read and landed on kit.
 */

/**
 * A built transaction's own instructions: what follows its compute budget, after checking
 * that the budget comes first (SetComputeUnitLimit, then SetComputeUnitPrice).
 */
export function afterBudget(message: ReturnType<typeof decodeWire>['message']) {
  const [limit, price] = message.instructions;
  expect(
    [limit, price].map(
      (ix) =>
        ix &&
        ix.programAddress === COMPUTE_BUDGET_PROGRAM_ADDRESS &&
        ix.data &&
        ComputeBudgetInstruction[identifyComputeBudgetInstruction(ix.data)],
    ),
  ).toEqual(['SetComputeUnitLimit', 'SetComputeUnitPrice']);
  return message.instructions.slice(2);
}

/**
 * Signs a built transaction (wire bytes in base64, its other signature slots as they are) with
 * each signer in the order given, sends it, waits until it is confirmed, and answers its
 * signature and meta once it succeeded.
 */
export async function landBuilt(rpc: SolanaRpc, base64: string, ...signers: KeyPairSigner[]) {
  const signature = await sendWire(rpc, await signBuilt(base64, ...signers));
  await reachAll(rpc, [signature], 'confirmed');
  const landed = await rpc
    .getTransaction(signature, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 })
    .send();
  expect(landed?.meta?.err ?? null).toBeNull();
  return { signature, meta: landed!.meta! };
}

/** Signs a built transaction with each signer in turn; its wire bytes, the signatures still missing left empty. */
export async function signBuilt(base64: string, ...signers: KeyPairSigner[]) {
  let { transaction } = decodeWire(base64);
  for (const signer of signers) transaction = await partiallySignTransaction([signer.keyPair], transaction);
  return getBase64EncodedWireTransaction(transaction);
}
