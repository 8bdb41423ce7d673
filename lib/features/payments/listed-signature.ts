/*
 * A transaction as getSignaturesForAddress lists it, in the shape the finding pass judges it
 * by: the first pages come in a JSON-RPC batch (lib/chain/signatures-batch.ts), later pages
 * from kit (`listedOf`), whose u64s are bigints; slots and block times fit a number.
 */

export interface ListedSignature {
  signature: string;
  slot: number;
  /** Null when the transaction succeeded. */
  err: unknown;
  blockTime?: number | null;
  confirmationStatus?: 'processed' | 'confirmed' | 'finalized' | null;
}

/** A kit getSignaturesForAddress entry as a ListedSignature. */
export function listedOf(info: {
  signature: string;
  slot: bigint;
  err: unknown;
  blockTime: bigint | null;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
}): ListedSignature {
  return {
    signature: info.signature,
    slot: Number(info.slot),
    err: info.err,
    blockTime: info.blockTime === null ? null : Number(info.blockTime),
    confirmationStatus: info.confirmationStatus,
  };
}
