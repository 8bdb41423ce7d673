import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client';

/** The rows of a raw `db.execute()` result, whichever driver ran it (all three expose `rows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const dialect = new PgDialect();

/**
 * Runs a raw statement as a named prepared statement where the driver supports one
 * (node-postgres: parsed and planned once per connection, not per request), else as a plain
 * `db.execute`. For the statements on the sign-in hot path.
 */
export async function executePrepared<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const { sql, params } = dialect.sqlToQuery(query);
    // One name per distinct text: a prepared name must always mean the same statement.
    const statement = `${name}_${createHash('sha1').update(sql).digest('hex').slice(0, 12)}`;
    return (await client.query({ name: statement, text: sql, values: params as unknown[] })).rows as T[];
  }
  return rowsOf<T>(await db.execute(query));
}
