import { address } from '@solana/kit';
import { PublicKey, type TransactionInstruction } from '@solana/web3.js';
import type { BuilderServices } from '@/lib/chain/chain-and-mirror';
import { AppError } from '@/lib/core/errors';
import { recentPriorityFee } from '@/lib/chain/priority-fee';
import { getChain, rpcCall } from '@/lib/chain/rpc';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import { findIdentityRow } from '@/lib/features/identity/queries';
import { isReservedTag } from '@/lib/core/tag';
import {
  type TagRecord,
  acceptTransferInstruction,
  cancelTransferInstruction,
  offerTransferInstruction,
  releaseTagInstruction,
  setWalletInstruction,
  findTagRecordAddress,
} from '@/packages/tag-registry/src/web3js';
import { buildUnsignedTransaction } from '@/lib/chain/build-unsigned-transaction';
import { lifecycleLimit } from '@/lib/chain/compute-units';
import { readTagRecord } from '@/lib/chain/read-tag-record';
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
  const { connection, programId, rpc } = getChain(config);
  const [pda] = findTagRecordAddress(tag, programId);
  if (operation.kind === 'release_tag' && operation.receiver === pda.toBase58()) {
    throw new AppError('invalid_request', '`receiver`: must not be the tag record itself');
  }
  const signer = new PublicKey(caller);
  const payer = feePayer ? new PublicKey(feePayer) : signer;
  const instruction = instructionFor(operation, { programId, tagRecord: pda, signer });
  const writable = instruction.keys.filter((key) => key.isWritable).map((key) => key.pubkey);
  // The reads at once: one round trip to each side on the happy path.
  const [unsafe, row, record, latest, microLamports] = await Promise.all([
    operation.kind === 'set_wallet' ? unsafePayoutReason(rpc, address(operation.wallet)) : null,
    findIdentityRow(db, tag),
    readTagRecord(connection, programId, pda),
    rpcCall(() => connection.getLatestBlockhash('confirmed')),
    recentPriorityFee(connection, [...writable, payer], config.priorityFee),
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
  if (operation.kind === 'offer_transfer' && operation.newOwner === record.owner.toBase58()) {
    throw new AppError('conflict', OFFER_TO_OWNER_MESSAGE);
  }
}

/** 403: the caller must be the owner on chain; for accept, the pending owner. */
function checkCaller(record: TagRecord, operation: LifecycleOperation, caller: string): void {
  if (operation.kind === 'accept_transfer') {
    if (pendingOwnerOf(record) !== caller) throw new AppError('forbidden', NOT_PENDING_OWNER_MESSAGE);
  } else if (record.owner.toBase58() !== caller) {
    throw new AppError('forbidden', NOT_OWNER_MESSAGE);
  }
}

function pendingOwnerOf(record: TagRecord): string | null {
  return record.pendingOwner ? record.pendingOwner.toBase58() : null;
}

function instructionFor(
  operation: LifecycleOperation,
  { programId, tagRecord, signer }: { programId: PublicKey; tagRecord: PublicKey; signer: PublicKey },
): TransactionInstruction {
  switch (operation.kind) {
    case 'set_wallet':
      return setWalletInstruction({ programId, tagRecord, owner: signer, wallet: new PublicKey(operation.wallet) });
    case 'offer_transfer':
      return offerTransferInstruction({
        programId,
        tagRecord,
        owner: signer,
        newOwner: new PublicKey(operation.newOwner),
      });
    case 'cancel_transfer':
      return cancelTransferInstruction({ programId, tagRecord, owner: signer });
    case 'accept_transfer':
      return acceptTransferInstruction({ programId, tagRecord, newOwner: signer });
    case 'release_tag':
      return releaseTagInstruction({
        programId,
        tagRecord,
        owner: signer,
        receiver: operation.receiver ? new PublicKey(operation.receiver) : signer,
      });
  }
}
