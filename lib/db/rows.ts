import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db } from './client';

/** The rows of a raw `db.execute()` result, whichever driver ran it (all three expose `rows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

interface RawClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a fixed statement text (`$1`, `$2`… placeholders) on the driver under drizzle, for the
 * statements on the sign-in hot path: no query building per request, and with node-postgres a
 * named prepared statement (parsed and planned once per connection). PGlite and
 * @vercel/postgres take the same text and values as a plain query. Only for single
 * statements (run on their own, in autocommit), since a deadlock victim is run again.
 */
export async function executePrepared<T>(db: Db, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: RawClient }).$client;
  for (let attempt = 1; ; attempt++) {
    try {
      if (client instanceof pg.Pool) {
        return (await client.query({ name: preparedName(name, text), text, values })).rows as T[];
      }
      return (await client.query(text, values)).rows as T[];
    } catch (err) {
      // A statement chosen as a deadlock victim was rolled back whole: run it again.
      if ((err as { code?: string }).code !== DEADLOCK_DETECTED || attempt === 3) throw err;
    }
  }
}

const DEADLOCK_DETECTED = '40P01';

const names = new Map<string, string>();
/** One name per distinct text: a prepared name must always mean the same statement. */
function preparedName(name: string, text: string): string {
  let prepared = names.get(text);
  if (!prepared) names.set(text, (prepared = `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`));
  return prepared;
}
