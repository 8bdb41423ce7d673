import { count, desc, eq, max, min } from 'drizzle-orm';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import {
  finalizedBlockTime,
  latestClusterCheck,
  type ClusterCheck,
  type ClusterEndpoint,
} from '@/lib/chain/cluster-check';
import type { Db } from '@/lib/db';
import { indexerDeferrals, indexerSkips } from '@/lib/db/schema';
import { readPaymentsStatus, type PaymentsStatus } from '@/lib/features/payments/find-payments';
import { readCursor } from './cursor';
import { readLastRun } from './last-run';

/** How many deferred and skipped transactions the operator's view lists. */
const LISTED = 20;

/**
 * GET /api/indexer/status (docs/operating.md). Everything but `private` is
 * public: slots, counts and times say nothing the chain does not (the cursor is a signature
 * of the program's, on chain for all to read). `private` (with the operator's bearer secret)
 * adds what may quote a provider's error: each deferral's and skip's reason, the last error.
 */
export interface IndexerStatus {
  programId: string;
  /** The newest transaction of the program the indexer has processed. */
  cursor: { signature: string | null; slot: number | null };
  /** The cluster's newest finalized slot; null when the cluster cannot be reached. */
  finalizedSlot: number | null;
  /** The newest finalized slot a run read every signature up to (the program may be quiet since). */
  caughtUpSlot: number | null;
  /**
   * How far behind the chain the mirror is: finalized slots after the newer of the cursor's
   * and the caught-up slot, and the block time between them (null when a block time is not
   * available). Null while the cluster cannot be reached.
   */
  lag: { slots: number; seconds: number | null } | null;
  /** Transactions the cursor waits before (unreadable so far); retried each run. */
  deferred: { count: number; oldestSince: string | null; mostAttempts: number };
  /** Transactions passed over for good (they will never decode). */
  skipped: { count: number; lastRecordedAt: string | null };
  /** The payment finding pass (lib/features/payments/find-payments.ts): open references and its lag. */
  payments: PaymentsStatus;
  lastRun: {
    startedAt: string;
    finishedAt: string;
    outcome: 'completed' | 'failed';
    processed: number;
    deferred: number;
    recordedSkips: number;
    durationMs: number;
  } | null;
  private?: {
    lastRunError: string | null;
    deferred: { signature: string; reason: string; attempts: number; since: string; lastDeferredAt: string }[];
    recentSkips: { signature: string; slot: number; reason: string; recordedAt: string }[];
  };
}

/**
 * The indexer's status for the program at `programAddress`; `withPrivate` adds the reasons (operator only). The
 * finalized slot is the cluster's last check (`clusterCheck`, by default the process's shared
 * one, at most a few seconds old), and block times are asked once per slot: a request never
 * asks the cluster itself (docs/operating-rpc.md).
 */
export async function readIndexerStatus(
  { db, rpc, rpcUrl, programAddress }: ChainAndMirror & ClusterEndpoint,
  withPrivate: boolean,
  clusterCheck: () => Promise<ClusterCheck> = () => latestClusterCheck({ rpc, rpcUrl }),
): Promise<IndexerStatus> {
  const key: string = programAddress;
  const [cursor, lastRun, deferred, skipped, finalizedSlot, payments] = await Promise.all([
    readCursor(db, key),
    readLastRun(db, key),
    db
      .select({
        count: count(),
        oldest: min(indexerDeferrals.firstDeferredAt),
        attempts: max(indexerDeferrals.attempts),
      })
      .from(indexerDeferrals)
      .where(eq(indexerDeferrals.programId, key)),
    db
      .select({ count: count(), last: max(indexerSkips.recordedAt) })
      .from(indexerSkips)
      .where(eq(indexerSkips.programId, key)),
    clusterCheck().then((check) => check.finalizedSlot ?? null),
    readPaymentsStatus(db, new Date()),
  ]);
  const cursorSlot = cursor.slot === null ? null : Number(cursor.slot);
  const caughtUpSlot = lastRun?.caughtUpSlot == null ? null : Number(lastRun.caughtUpSlot);
  const status: IndexerStatus = {
    programId: key,
    cursor: { signature: cursor.signature, slot: cursorSlot },
    finalizedSlot,
    caughtUpSlot,
    lag:
      finalizedSlot === null
        ? null
        : await lagOf({ rpc, rpcUrl }, finalizedSlot, Math.max(cursorSlot ?? 0, caughtUpSlot ?? 0)),
    deferred: {
      count: deferred[0]?.count ?? 0,
      oldestSince: deferred[0]?.oldest?.toISOString() ?? null,
      mostAttempts: deferred[0]?.attempts ?? 0,
    },
    skipped: { count: skipped[0]?.count ?? 0, lastRecordedAt: skipped[0]?.last?.toISOString() ?? null },
    payments,
    lastRun: lastRun && {
      startedAt: lastRun.startedAt.toISOString(),
      finishedAt: lastRun.finishedAt.toISOString(),
      outcome: lastRun.outcome,
      processed: lastRun.processed,
      deferred: lastRun.deferred,
      recordedSkips: lastRun.recordedSkips,
      durationMs: lastRun.durationMs,
    },
  };
  if (withPrivate) status.private = { lastRunError: lastRun?.error ?? null, ...(await privateLists(db, key)) };
  return status;
}

/** Slots from `indexedThrough` to `finalized`, and the block time between them. */
async function lagOf(
  cluster: ClusterEndpoint,
  finalized: number,
  indexedThrough: number,
): Promise<{ slots: number; seconds: number | null }> {
  const slots = Math.max(0, finalized - indexedThrough);
  if (slots === 0) return { slots, seconds: 0 };
  // slot 0 (nothing indexed yet) has a block time too: the lag is then the chain's whole age
  const [newest, oldest] = await Promise.all(
    [finalized, indexedThrough].map((slot) => finalizedBlockTime(cluster, slot)),
  );
  return { slots, seconds: newest != null && oldest != null ? Math.max(0, newest - oldest) : null };
}

async function privateLists(db: Db, key: string): Promise<Omit<NonNullable<IndexerStatus['private']>, 'lastRunError'>> {
  const [deferred, skips] = await Promise.all([
    db
      .select()
      .from(indexerDeferrals)
      .where(eq(indexerDeferrals.programId, key))
      .orderBy(indexerDeferrals.firstDeferredAt)
      .limit(LISTED),
    db
      .select()
      .from(indexerSkips)
      .where(eq(indexerSkips.programId, key))
      .orderBy(desc(indexerSkips.recordedAt))
      .limit(LISTED),
  ]);
  return {
    deferred: deferred.map((d) => ({
      signature: d.signature,
      reason: d.reason,
      attempts: d.attempts,
      since: d.firstDeferredAt.toISOString(),
      lastDeferredAt: d.lastDeferredAt.toISOString(),
    })),
    recentSkips: skips.map((s) => ({
      signature: s.signature,
      slot: Number(s.slot),
      reason: s.reason,
      recordedAt: s.recordedAt.toISOString(),
    })),
  };
}
