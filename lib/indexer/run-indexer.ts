import type { ConfirmedSignatureInfo, Connection, PublicKey, VersionedTransactionResponse } from '@solana/web3.js';
import type { AppError } from '@/lib/api/errors';
import { clusterUnavailable, isClusterUnreachable, rpcCall } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { applyRegistrations } from './apply-registration';
import { readCursor, writeCursor } from './cursor';
import { extractRegistrations, MAX_SUPPORTED_TRANSACTION_VERSION, type Registration } from './extract-registrations';
import { withIndexerLock } from './lock';

/** Transactions fetched and committed together (one database transaction, one cursor move). */
export const INDEXER_BATCH_SIZE = 100;
/** getTransaction calls in flight at once. */
export const INDEXER_FETCH_CONCURRENCY = 16;

export interface RunIndexerInput {
  db: Db;
  connection: Connection;
  programId: PublicKey;
  /** At most this many signatures are processed per run; the rest wait for the next run. */
  maxTransactions: number;
  /** getSignaturesForAddress page size (a node answers at most 1,000). */
  pageSize: number;
  /** Stamps the cursor; `createdAt` falls back to it when a block has no time. */
  now: Date;
  batchSize?: number;
  /**
   * Called after each transaction is applied, inside its batch's database transaction
   * (tests inject failures with it: a throw rolls the current batch back and ends the run;
   * batches committed before it stay).
   */
  onTransactionProcessed?: (signature: string) => void | Promise<void>;
}

/**
 * What one run did. `processed`: signatures handled (cursor moved past them); `indexed`:
 * identities created; `skipped`: transactions that created nothing (failed on chain, no
 * register_tag of ours, or already mirrored, e.g. by a sync); `failed`: transactions that
 * could not be read or decoded, logged and passed over. `status: 'skipped'` when another run
 * held the lock; `more` when `maxTransactions` stopped the run before the newest signature.
 */
export interface IndexerSummary {
  status: 'completed' | 'skipped';
  processed: number;
  indexed: number;
  skipped: number;
  failed: number;
  cursor: string | null;
  more: boolean;
  durationMs: number;
}

/**
 * The indexer (SPEC 3.1, DESIGN "Indexer"): reads the cursor, pages getSignaturesForAddress
 * back to it at `finalized`, processes oldest first, and commits each batch's identities with
 * the cursor in one database transaction, so a run stopped anywhere loses and duplicates
 * nothing. One run at a time (advisory lock; a concurrent run is skipped). An unreachable
 * cluster ends the run with 503 after keeping the batches already committed.
 */
export async function runIndexer(input: RunIndexerInput): Promise<IndexerSummary> {
  const started = performance.now();
  const { db, programId } = input;
  const key = programId.toBase58();
  const locked = await withIndexerLock(db, key, () => indexBacklog(input, started));
  if (locked.acquired) return locked.value;
  const cursor = await readCursor(db, key);
  return {
    status: 'skipped',
    processed: 0,
    indexed: 0,
    skipped: 0,
    failed: 0,
    cursor: cursor.signature,
    more: false,
    durationMs: elapsed(started),
  };
}

async function indexBacklog(input: RunIndexerInput, started: number): Promise<IndexerSummary> {
  const { db, connection, programId, now } = input;
  const key = programId.toBase58();
  const cursor = await readCursor(db, key);
  const backlog = await listSince(connection, programId, cursor.signature, input.pageSize);
  const work = backlog.slice(0, input.maxTransactions);
  const summary: IndexerSummary = {
    status: 'completed',
    processed: 0,
    indexed: 0,
    skipped: 0,
    failed: 0,
    cursor: cursor.signature,
    more: backlog.length > work.length,
    durationMs: 0,
  };
  const batchSize = Math.max(1, input.batchSize ?? INDEXER_BATCH_SIZE);
  const batches: ConfirmedSignatureInfo[][] = [];
  for (let i = 0; i < work.length; i += batchSize) batches.push(work.slice(i, i + batchSize));
  // The next batch is fetched from the cluster while this one is written to the database.
  let prefetch = batches.length ? fetchTransactions(connection, batches[0]!) : null;
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b]!;
    const fetched = await prefetch!;
    prefetch = b + 1 < batches.length ? fetchTransactions(connection, batches[b + 1]!) : null;
    prefetch?.catch(() => {}); // awaited next turn; a run that stops here must not leave it unhandled
    const counts = await db.transaction(async (tx) => {
      const counted = await applyBatch(tx as unknown as Db, programId, batch, fetched, now, input.onTransactionProcessed);
      const last = batch[batch.length - 1]!;
      await writeCursor(tx as unknown as Db, key, last.signature, last.slot, now);
      return counted;
    });
    summary.processed += batch.length;
    summary.indexed += counts.indexed;
    summary.skipped += counts.skipped;
    summary.failed += counts.failed;
    summary.cursor = batch[batch.length - 1]!.signature;
  }
  summary.durationMs = elapsed(started);
  return summary;
}

type Fetched = VersionedTransactionResponse | null | { error: unknown } | 'not-fetched';

/**
 * One batch, in order: decode each transaction, insert every registration in one statement,
 * then count per transaction: `indexed` (identities created), `skipped`, `failed`.
 */
async function applyBatch(
  db: Db,
  programId: PublicKey,
  batch: ConfirmedSignatureInfo[],
  fetched: Fetched[],
  now: Date,
  onTransactionProcessed: RunIndexerInput['onTransactionProcessed'],
): Promise<{ indexed: number; skipped: number; failed: number }> {
  const perTransaction = batch.map((info, i) => registrationsOf(programId, info, fetched[i]!));
  const inserted = new Set(
    await applyRegistrations(db, perTransaction.flatMap((r) => (r === 'failed' ? [] : r)), now),
  );
  const counts = { indexed: 0, skipped: 0, failed: 0 };
  for (let i = 0; i < batch.length; i++) {
    const registrations = perTransaction[i]!;
    if (registrations === 'failed') counts.failed += 1;
    else {
      const created = registrations.filter((r) => inserted.delete(r.tag)).length;
      if (created > 0) counts.indexed += created;
      else counts.skipped += 1;
    }
    await onTransactionProcessed?.(batch[i]!.signature);
  }
  return counts;
}

/** A transaction's registrations ([] for a failed one or one with none), or 'failed' when unreadable. */
function registrationsOf(programId: PublicKey, info: ConfirmedSignatureInfo, fetched: Fetched): Registration[] | 'failed' {
  if (info.err) return [];
  if (fetched === null || fetched === 'not-fetched' || 'error' in fetched) {
    const why = fetched === null ? 'not found' : fetched === 'not-fetched' ? 'not fetched' : String(fetched.error);
    console.error(`indexer: cannot read transaction ${info.signature} (${why}); skipped`);
    return 'failed';
  }
  if (fetched.meta?.err) return [];
  try {
    return extractRegistrations(fetched, programId);
  } catch (err) {
    console.error(`indexer: cannot decode transaction ${info.signature}; skipped`, err);
    return 'failed';
  }
}

/** Every signature of the program newer than `until`, oldest first, paging back from the newest. */
async function listSince(
  connection: Connection,
  programId: PublicKey,
  until: string | null,
  pageSize: number,
): Promise<ConfirmedSignatureInfo[]> {
  const newestFirst: ConfirmedSignatureInfo[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await rpcCall(() =>
      connection.getSignaturesForAddress(programId, { until: until ?? undefined, before, limit: pageSize }, 'finalized'),
    );
    newestFirst.push(...page);
    if (page.length < pageSize) break;
    before = page[page.length - 1]!.signature;
  }
  return newestFirst.reverse();
}

/**
 * The batch's transactions at `finalized`, a few in flight at once. Failed ones are not
 * fetched. A transaction the node refuses to give is recorded as an error (logged, skipped
 * later); an unreachable cluster ends the run (503) so that nothing is passed over.
 */
async function fetchTransactions(connection: Connection, batch: ConfirmedSignatureInfo[]): Promise<Fetched[]> {
  const results: Fetched[] = batch.map(() => 'not-fetched');
  let next = 0;
  const worker = async () => {
    while (next < batch.length) {
      const index = next++;
      const info = batch[index]!;
      if (info.err) continue;
      try {
        results[index] = await connection.getTransaction(info.signature, {
          commitment: 'finalized',
          maxSupportedTransactionVersion: MAX_SUPPORTED_TRANSACTION_VERSION,
        });
      } catch (err) {
        if (isClusterUnreachable(err)) throw unreachable(err);
        results[index] = { error: err instanceof Error ? err.message : err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(INDEXER_FETCH_CONCURRENCY, batch.length) }, worker));
  return results;
}

function unreachable(err: unknown): AppError {
  console.warn('indexer: cluster unreachable:', err instanceof Error ? err.message : err);
  return clusterUnavailable();
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
