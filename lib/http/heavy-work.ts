import { overloaded } from '@/lib/core/errors';
import { logger } from '@/lib/observability/logger';

/*
 * A bound on the expensive work one instance does at once (feed pages built from the database,
 * share images drawn, batch lookups): past HEAVY_WORK_CONCURRENCY (lib/core/config.ts) a request is
 * answered at once with 503 `overloaded` and Retry-After, rather than queued behind the others
 * where it would hold a connection and the event loop while cheap requests (health, an
 * identity read) wait behind it. The shed request is a warning in the log ("load shedding"),
 * never an outage: nothing is down, the instance is busy.
 *
 * One count per process for all kinds, on globalThis (each route's chunk has its own module
 * state): what runs out is the process's CPU and pool, whichever route spends them.
 */

const IN_FLIGHT = Symbol.for('identity-tag-service.heavy-work-in-flight');
const counter = globalThis as unknown as Record<typeof IN_FLIGHT, number | undefined>;

/** Runs `work` if fewer than `limit` heavy requests are in flight in this process; else 503 `overloaded`. */
export async function withHeavyWork<T>(kind: string, limit: number, work: () => Promise<T>): Promise<T> {
  const inFlight = counter[IN_FLIGHT] ?? 0;
  if (inFlight >= limit) {
    logger.warn({ kind, inFlight, limit }, 'load shedding: heavy work at its bound');
    throw overloaded();
  }
  counter[IN_FLIGHT] = inFlight + 1;
  try {
    return await work();
  } finally {
    counter[IN_FLIGHT] = (counter[IN_FLIGHT] ?? 1) - 1;
  }
}

/** Heavy requests in flight in this process now (tests, metrics). */
export function heavyWorkInFlight(): number {
  return counter[IN_FLIGHT] ?? 0;
}
