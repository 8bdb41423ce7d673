import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
} from '@solana/kit';
import { computeBudgetInstructions, type ComputeBudget } from './compute-budget';

/** The answer of every transaction builder of /v1: wire bytes in base64 and the expiry height. */
export interface UnsignedTransaction {
  transaction: string;
  lastValidBlockHeight: string;
}

/** A recent blockhash and the last block height it is valid at, as getLatestBlockhash answers. */
export interface LatestBlockhash {
  blockhash: Blockhash;
  lastValidBlockHeight: bigint;
}

export interface UnsignedTransactionInput {
  feePayer: Address;
  /** From `getLatestBlockhash` (the builders read it in parallel with their own checks). */
  latest: LatestBlockhash;
  /** The limit sized to `instructions` and the price from the cluster's recent fees. */
  budget: ComputeBudget;
  instructions: readonly Instruction[];
}

/**
 * The pieces every builder of /v1 shares (DESIGN "Register", "Lifecycle", "Operating"): a
 * legacy transaction, fee payer first, the cluster's recent blockhash, SetComputeUnitLimit
 * and SetComputeUnitPrice, then the instructions; serialized with every signature slot
 * empty (zeros) and base64-encoded, with `lastValidBlockHeight` as a decimal string. Never
 * signs. A caller reads the chosen limit and price from the transaction itself (readComputeBudget).
 */
export function buildUnsignedTransaction({
  feePayer,
  latest,
  budget,
  instructions,
}: UnsignedTransactionInput): UnsignedTransaction {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions([...computeBudgetInstructions(budget), ...instructions], m),
  );
  return {
    transaction: getBase64EncodedWireTransaction(compileTransaction(message)),
    lastValidBlockHeight: String(latest.lastValidBlockHeight),
  };
}
