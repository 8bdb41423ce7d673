import { logger } from '@/lib/observability/logger';

/** How long the database check may take before it counts as failed. */
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

/** The cluster's last check as the caller keeps it (lib/chain/cluster-check.ts): made at `at`, not per request. */
export interface ClusterCheckState extends Check {
  finalizedSlot?: number;
  /** When it was made (epoch milliseconds). */
  at: number;
}

/** GET /api/ready's answer: 200 when every check passed, else 503 (README "Operating the service"). */
export interface Readiness {
  ok: boolean;
  /** The cluster's `ageMs`: how old the shared check is (at most a few seconds; docs/operating-rpc.md). */
  checks: { database: Check; cluster: Check & { finalizedSlot?: number; ageMs: number } };
}

/**
 * What readiness checks, passed in (observability imports nothing of the service's): a round
 * trip to the database, which errors mean it is unavailable, and the cluster's last check.
 */
export interface ReadinessProbes {
  pingDatabase: () => Promise<unknown>;
  isDatabaseUnavailable: (err: unknown) => boolean;
  clusterCheck: () => Promise<ClusterCheckState>;
}

/** Checks the database (a round trip within `deadlineMs`) and takes the cluster's last check, at once. */
export async function checkReadiness(
  probes: ReadinessProbes,
  now: () => number = Date.now,
  deadlineMs = READINESS_DEADLINE_MS,
): Promise<Readiness> {
  const [database, cluster] = await Promise.all([
    timed('database', probes.pingDatabase, deadlineMs, probes.isDatabaseUnavailable),
    probes.clusterCheck(),
  ]);
  if (!cluster.ok) logger.warn({ check: 'cluster', error: cluster.error }, 'readiness: check failed');
  const { at, ...clusterCheck } = cluster;
  return {
    ok: database.ok && cluster.ok,
    checks: { database, cluster: { ...clusterCheck, ageMs: Math.max(0, now() - at) } },
  };
}

class DeadlinePassed extends Error {}

async function timed(
  name: string,
  work: () => Promise<unknown>,
  deadlineMs: number,
  isUnavailable: (err: unknown) => boolean,
): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed(`${name}: no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    await Promise.race([work(), deadline]);
    return { ok: true, ms: elapsedMs(started) };
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
