import type { Address } from '@solana/kit';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import { AppError } from '@/lib/core/errors';
import { rpcCall } from '@/lib/chain/rpc';
import { logger } from '@/lib/observability/logger';
import type { Db } from '@/lib/db';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import { findActiveIdentityByRecord } from '@/lib/features/identity/queries';
import { toIdentity } from '@/lib/features/identity/identity-response';
import type { Identity } from '@/lib/features/identity/schemas';
import { decodeTransaction, type TransactionForIndexing } from './decode-transaction';
import { fetchTransaction } from './fetch-transactions';
import { recordSyncedSlot } from './cursor';
import { mirrorTouchedRecords, type Provenance } from './mirror-records';

export type SyncResult = { status: 'indexed'; identity: Identity } | { status: 'pending' };

export interface SyncTransactionInput extends ChainAndMirror {
  signature: string;
  now: Date;
}

export const FAILED_TRANSACTION_MESSAGE = 'The transaction failed on chain: it changed nothing.';
export const NOT_OURS_MESSAGE = 'The transaction has no instruction of the tag registry.';

/**
 * POST /v1/sync (DESIGN "Indexer"): indexes one transaction now, read from the chain (the
 * caller is not trusted), through the cron run's own code: the tag records its instructions
 * touched are re-read at `finalized` and their rows made to match. Any successful transaction
 * of the program counts (register, set_wallet, an offer, its cancel or accept, a release).
 * Answers as GET /v1/identity would now for the first record it touched: the identity, or the
 * one 404 once the tag is released or blocked. Seen only at `confirmed` → `pending` (202);
 * unknown to the cluster → 404 (it may not have landed yet: try again); failed, or no
 * instruction of ours → 422. Does not move the indexer's cursor: the cron run re-reads the
 * same records later, which changes nothing.
 */
export async function syncTransaction({
  db,
  rpc,
  programAddress,
  signature,
  now,
}: SyncTransactionInput): Promise<SyncResult> {
  const finalized = await rpcCall(() => fetchTransaction(rpc, signature, 'finalized'));
  if (!finalized) {
    const confirmed = await rpcCall(() => fetchTransaction(rpc, signature, 'confirmed'));
    if (!confirmed) throw new AppError('not_found', 'The cluster knows no transaction with this signature (yet).');
    touchedBy(confirmed, programAddress);
    return { status: 'pending' };
  }
  const touched = touchedBy(finalized, programAddress);
  const provenance: Provenance = { signature, slot: finalized.slot, blockTime: finalized.blockTime };
  await db.transaction(async (tx) => {
    await mirrorTouchedRecords(tx as unknown as Db, {
      rpc,
      programAddress,
      touched: new Map(touched.map((address) => [address, provenance])),
      now,
    });
    await recordSyncedSlot(tx as unknown as Db, programAddress, finalized.slot, now);
  });
  const row = await findActiveIdentityByRecord(db, touched[0]!);
  if (!row) throw tagNotFound();
  return { status: 'indexed', identity: toIdentity(row) };
}

/** The tag records the transaction touched, first named first; 422 when it failed or has none of ours. */
function touchedBy(tx: TransactionForIndexing, programAddress: Address): string[] {
  if (tx.meta?.err) throw new AppError('unprocessable', FAILED_TRANSACTION_MESSAGE);
  let touched: string[] = [];
  try {
    touched = decodeTransaction(tx, programAddress).touched;
  } catch (err) {
    logger.error({ err }, 'sync: cannot decode transaction');
  }
  if (touched.length === 0) throw new AppError('unprocessable', NOT_OURS_MESSAGE);
  return touched;
}
