import { Transaction, type BlockhashWithExpiryBlockHeight, type PublicKey, type TransactionInstruction } from '@solana/web3.js';

/** The answer of every transaction builder of /v1: wire bytes in base64 and the expiry height. */
export interface UnsignedTransaction {
  transaction: string;
  lastValidBlockHeight: string;
}

export interface UnsignedTransactionInput {
  feePayer: PublicKey;
  /** From `getLatestBlockhash` (the builders read it in parallel with their own checks). */
  latest: BlockhashWithExpiryBlockHeight;
  instructions: readonly TransactionInstruction[];
}

/**
 * The pieces every builder of /v1 shares (DESIGN "Register", "Lifecycle"): a legacy
 * transaction, fee payer first, the cluster's recent blockhash, then the program's
 * instructions (no compute budget: the wallet or the runtime decides); serialized without any
 * signature (wallets may still add instructions before signing) and base64-encoded, with
 * `lastValidBlockHeight` as a decimal string. Never signs.
 */
export function buildUnsignedTransaction({ feePayer, latest, instructions }: UnsignedTransactionInput): UnsignedTransaction {
  const tx = new Transaction({ feePayer, blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight });
  tx.add(...instructions);
  const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
  return { transaction: wire.toString('base64'), lastValidBlockHeight: String(latest.lastValidBlockHeight) };
}
