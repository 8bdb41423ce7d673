import { address, isWritableRole, type Address, type Instruction } from '@solana/kit';
import type { BuilderServices } from '@/lib/chain/chain-and-mirror';
import { AppError } from '@/lib/core/errors';
import { recentPriorityFee } from '@/lib/chain/priority-fee';
import { getChain, rpcCall } from '@/lib/chain/rpc';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import { findIdentityRow } from '@/lib/features/identity/queries';
import { isReservedTag } from '@/lib/core/tag';
import {
  findTagRecordPda,
  getAcceptTransferInstruction,
  getCancelTransferInstruction,
  getOfferTransferInstruction,
  getReleaseTagInstruction,
  getSetWalletInstruction,
} from '@/packages/tag-registry/src';
import { buildUnsignedTransaction } from '@/lib/chain/build-unsigned-transaction';
import { lifecycleLimit } from '@/lib/chain/compute-units';
import { noopSigners } from '@/lib/chain/noop-signers';
import { readTagRecord } from '@/lib/chain/read-tag-record';
import type { TagRecord } from '@/lib/chain/record-states';
import { unsafePayout, unsafePayoutReason } from '@/lib/chain/payout-safety';
import type { LifecycleTransaction } from './schemas';

/** One lifecycle instruction and its arguments, as the routes parsed them (DESIGN "ABI"). */
export type LifecycleOperation =
  | { kind: 'set_wallet'; wallet: string }
  | { kind: 'offer_transfer'; newOwner: string }
  | { kind: 'cancel_transfer' }
  | { kind: 'accept_transfer' }
  | { kind: 'release_tag'; receiver?: string };

export interface BuildLifecycleInput {
  /** The authenticated caller (the session token's `sub`): the signer, never read from the body. */
  caller: string;
  /** Canonical tag, parsed from the path. */
  tag: string;
  operation: LifecycleOperation;
  /** Sponsor paying the fee; defaults to the caller. */
  feePayer?: string;
}

export const NO_OFFER_MESSAGE = 'No transfer offer stands for this tag.';
export const OFFER_TO_OWNER_MESSAGE = 'The tag already belongs to this key; offer it to another one.';
export const NOT_OWNER_MESSAGE = 'This tag belongs to another public key.';
export const NOT_PENDING_OWNER_MESSAGE = 'This tag is not offered to this public key.';

/**
 * The lifecycle builders of /v1 (DESIGN "Lifecycle"): an UNSIGNED legacy
 * transaction with the compute budget (the instruction's measured worst case as the limit, a
 * price from the recent fees of the accounts it writes) and one lifecycle instruction, signed by the caller (the owner, or for accept
 * the pending owner), the sponsor if any, and for set_wallet the new payout wallet when it is
 * another key (it consents by signing, DESIGN "Payout rules"). Never signs, never submits,
 * never writes the mirror. After the route's 400 and 401, in this order: 400 `unsafe_payout`
 * for a set_wallet whose wallet SOL sent to would be lost (lib/chain/payout-safety.ts); 404
 * for a tag without a live record on chain (a resting one counts as none) or blocked in the mirror; 409 when no offer stands (accept, cancel) or for an offer
 * to the owner itself; 403 when the caller is not the owner (accept: not the pending owner),
 * judged on the record as the cluster holds it at `confirmed`, so a stale mirror cannot
 * grant or refuse; 503 when the cluster cannot be reached.
 */
export async function buildLifecycleTransaction(
  { db, config }: BuilderServices,
  { caller, tag, operation, feePayer }: BuildLifecycleInput,
): Promise<LifecycleTransaction> {
  const { rpc, programAddress } = getChain(config);
  const [pda] = await findTagRecordPda({ tag }, { programAddress });
  if (operation.kind === 'release_tag' && operation.receiver === pda) {
    throw new AppError('invalid_request', '`receiver`: must not be the tag record itself');
  }
  const signer = address(caller);
  const payer = feePayer ? address(feePayer) : signer;
  const instruction = instructionFor(operation, { programAddress, tagRecord: pda, signer });
  const writable = (instruction.accounts ?? []).filter((account) => isWritableRole(account.role)).map((a) => a.address);
  // The reads at once: one round trip to each side on the happy path.
  const [unsafe, row, record, { value: latest }, microLamports] = await Promise.all([
    operation.kind === 'set_wallet' ? unsafePayoutReason(rpc, address(operation.wallet)) : null,
    findIdentityRow(db, tag),
    readTagRecord(rpc, programAddress, pda),
    rpcCall(() => rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()),
    recentPriorityFee(rpc, [...writable, payer], config.priorityFee),
  ]);
  if (unsafe && operation.kind === 'set_wallet') throw unsafePayout(operation.wallet, unsafe);
  if (!record || row?.status === 'blocked' || isReservedTag(tag)) throw tagNotFound();
  checkState(record, operation);
  checkCaller(record, operation, caller);

  return buildUnsignedTransaction({
    feePayer: payer,
    latest,
    budget: { units: lifecycleLimit(operation.kind), microLamports },
    instructions: [instruction],
  });
}

/** 409: what the program would refuse whoever signs (no offer to take back or accept, an offer to the owner). */
function checkState(record: TagRecord, operation: LifecycleOperation): void {
  const pending = pendingOwnerOf(record);
  if ((operation.kind === 'cancel_transfer' || operation.kind === 'accept_transfer') && pending === null) {
    throw new AppError('conflict', NO_OFFER_MESSAGE);
  }
  if (operation.kind === 'offer_transfer' && operation.newOwner === record.owner) {
    throw new AppError('conflict', OFFER_TO_OWNER_MESSAGE);
  }
}

/** 403: the caller must be the owner on chain; for accept, the pending owner. */
function checkCaller(record: TagRecord, operation: LifecycleOperation, caller: string): void {
  if (operation.kind === 'accept_transfer') {
    if (pendingOwnerOf(record) !== caller) throw new AppError('forbidden', NOT_PENDING_OWNER_MESSAGE);
  } else if (record.owner !== caller) {
    throw new AppError('forbidden', NOT_OWNER_MESSAGE);
  }
}

function pendingOwnerOf(record: TagRecord): string | null {
  return record.pendingOwner;
}

function instructionFor(
  operation: LifecycleOperation,
  { programAddress, tagRecord, signer }: { programAddress: Address; tagRecord: Address; signer: Address },
): Instruction {
  const signerOf = noopSigners();
  const owner = signerOf(signer);
  const config = { programAddress };
  switch (operation.kind) {
    case 'set_wallet': {
      const wallet = address(operation.wallet);
      return getSetWalletInstruction({ tagRecord, owner, wallet: signerOf(wallet), walletArg: wallet }, config);
    }
    case 'offer_transfer':
      return getOfferTransferInstruction({ tagRecord, owner, newOwner: address(operation.newOwner) }, config);
    case 'cancel_transfer':
      return getCancelTransferInstruction({ tagRecord, owner }, config);
    case 'accept_transfer':
      return getAcceptTransferInstruction({ tagRecord, newOwner: owner }, config);
    case 'release_tag':
      return getReleaseTagInstruction(
        { tagRecord, owner, receiver: operation.receiver ? address(operation.receiver) : signer },
        config,
      );
  }
}
