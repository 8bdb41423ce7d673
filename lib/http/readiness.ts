import type { Connection } from '@solana/web3.js';
import { sql } from 'drizzle-orm';
import { isClusterUnreachable } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { isDatabaseUnavailable } from '@/lib/core/database-errors';
import { logger } from '@/lib/observability/logger';

/** How long each check may take before it counts as failed. */
export const READINESS_DEADLINE_MS = 2000;

/**
 * One dependency's check. `error` is a category, never the driver's message (which may quote
 * a connection string or an RPC URL with its key): the full error goes to the log, under the
 * request's id.
 */
export interface Check {
  ok: boolean;
  ms: number;
  error?: 'timeout' | 'unavailable' | 'failed';
}

/** GET /api/ready's answer: 200 when every check passed, else 503 (docs/operating.md). */
export interface Readiness {
  ok: boolean;
  checks: { database: Check; cluster: Check & { finalizedSlot?: number } };
}

/** Checks the database (a round trip) and the cluster (its finalized slot) at once, each within `deadlineMs`. */
export async function checkReadiness({ db, connection }: { db: Db; connection: Connection }, deadlineMs = READINESS_DEADLINE_MS): Promise<Readiness> {
  const [database, cluster] = await Promise.all([
    timed('database', () => db.execute(sql`select 1`), deadlineMs, isDatabaseUnavailable),
    timed('cluster', () => connection.getSlot('finalized'), deadlineMs, isClusterUnreachable),
  ]);
  const { value: finalizedSlot, ...clusterCheck } = cluster;
  const { value: _ignored, ...databaseCheck } = database;
  return {
    ok: database.ok && cluster.ok,
    checks: { database: databaseCheck, cluster: finalizedSlot === undefined ? clusterCheck : { ...clusterCheck, finalizedSlot } },
  };
}

class DeadlinePassed extends Error {}

async function timed<T>(
  name: string,
  work: () => Promise<T>,
  deadlineMs: number,
  isUnavailable: (err: unknown) => boolean,
): Promise<Check & { value?: T }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed(`${name}: no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const value = await Promise.race([work(), deadline]);
    return { ok: true, ms: elapsedMs(started), value };
  } catch (err) {
    logger.warn({ err, check: name }, 'readiness: check failed');
    const error = err instanceof DeadlinePassed ? 'timeout' : isUnavailable(err) ? 'unavailable' : 'failed';
    return { ok: false, ms: elapsedMs(started), error };
  } finally {
    clearTimeout(timer);
  }
}

function elapsedMs(started: number): number {
  return Math.round(performance.now() - started);
}
