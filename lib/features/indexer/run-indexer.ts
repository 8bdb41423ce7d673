import type { Address } from '@solana/kit';
import type { ChainAndMirror, ClusterAccess } from '@/lib/chain/chain-and-mirror';
import { isRpcRateLimited } from '@/lib/chain/rpc';
import type { ListedSignature } from '@/lib/chain/signatures-batch';
import type { Db } from '@/lib/db';
import { logger } from '@/lib/observability/logger';
import { recordIndexerRun } from '@/lib/observability/metrics';
import { readCursor, writeCursor } from './cursor';
import { clearDeferrals, listDeferrals, recordDeferrals, recordSkips, type DeferredTransaction } from './deferrals';
import { decodeTransaction, IncompleteTransactionError } from './decode-transaction';
import { fetchBatch, INDEXER_FETCH_RETRY, isUnsupportedVersion, listSince, type Fetched } from './fetch-transactions';
import { recordedRun } from './last-run';
import { withIndexerLock } from './lock';
import { mirrorTouchedRecords, noChanges, type MirrorChanges, type Provenance } from './mirror-records';
import { backingOffUntil, backOff, endBackoff } from './rpc-backoff';

export type { DeferredTransaction } from './deferrals';

/**
 * Transactions fetched and committed together (one database transaction, one cursor move).
 * Each batch also costs the mirror lock and one round of getMultipleAccounts for the records
 * it touched (100 per call, in parallel): 500 amortizes them (a mixed lifecycle backlog on
 * localnet indexed faster than with 100: bench/results/figures-once-in-comments.md).
 */
export const INDEXER_BATCH_SIZE = 500;
/**
 * Signatures one scheduled run processes at most (the cron route and `npm run indexer`): 5,000.
 * The cron route's function may run 60 s (app/api/cron/indexer/route.ts), and at the slowest
 * catch-up measured (`npm run bench -- scale`, bench/results/2026-11-26.md, "scale") 5,000 take
 * well under half of it; the rest wait for the next run.
 */
export const MAX_TRANSACTIONS_PER_RUN = 5000;

export interface RunIndexerInput extends ChainAndMirror, ClusterAccess {
  /** At most this many signatures are processed per run; the rest wait for the next run. */
  maxTransactions: number;
  /** getSignaturesForAddress page size (a node answers at most 1,000). */
  pageSize: number;
  /** Stamps the cursor; `createdAt` falls back to it when a block has no time. */
  now: Date;
  batchSize?: number;
  /** Within-run retries of an unreadable transaction (default INDEXER_FETCH_RETRY). */
  fetchRetry?: { attempts: number; firstDelayMs: number };
  /**
   * Called after each transaction is applied, inside its batch's database transaction
   * (tests inject failures with it: a throw rolls the current batch back and ends the run;
   * batches committed before it stay).
   */
  onTransactionProcessed?: (signature: string) => void | Promise<void>;
}

/** A transaction passed over for good this run, and why (also in `indexer_skips`). */
export interface RecordedSkip {
  signature: string;
  reason: string;
}

/**
 * What one run did.
 * - `processed`: signatures the cursor moved past.
 * - `indexed`: identities created (rows inserted).
 * - `updated`: rows changed (owner, wallet, pending owner; a re-registration after a release).
 * - `removed`: rows deleted because their record is gone (released).
 * - `skipped`: processed transactions that changed no row (failed on chain, none of ours,
 *   already mirrored e.g. by a sync, or recorded below).
 * - `recordedSkips`: transactions that will never decode (no instruction of ours, a
 *   malformed one, a version this indexer cannot read), recorded in `indexer_skips`.
 * - `deferred`: transactions it could not read (the node answered null or an error) or not
 *   decode for a reason that may pass; the cursor stopped before the oldest of them and the
 *   next run starts there. `attempts` counts the runs that deferred it, `since` the first.
 * - `retried`: getTransaction calls repeated within the run.
 * - `more`: the run stopped before the newest signature (`maxTransactions`, or a deferral).
 * - `status: 'skipped'`: another run held the lock; nothing was done.
 * - `status: 'backing_off'`: the RPC provider rate-limited this run or a recent one; this one
 *   did nothing more and the runs until `backingOffUntil` do nothing (lib/features/indexer/rpc-backoff.ts).
 */
export interface IndexerSummary {
  status: 'completed' | 'skipped' | 'backing_off';
  /** With `backing_off`: runs before this time do nothing (lib/features/indexer/rpc-backoff.ts). */
  backingOffUntil?: string;
  processed: number;
  indexed: number;
  updated: number;
  removed: number;
  skipped: number;
  recordedSkips: RecordedSkip[];
  deferred: DeferredTransaction[];
  retried: number;
  cursor: string | null;
  more: boolean;
  durationMs: number;
}

/**
 * The indexer (SPEC 3.1, DESIGN "Indexer"): reads the cursor, pages getSignaturesForAddress
 * back to it at `finalized`, processes oldest first, and commits each batch's identities with
 * the cursor in one database transaction, so a run stopped anywhere loses and duplicates
 * nothing. It never moves the cursor past a transaction it has not applied: one it cannot
 * read is retried with backoff, then deferred, and the run ends before it. One run at a time
 * (advisory lock; a concurrent run is skipped). An unreachable cluster while listing ends the
 * run with 503 after keeping the batches already committed. Each run is recorded, completed or
 * failed (./last-run.ts: GET /api/indexer/status, the metrics).
 */
export async function runIndexer(input: RunIndexerInput): Promise<IndexerSummary> {
  const started = performance.now();
  const { db, programAddress: key, now } = input;
  // The pause is the provider's: another endpoint has a quota of its own.
  const provider = `${input.rpcUrl} ${key}`;
  const pausedUntil = backingOffUntil(provider, now.getTime());
  if (pausedUntil !== null) return notRun(input, 'backing_off', started, pausedUntil);
  let locked;
  try {
    locked = await withIndexerLock(db, key, () => recordedRun(input, key, () => indexBacklog(input, started)));
  } catch (err) {
    if (!isRpcRateLimited(err)) throw err;
    // Batches committed before the refusal stay; the next runs wait instead of failing too.
    const pause = backOff(provider, now.getTime());
    logger.warn({ pauseMs: pause }, 'indexer: the RPC provider is rate limiting; backing off');
    return notRun(input, 'backing_off', started, now.getTime() + pause);
  }
  endBackoff(provider);
  if (locked.acquired) return locked.value;
  return notRun(input, 'skipped', started);
}

/** A run that did nothing: another held the lock (`skipped`), or the provider asked for a pause (`backing_off`). */
async function notRun(
  input: RunIndexerInput,
  status: 'skipped' | 'backing_off',
  started: number,
  until?: number,
): Promise<IndexerSummary> {
  recordIndexerRun('skipped', elapsed(started) / 1000, { processed: 0, deferred: 0, recordedSkips: 0 });
  const cursor = await readCursor(input.db, input.programAddress);
  return {
    ...emptySummary(status, cursor.signature),
    durationMs: elapsed(started),
    ...(until ? { backingOffUntil: new Date(until).toISOString() } : {}),
  };
}

function emptySummary(status: IndexerSummary['status'], cursor: string | null): IndexerSummary {
  return {
    status,
    processed: 0,
    indexed: 0,
    updated: 0,
    removed: 0,
    skipped: 0,
    recordedSkips: [],
    deferred: [],
    retried: 0,
    cursor,
    more: false,
    durationMs: 0,
  };
}

async function indexBacklog(input: RunIndexerInput, started: number): Promise<IndexerSummary> {
  const { db, rpc, programAddress, now } = input;
  const key = programAddress;
  const retry = input.fetchRetry ?? INDEXER_FETCH_RETRY;
  const cursor = await readCursor(db, key);
  const backlog = await listSince(rpc, programAddress, cursor.signature, input.pageSize);
  const work = backlog.slice(0, input.maxTransactions);
  const summary = emptySummary('completed', cursor.signature);
  summary.more = backlog.length > work.length;
  // Deferred by an earlier run: their rows go once they are applied.
  const knownDeferrals = new Set(await listDeferrals(db, key));
  const batchSize = Math.max(1, input.batchSize ?? INDEXER_BATCH_SIZE);
  const batches: ListedSignature[][] = [];
  for (let i = 0; i < work.length; i += batchSize) batches.push(work.slice(i, i + batchSize));

  const run = { stopped: false };
  // The next batch is fetched from the cluster while this one is written to the database.
  let prefetch = batches.length ? fetchBatch(input, batches[0]!, retry, run) : null;
  try {
    for (let b = 0; b < batches.length; b++) {
      const batch = batches[b]!;
      const { fetched, retried } = await prefetch!;
      summary.retried += retried;
      prefetch = b + 1 < batches.length ? fetchBatch(input, batches[b + 1]!, retry, run) : null;
      prefetch?.catch(() => {}); // awaited next turn; a run that stops here must not leave it unhandled

      const outcomes = batch.map((info, i) => outcomeOf(programAddress, info, fetched[i]!));
      const firstDeferred = outcomes.findIndex((o) => o.kind === 'defer');
      const ready = firstDeferred === -1 ? batch.length : firstDeferred;
      const toDefer = batch.flatMap((info, i) => {
        const o = outcomes[i]!;
        return o.kind === 'defer' ? [{ signature: info.signature, slot: info.slot, reason: o.reason }] : [];
      });

      const result = await db.transaction(async (txDb) => {
        const tx = txDb as unknown as Db;
        let counts: BatchCounts = {
          indexed: 0,
          updated: 0,
          removed: 0,
          skipped: 0,
          recorded: [],
          changes: noChanges(),
        };
        if (ready > 0) {
          const applied = batch.slice(0, ready);
          counts = await applyBatch(tx, input, applied, outcomes.slice(0, ready) as Applicable[]);
          await recordSkips(tx, key, applied, counts.recorded, now);
          const cleared = applied.map((i) => i.signature).filter((s) => knownDeferrals.has(s));
          if (cleared.length) await clearDeferrals(tx, cleared);
          const last = applied[applied.length - 1]!;
          await writeCursor(tx, key, last.signature, last.slot, now);
        }
        const deferred = toDefer.length ? await recordDeferrals(tx, key, toDefer, now) : [];
        return { counts, deferred };
      });

      summary.processed += ready;
      summary.indexed += result.counts.indexed;
      summary.updated += result.counts.updated;
      summary.removed += result.counts.removed;
      summary.skipped += result.counts.skipped;
      summary.recordedSkips.push(...result.counts.recorded);
      if (ready > 0) summary.cursor = batch[ready - 1]!.signature;
      if (result.deferred.length) {
        const [oldest] = result.deferred;
        logger.warn(
          {
            deferred: result.deferred.length,
            oldest: oldest!.signature,
            reason: oldest!.reason,
            attempts: oldest!.attempts,
            since: oldest!.since,
          },
          'indexer: transactions deferred; the cursor waits before the oldest',
        );
        summary.deferred = result.deferred;
        summary.more = true;
        break;
      }
    }
  } finally {
    run.stopped = true;
  }
  summary.durationMs = elapsed(started);
  return summary;
}

/**
 * What to do with one listed transaction. `touched`: the tag records its instructions of
 * ours name (none for a failed one); `skipReason`: record it as passed over for good.
 */
type Outcome = { kind: 'apply'; touched: string[]; skipReason: string | null } | { kind: 'defer'; reason: string };
type Applicable = Extract<Outcome, { kind: 'apply' }>;

function outcomeOf(programAddress: Address, info: ListedSignature, fetched: Fetched): Outcome {
  if (info.err) return { kind: 'apply', touched: [], skipReason: null };
  if (fetched === 'not-needed') throw new Error(`indexer: ${info.signature} was not fetched`);
  if (fetched === null) return { kind: 'defer', reason: 'the node answered null (not found yet)' };
  if ('error' in fetched) {
    if (isUnsupportedVersion(fetched.error)) {
      return { kind: 'apply', touched: [], skipReason: `unreadable: ${messageOf(fetched.error)}` };
    }
    return { kind: 'defer', reason: `the node answered an error: ${messageOf(fetched.error)}` };
  }
  if (!fetched.meta) return { kind: 'defer', reason: 'the node answered without the transaction status' };
  if (fetched.meta.err) return { kind: 'apply', touched: [], skipReason: null };
  try {
    const decoded = decodeTransaction(fetched, programAddress);
    if (!decoded.invokesProgram) return { kind: 'apply', touched: [], skipReason: 'no instruction of the program' };
    return { kind: 'apply', touched: decoded.touched, skipReason: decoded.malformed.join('; ') || null };
  } catch (err) {
    if (err instanceof IncompleteTransactionError)
      return { kind: 'defer', reason: `incomplete answer: ${err.message}` };
    return { kind: 'apply', touched: [], skipReason: `undecodable: ${messageOf(err)}` };
  }
}

interface BatchCounts {
  indexed: number;
  updated: number;
  removed: number;
  skipped: number;
  recorded: RecordedSkip[];
  changes: MirrorChanges;
}

/**
 * The ready part of a batch, in its database transaction: every record its transactions
 * touched is read once and its row made to match (DESIGN "Indexer"), each stamped with the
 * newest transaction that touched it; then counted per transaction: a transaction none of
 * whose records changed a row is `skipped`; and the transactions to record as passed over.
 */
async function applyBatch(
  db: Db,
  { rpc, programAddress, now, onTransactionProcessed }: RunIndexerInput,
  batch: ListedSignature[],
  outcomes: Applicable[],
): Promise<BatchCounts> {
  const touched = new Map<string, Provenance>();
  batch.forEach((info, i) => {
    for (const address of outcomes[i]!.touched)
      touched.set(address, { signature: info.signature, slot: info.slot, blockTime: info.blockTime });
  });
  const changes = await mirrorTouchedRecords(db, { rpc, programAddress, touched, now });
  const counts: BatchCounts = {
    indexed: changes.created.length,
    updated: changes.updated.length + changes.quietlyUpdated.length,
    removed: changes.removed.length,
    skipped: 0,
    recorded: [],
    changes,
  };
  for (let i = 0; i < batch.length; i++) {
    const outcome = outcomes[i]!;
    if (!outcome.touched.some((address) => changes.changedAddresses.has(address))) counts.skipped += 1;
    if (outcome.skipReason) {
      logger.warn({ transaction: batch[i]!.signature, reason: outcome.skipReason }, 'indexer: passed over for good');
      counts.recorded.push({ signature: batch[i]!.signature, reason: outcome.skipReason });
    }
    await onTransactionProcessed?.(batch[i]!.signature);
  }
  return counts;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
