import { createNoopSigner, isWritableRole, type Address, type Instruction } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ID } from './pay-asset';
import {
  buildUnsignedTransaction,
  type LatestBlockhash,
  type UnsignedTransaction,
} from '@/lib/chain/build-unsigned-transaction';
import { limitFor } from '@/lib/chain/compute-units';
import { readonly } from '@/lib/chain/account-meta';
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotent,
  transferCheckedInstruction,
} from '@/lib/chain/spl-token';
import type { PayAsset } from './pay-asset';
import { IDENTITY_MEMO_UNITS, identityMemoInstruction, type ServiceIdentity } from './pay-action-identity';

/*
 * The transaction of the "pay @tag" Action: a plain transfer from the payer to the payout
 * wallet, SOL or SPL token, nothing else, with the `reference` key as a read-only account of
 * the transfer (the Solana Pay convention), so the payer's app finds it with
 * getSignaturesForAddress(reference). The payer pays the fee and signs; the service never does.
 */

/** One payment: who pays whom, what, and the reference key to find it by. */
export interface Payment {
  payer: Address;
  wallet: Address;
  asset: PayAsset;
  /** In the asset's base units (lamports, token atoms). */
  amount: bigint;
  reference: Address;
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
      : asset.tokenProgram === TOKEN_PROGRAM_ID
        ? PAY_UNITS.splToken
        : PAY_UNITS.token2022;
  return limitFor(transfer + IDENTITY_MEMO_UNITS);
}

export interface PayTransactionInput {
  payment: Payment;
  /** The service identity: its signed memo and its key go in the transaction (./pay-action-identity.ts). */
  identity: ServiceIdentity;
  /** From kit's `getLatestBlockhash`. */
  latest: LatestBlockhash;
  /** The compute-unit price, from the recent fees of the accounts the payment writes. */
  microLamports: number;
}

export async function buildPayTransaction({
  payment,
  identity,
  latest,
  microLamports,
}: PayTransactionInput): Promise<UnsignedTransaction> {
  const instructions = await payInstructions(payment);
  // The identity beside the reference, as a read-only key of the transfer: found by either.
  const transfer = withAccount(instructions.at(-1)!, identity.address);
  return buildUnsignedTransaction({
    feePayer: payment.payer,
    latest,
    budget: { units: payLimit(payment.asset), microLamports },
    instructions: [...instructions.slice(0, -1), transfer, identityMemoInstruction(identity, payment.reference)],
  });
}

/** The accounts a payment's transfer writes: what its priority fee is asked for. */
export async function writtenBy(payment: Payment): Promise<Address[]> {
  return (await payInstructions(payment)).flatMap((ix) =>
    (ix.accounts ?? []).filter((account) => isWritableRole(account.role)).map((account) => account.address),
  );
}

/** `instruction` with `key` added as a read-only account (kit's instructions are frozen). */
function withAccount(instruction: Instruction, key: Address): Instruction {
  return { ...instruction, accounts: [...(instruction.accounts ?? []), readonly(key)] };
}

export async function payInstructions({ payer, wallet, asset, amount, reference }: Payment): Promise<Instruction[]> {
  if (asset.kind === 'sol') {
    const transfer = getTransferSolInstruction({ source: createNoopSigner(payer), destination: wallet, amount });
    return [withAccount(transfer, reference)];
  }
  const { mint, tokenProgram, decimals } = asset;
  // The payout wallet may never have held this token: its account is created if missing (the payer pays the rent).
  const [createDestination, source, destination] = await Promise.all([
    createAssociatedTokenAccountIdempotent({ funder: payer, owner: wallet, mint, tokenProgram }),
    associatedTokenAddress(payer, mint, tokenProgram),
    associatedTokenAddress(wallet, mint, tokenProgram),
  ]);
  const transfer = transferCheckedInstruction({
    source,
    mint,
    destination,
    authority: payer,
    amount,
    decimals,
    tokenProgram,
  });
  return [createDestination, withAccount(transfer, reference)];
}
