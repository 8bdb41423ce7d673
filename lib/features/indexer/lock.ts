import { driverOf, type Db } from '@/lib/db/client';
import { logger } from '@/lib/observability/logger';

/** First key of the indexer's advisory lock (`'ti'`); the second is hashtext(programId). */
const LOCK_CLASS = 0x7469;

// PGlite has one connection, on which a session advisory lock is re-entrant: there the
// guard is this process (one process owns a PGlite data directory).
const heldInProcess = new Set<string>();

export type LockResult<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `fn` while holding the indexer's PostgreSQL session advisory lock for `programId`,
 * taken with `pg_try_advisory_lock` on a connection of its own, so that the work inside can
 * commit batch after batch through the pool. When another run holds it, returns at once with
 * `acquired: false`: a doubled cron call is skipped, not queued. A crashed holder's lock goes
 * with its connection.
 */
export async function withIndexerLock<T>(db: Db, programId: string, fn: () => Promise<T>): Promise<LockResult<T>> {
  const { connect } = driverOf(db);
  if (!connect) {
    if (heldInProcess.has(programId)) return { acquired: false };
    heldInProcess.add(programId);
    try {
      return { acquired: true, value: await fn() };
    } finally {
      heldInProcess.delete(programId);
    }
  }
  const client = await connect();
  let healthy = true;
  try {
    const { rows } = await client.query('select pg_try_advisory_lock($1, hashtext($2)) as locked', [
      LOCK_CLASS,
      programId,
    ]);
    if (rows[0]?.locked !== true) return { acquired: false };
    try {
      return { acquired: true, value: await fn() };
    } finally {
      await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, programId]).catch((err) => {
        // Dropping the connection releases the lock anyway.
        healthy = false;
        logger.error({ err }, 'indexer: advisory unlock failed');
      });
    }
  } finally {
    client.release(!healthy);
  }
}
