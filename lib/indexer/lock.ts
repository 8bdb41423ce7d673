import type { Db } from '@/lib/db';

/** First key of the indexer's advisory lock (`'ti'`); the second is hashtext(programId). */
const LOCK_CLASS = 0x7469;

interface LockClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(destroy?: boolean): void;
}

interface PoolLike {
  connect(): Promise<LockClient>;
}

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
  const pool = poolOf(db);
  if (!pool) {
    if (heldInProcess.has(programId)) return { acquired: false };
    heldInProcess.add(programId);
    try {
      return { acquired: true, value: await fn() };
    } finally {
      heldInProcess.delete(programId);
    }
  }
  const client = await pool.connect();
  let healthy = true;
  try {
    const { rows } = await client.query('select pg_try_advisory_lock($1, hashtext($2)) as locked', [LOCK_CLASS, programId]);
    if (rows[0]?.locked !== true) return { acquired: false };
    try {
      return { acquired: true, value: await fn() };
    } finally {
      await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, programId]).catch((err) => {
        // Dropping the connection releases the lock anyway.
        healthy = false;
        console.error('indexer: advisory unlock failed', err);
      });
    }
  } finally {
    client.release(!healthy);
  }
}

/** The connection pool behind a node-postgres or @vercel/postgres drizzle handle; null for PGlite. */
function poolOf(db: Db): PoolLike | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client && typeof (client as Partial<PoolLike>).connect === 'function' && !('exec' in (client as object))) {
    return client as PoolLike;
  }
  return null;
}
