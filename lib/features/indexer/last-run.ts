import { eq } from 'drizzle-orm';
import { recordFinalizedSlot } from '@/lib/chain/cluster-check';
import { isRpcRateLimited, rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { indexerRuns } from '@/lib/db/schema';
import { logger } from '@/lib/observability/logger';
import { recordIndexerRun } from '@/lib/observability/metrics';
import { scrub } from '@/lib/observability/scrub';

/** What a run reports of itself to be recorded. */
export interface RunOutcome {
  processed: number;
  deferred: { length: number };
  recordedSkips: { length: number };
  /** The run stopped before the newest signature (a cap, a deferral). */
  more: boolean;
  durationMs: number;
}

export type LastRun = typeof indexerRuns.$inferSelect;

/**
 * Runs one indexer pass (`run`) and records it (indexer_runs, and the metrics), completed or
 * failed, so GET /api/indexer/status on any instance reports the last run. The finalized slot
 * is read before the run lists signatures: a run that reaches the newest signature has seen
 * everything up to it, which is what the lag is measured from (`caughtUpSlot`).
 */
export async function recordedRun<T extends RunOutcome>(
  { db, rpc, rpcUrl, now }: { db: Db; rpc: SolanaRpc; rpcUrl: string; now: Date },
  programId: string,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  let summary: T;
  let finalizedSlot: number;
  try {
    finalizedSlot = Number(await rpcCall(() => rpc.getSlot({ commitment: 'finalized' }).send()));
    recordFinalizedSlot(rpcUrl, finalizedSlot); // readiness and the status take it instead of asking again
    summary = await run();
  } catch (err) {
    const durationMs = Math.round(performance.now() - started);
    recordIndexerRun('failed', durationMs / 1000, { processed: 0, deferred: 0, recordedSkips: 0 });
    // A provider's rate limiting is its quota, not our fault: warned, and the indexer backs off (run-indexer.ts).
    if (isRpcRateLimited(err)) logger.warn({ err }, 'indexer: run stopped by RPC rate limiting');
    else logger.error({ err }, 'indexer: run failed');
    await writeRun(db, programId, {
      startedAt: now,
      finishedAt: new Date(now.getTime() + durationMs),
      outcome: 'failed',
      processed: 0,
      deferred: 0,
      recordedSkips: 0,
      durationMs,
      error: scrub(err instanceof Error ? err.message : String(err)).slice(0, 500),
    }).catch((writeErr) => logger.error({ err: writeErr }, 'indexer: could not record the failed run'));
    throw err;
  }
  const counts = {
    processed: summary.processed,
    deferred: summary.deferred.length,
    recordedSkips: summary.recordedSkips.length,
  };
  recordIndexerRun('completed', summary.durationMs / 1000, counts);
  await writeRun(db, programId, {
    startedAt: now,
    finishedAt: new Date(now.getTime() + summary.durationMs),
    outcome: 'completed',
    ...counts,
    durationMs: summary.durationMs,
    error: null,
    ...(summary.more ? {} : { caughtUpSlot: BigInt(finalizedSlot), caughtUpAt: now }),
  });
  return summary;
}

type RunRow = Omit<LastRun, 'programId' | 'caughtUpSlot' | 'caughtUpAt'> &
  Partial<Pick<LastRun, 'caughtUpSlot' | 'caughtUpAt'>>;

/** The program's one row: this run's fields; the caught-up slot only when this run caught up. */
async function writeRun(db: Db, programId: string, row: RunRow): Promise<void> {
  await db
    .insert(indexerRuns)
    .values({ programId, ...row })
    .onConflictDoUpdate({ target: indexerRuns.programId, set: row });
}

/** The last recorded run of the program's indexer, or null before the first. */
export async function readLastRun(db: Db, programId: string): Promise<LastRun | null> {
  const rows = await db.select().from(indexerRuns).where(eq(indexerRuns.programId, programId)).limit(1);
  return rows[0] ?? null;
}
