import {
  Transaction,
  type BlockhashWithExpiryBlockHeight,
  type PublicKey,
  type TransactionInstruction,
} from '@solana/web3.js';
import { computeBudgetInstructions, type ComputeBudget } from './compute-budget';

/** The answer of every transaction builder of /v1: wire bytes in base64 and the expiry height. */
export interface UnsignedTransaction {
  transaction: string;
  lastValidBlockHeight: string;
}

export interface UnsignedTransactionInput {
  feePayer: PublicKey;
  /** From `getLatestBlockhash` (the builders read it in parallel with their own checks). */
  latest: BlockhashWithExpiryBlockHeight;
  /** The limit sized to `instructions` and the price from the cluster's recent fees. */
  budget: ComputeBudget;
  instructions: readonly TransactionInstruction[];
}

/**
 * The pieces every builder of /v1 shares (DESIGN "Register", "Lifecycle", "Operating"): a
 * legacy transaction, fee payer first, the cluster's recent blockhash, SetComputeUnitLimit
 * and SetComputeUnitPrice, then the instructions; serialized without any signature and
 * base64-encoded, with `lastValidBlockHeight` as a decimal string. Never signs. A caller
 * reads the chosen limit and price from the transaction itself (readComputeBudget).
 */
export function buildUnsignedTransaction({
  feePayer,
  latest,
  budget,
  instructions,
}: UnsignedTransactionInput): UnsignedTransaction {
  const tx = new Transaction({
    feePayer,
    blockhash: latest.blockhash,
    lastValidBlockHeight: latest.lastValidBlockHeight,
  });
  tx.add(...computeBudgetInstructions(budget), ...instructions);
  const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
  return { transaction: wire.toString('base64'), lastValidBlockHeight: String(latest.lastValidBlockHeight) };
}
