import { PublicKey, SystemProgram, TransactionInstruction, type BlockhashWithExpiryBlockHeight } from '@solana/web3.js';
import { buildUnsignedTransaction, type UnsignedTransaction } from '@/lib/registry/build-unsigned-transaction';
import { readonly, signer, writable, writableSigner } from '@/lib/solana/account-meta';
import type { PayAsset } from './pay-asset';

/*
 * The transaction of the "pay @tag" Action: a plain transfer from the payer to the payout
 * wallet, SOL or SPL token, nothing else, with the `reference` key as a read-only account of
 * the transfer (the Solana Pay convention), so the payer's app finds it with
 * getSignaturesForAddress(reference). The payer pays the fee and signs; the service never does.
 */

export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

/** SPL Token `TransferChecked` (both token programs). */
const TRANSFER_CHECKED = 12;
/** Associated Token Account program `CreateIdempotent`. */
const CREATE_IDEMPOTENT = 1;

export interface PayInput {
  payer: PublicKey;
  wallet: PublicKey;
  asset: PayAsset;
  /** In the asset's base units (lamports, token atoms). */
  amount: bigint;
  reference: PublicKey;
  latest: BlockhashWithExpiryBlockHeight;
}

export function associatedTokenAddress(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([owner.toBuffer(), tokenProgram.toBuffer(), mint.toBuffer()], ASSOCIATED_TOKEN_PROGRAM_ID)[0];
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
  const source = associatedTokenAddress(payer, mint, tokenProgram);
  const destination = associatedTokenAddress(wallet, mint, tokenProgram);
  // The payout wallet may never have held this token: its account is created if missing (the payer pays the rent).
  const createDestination = new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    // funder, the account to create, its owner, the mint, System Program, token program
    keys: [writableSigner(payer), writable(destination), readonly(wallet), readonly(mint), readonly(SystemProgram.programId), readonly(tokenProgram)],
    data: Buffer.from([CREATE_IDEMPOTENT]),
  });
  const data = Buffer.alloc(10);
  data.writeUInt8(TRANSFER_CHECKED, 0);
  data.writeBigUInt64LE(amount, 1);
  data.writeUInt8(decimals, 9);
  const transfer = new TransactionInstruction({
    programId: tokenProgram,
    keys: [writable(source), readonly(mint), writable(destination), signer(payer), referenceKey],
    data,
  });
  return [createDestination, transfer];
}
