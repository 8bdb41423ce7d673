import { SystemProgram, type BlockhashWithExpiryBlockHeight, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { buildUnsignedTransaction, type UnsignedTransaction } from '@/lib/registry/build-unsigned-transaction';
import { readonly } from '@/lib/solana/account-meta';
import { associatedTokenAddress, createAssociatedTokenAccountIdempotent, transferCheckedInstruction } from '@/lib/solana/spl-token';
import type { PayAsset } from './pay-asset';

/*
 * The transaction of the "pay @tag" Action: a plain transfer from the payer to the payout
 * wallet, SOL or SPL token, nothing else, with the `reference` key as a read-only account of
 * the transfer (the Solana Pay convention), so the payer's app finds it with
 * getSignaturesForAddress(reference). The payer pays the fee and signs; the service never does.
 */

export interface PayInput {
  payer: PublicKey;
  wallet: PublicKey;
  asset: PayAsset;
  /** In the asset's base units (lamports, token atoms). */
  amount: bigint;
  reference: PublicKey;
  latest: BlockhashWithExpiryBlockHeight;
}

export function buildPayTransaction(input: PayInput): UnsignedTransaction {
  return buildUnsignedTransaction({ feePayer: input.payer, latest: input.latest, instructions: payInstructions(input) });
}

export function payInstructions({ payer, wallet, asset, amount, reference }: PayInput): TransactionInstruction[] {
  const referenceKey = readonly(reference);
  if (asset.kind === 'sol') {
    const transfer = SystemProgram.transfer({ fromPubkey: payer, toPubkey: wallet, lamports: amount });
    transfer.keys.push(referenceKey);
    return [transfer];
  }
  const { mint, tokenProgram, decimals } = asset;
  // The payout wallet may never have held this token: its account is created if missing (the payer pays the rent).
  const createDestination = createAssociatedTokenAccountIdempotent({ funder: payer, owner: wallet, mint, tokenProgram });
  const transfer = transferCheckedInstruction({
    source: associatedTokenAddress(payer, mint, tokenProgram),
    mint,
    destination: associatedTokenAddress(wallet, mint, tokenProgram),
    authority: payer,
    amount,
    decimals,
    tokenProgram,
  });
  transfer.keys.push(referenceKey);
  return [createDestination, transfer];
}
