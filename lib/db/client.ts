import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ClientConfig } from 'pg';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config, DatabaseLimits } from '@/lib/config';
import * as schema from './schema';

/** A drizzle database, whichever driver configuration chose (DESIGN.md "Configuration"). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DbHandle {
  db: Db;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');

/** The deadlines when configuration gives none (lib/config.ts documents each). */
export const DEFAULT_DATABASE_LIMITS: DatabaseLimits = {
  statementTimeoutMs: 5000,
  connectTimeoutMs: 5000,
  poolAcquireTimeoutMs: 3000,
  poolSize: 10,
};

/**
 * Opens the database chosen by configuration: node-postgres for DATABASE_URL,
 * @vercel/postgres for POSTGRES_URL, otherwise an embedded PGlite under the data folder,
 * migrated on open (nothing to set up on a fresh machine).
 *
 * Every deadline is bounded, so a database that hangs turns into errors a caller can answer
 * 503 with (lib/db/unavailable.ts), never into requests that wait forever and hold the pool:
 * - each statement ends at `statementTimeoutMs` (PostgreSQL's statement_timeout, which also
 *   bounds waiting on a lock), with a client-side backstop a little later for a server that
 *   stops answering altogether;
 * - opening a connection ends at `connectTimeoutMs`;
 * - waiting for a connection of the pool, all of them busy, ends at `poolAcquireTimeoutMs`.
 */
export async function openDb(
  database: Config['database'],
  options: { poolSize?: number; limits?: DatabaseLimits } = {},
): Promise<DbHandle> {
  const limits = options.limits ?? DEFAULT_DATABASE_LIMITS;
  const max = options.poolSize ?? limits.poolSize;
  switch (database.driver) {
    case 'node-postgres': {
      const pg = await import('pg');
      const { drizzle } = await import('drizzle-orm/node-postgres');
      // pg-pool applies its connectionTimeoutMillis to the whole wait for a client (queue and
      // connect); the client's own, to opening its connection.
      class BoundedClient extends pg.Client {
        constructor(config?: ClientConfig) {
          super({ ...config, connectionTimeoutMillis: limits.connectTimeoutMs });
        }
      }
      const pool = new pg.Pool({
        connectionString: database.url,
        max,
        Client: BoundedClient,
        connectionTimeoutMillis: limits.poolAcquireTimeoutMs,
        statement_timeout: limits.statementTimeoutMs,
        idle_in_transaction_session_timeout: limits.statementTimeoutMs * 2,
        query_timeout: limits.statementTimeoutMs + 2000,
        keepAlive: true,
      });
      pool.on('error', (err) => console.error('postgres pool error:', err.message));
      return { db: drizzle(pool, { schema }) as unknown as Db, close: () => pool.end() };
    }
    case 'vercel-postgres': {
      const { createPool } = await import('@vercel/postgres');
      const { drizzle } = await import('drizzle-orm/vercel-postgres');
      // Neon's pooler refuses start-up parameters such as statement_timeout: set it on the
      // database role instead (README "Configuration"); the client-side deadline stays.
      const pool = createPool({
        connectionString: database.url,
        max,
        connectionTimeoutMillis: limits.poolAcquireTimeoutMs,
        query_timeout: limits.statementTimeoutMs + 2000,
      });
      return { db: drizzle(pool, { schema }) as unknown as Db, close: () => pool.end() };
    }
    case 'pglite': {
      // One connection in this process: no pool to wait for and no other session to lock.
      const { PGlite } = await import('@electric-sql/pglite');
      const { drizzle } = await import('drizzle-orm/pglite');
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      mkdirSync(database.dataDir, { recursive: true });
      const client = new PGlite(database.dataDir);
      const db = drizzle(client, { schema });
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
      return { db: db as unknown as Db, close: () => client.close() };
    }
  }
}

/** Applies drizzle/ migrations to a PostgreSQL server (tests, `npm run db:migrate`). */
export async function migratePostgres(url: string): Promise<void> {
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await pool.end();
  }
}
