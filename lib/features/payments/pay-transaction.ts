import {
  SystemProgram,
  type BlockhashWithExpiryBlockHeight,
  type Keypair,
  type PublicKey,
  type TransactionInstruction,
} from '@solana/web3.js';
import { AccountRole, address, blockhash, type Instruction } from '@solana/kit';
import { TOKEN_PROGRAM_ID } from './pay-asset';
import { buildUnsignedTransaction, type UnsignedTransaction } from '@/lib/chain/build-unsigned-transaction';
import { limitFor } from '@/lib/chain/compute-units';
import { readonly } from '@/lib/chain/account-meta';
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotent,
  transferCheckedInstruction,
} from '@/lib/chain/spl-token';
import type { PayAsset } from './pay-asset';
import { IDENTITY_MEMO_UNITS, identityMemoInstruction } from './pay-action-identity';

/*
 * The transaction of the "pay @tag" Action: a plain transfer from the payer to the payout
 * wallet, SOL or SPL token, nothing else, with the `reference` key as a read-only account of
 * the transfer (the Solana Pay convention), so the payer's app finds it with
 * getSignaturesForAddress(reference). The payer pays the fee and signs; the service never does.
 */

/** One payment: who pays whom, what, and the reference key to find it by. */
export interface Payment {
  payer: PublicKey;
  wallet: PublicKey;
  asset: PayAsset;
  /** In the asset's base units (lamports, token atoms). */
  amount: bigint;
  reference: PublicKey;
}

/*
 * What the transfers cost, known rather than simulated per payment: a System transfer is a
 * builtin charged 150 CU. A token payment is CreateIdempotent (creating the payee's account
 * the first time) then TransferChecked, measured for a plain mint in LiteSVM with the programs
 * it ships (bench/results/figures-once-in-comments.md). The allowances are well above that: the programs deployed on a
 * cluster differ by version, and Token-2022 extensions add work.
 */
export const PAY_UNITS = {
  sol: 150,
  splToken: 40_000,
  token2022: 60_000,
} as const;

/** The compute-unit limit of a payment's transaction, its identity memo included. */
export function payLimit(asset: PayAsset): number {
  const transfer =
    asset.kind === 'sol'
      ? PAY_UNITS.sol
      : asset.tokenProgram.equals(TOKEN_PROGRAM_ID)
        ? PAY_UNITS.splToken
        : PAY_UNITS.token2022;
  return limitFor(transfer + IDENTITY_MEMO_UNITS);
}

export interface PayTransactionInput {
  payment: Payment;
  /** The service identity: its signed memo and its key go in the transaction (./pay-action-identity.ts). */
  identity: Keypair;
  latest: BlockhashWithExpiryBlockHeight;
  /** The compute-unit price, from the recent fees of the accounts the payment writes. */
  microLamports: number;
}

export function buildPayTransaction({
  payment,
  identity,
  latest,
  microLamports,
}: PayTransactionInput): UnsignedTransaction {
  const instructions = payInstructions(payment);
  // The identity beside the reference, as a read-only key of the transfer: found by either.
  instructions.at(-1)!.keys.push(readonly(identity.publicKey));
  return buildUnsignedTransaction({
    feePayer: address(payment.payer.toBase58()),
    latest: { blockhash: blockhash(latest.blockhash), lastValidBlockHeight: BigInt(latest.lastValidBlockHeight) },
    budget: { units: payLimit(payment.asset), microLamports },
    instructions: [...instructions, identityMemoInstruction(identity, payment.reference)].map(kitInstruction),
  });
}

export function payInstructions({ payer, wallet, asset, amount, reference }: Payment): TransactionInstruction[] {
  const referenceKey = readonly(reference);
  if (asset.kind === 'sol') {
    const transfer = SystemProgram.transfer({ fromPubkey: payer, toPubkey: wallet, lamports: amount });
    transfer.keys.push(referenceKey);
    return [transfer];
  }
  const { mint, tokenProgram, decimals } = asset;
  // The payout wallet may never have held this token: its account is created if missing (the payer pays the rent).
  const createDestination = createAssociatedTokenAccountIdempotent({
    funder: payer,
    owner: wallet,
    mint,
    tokenProgram,
  });
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

/** A web3.js instruction as kit's, for the shared builder (lib/chain/build-unsigned-transaction.ts) until this file moves to kit. */
function kitInstruction(ix: TransactionInstruction): Instruction {
  return {
    programAddress: address(ix.programId.toBase58()),
    accounts: ix.keys.map((key) => ({
      address: address(key.pubkey.toBase58()),
      role: key.isSigner
        ? key.isWritable
          ? AccountRole.WRITABLE_SIGNER
          : AccountRole.READONLY_SIGNER
        : key.isWritable
          ? AccountRole.WRITABLE
          : AccountRole.READONLY,
    })),
    data: new Uint8Array(ix.data),
  };
}
