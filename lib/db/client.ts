import 'server-only';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ClientConfig } from 'pg';
import { mkdirSync } from 'node:fs';
import type { Config } from '@/lib/core/config';
import { logger } from '@/lib/observability/logger';
import { observePool, type ObservablePool } from '@/lib/observability/pool-metrics';
import { MIGRATIONS_FOLDER } from './migrate';
import * as schema from './schema';

/** A drizzle database, whichever driver configuration chose (DESIGN.md "Configuration"). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DbHandle {
  db: Db;
  close(): Promise<void>;
}

/** A connection of its own, taken from a handle's pool (session-scoped work: advisory locks). */
export interface SessionClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(destroy?: boolean): void;
}

/**
 * The driver under a handle, worked out here where the driver is chosen and nowhere else:
 * lib/ code that needs more than drizzle (a prepared statement, a connection of its own) asks
 * for it through `driverOf` instead of sniffing the client.
 */
export interface DbDriver {
  /** Runs one statement of fixed text; node-postgres prepares it under `name` (one text per name). */
  query(name: string, text: string, values: unknown[]): Promise<unknown[]>;
  /** A connection of its own, or null where the handle has only one (PGlite, one per process). */
  connect: (() => Promise<SessionClient>) | null;
}

// Kept on the handle itself, under a global symbol, not in a module-level map: Next.js bundles
// this module into several chunks (routes, server actions), each with its own module state,
// while the process's handle (lib/db/index.ts) is one object shared through globalThis.
const DRIVER = Symbol.for('identity-tag-service.db-driver');

/** The driver of a handle opened by `openDb`. */
export function driverOf(db: Db): DbDriver {
  const driver = (db as unknown as Record<symbol, DbDriver | undefined>)[DRIVER];
  if (!driver) throw new Error('lib/db: not a handle opened by openDb (a transaction has no driver of its own)');
  return driver;
}

function opened(db: unknown, driver: DbDriver, close: () => Promise<void>): DbHandle {
  Object.defineProperty(db, DRIVER, { value: driver });
  return { db: db as Db, close };
}

/*
 * The database deadlines. Figures, not settings: a request that waits longer than these for the
 * database is better answered 503 (lib/core/database-errors.ts) than held, and no deployment has
 * needed others.
 * - A statement: 5 s. Ours are indexed lookups and small writes that take milliseconds (the
 *   benchmarks, bench/results/2026-11-26.md: an availability check with look-alikes over a
 *   million tags); 5 s only catches a lock held elsewhere or a database that stopped answering.
 * - Opening a connection (TCP, TLS, start-up): 5 s, enough for a cold serverless database.
 * - Waiting for a free connection of the pool, connecting included: 3 s, shorter than a
 *   statement's, so that a pool jammed behind a lock sheds load instead of queueing it.
 */
export const STATEMENT_TIMEOUT_MS = 5000;
export const CONNECT_TIMEOUT_MS = 5000;
export const POOL_ACQUIRE_TIMEOUT_MS = 3000;

/**
 * Opens the database chosen by configuration: node-postgres for DATABASE_URL,
 * @vercel/postgres for POSTGRES_URL, otherwise an embedded PGlite under the data folder,
 * migrated on open (nothing to set up on a fresh machine).
 *
 * Every deadline is bounded, so a database that hangs turns into errors a caller can answer
 * 503 with (lib/core/database-errors.ts), never into requests that wait forever and hold the pool:
 * - each statement ends at STATEMENT_TIMEOUT_MS (PostgreSQL's statement_timeout, which also
 *   bounds waiting on a lock), with a client-side backstop a little later for a server that
 *   stops answering altogether;
 * - opening a connection ends at CONNECT_TIMEOUT_MS;
 * - waiting for a connection of the pool, all of them busy, ends at POOL_ACQUIRE_TIMEOUT_MS.
 */
export async function openDb(
  database: Config['database'],
  options: {
    /** Connections at most (the app's: DATABASE_POOL_SIZE). */ poolSize: number;
    /** The pool's name in metrics. */ name?: string;
  },
): Promise<DbHandle> {
  const max = options.poolSize;
  switch (database.driver) {
    case 'node-postgres': {
      const pg = await import('pg');
      const { drizzle } = await import('drizzle-orm/node-postgres');
      // pg-pool applies its connectionTimeoutMillis to the whole wait for a client (queue and
      // connect); the client's own, to opening its connection.
      class BoundedClient extends pg.Client {
        constructor(config?: ClientConfig) {
          super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
        }
      }
      const pool = new pg.Pool({
        connectionString: database.url,
        max,
        Client: BoundedClient,
        connectionTimeoutMillis: POOL_ACQUIRE_TIMEOUT_MS,
        statement_timeout: STATEMENT_TIMEOUT_MS,
        idle_in_transaction_session_timeout: STATEMENT_TIMEOUT_MS * 2,
        query_timeout: STATEMENT_TIMEOUT_MS + 2000,
        keepAlive: true,
      });
      pool.on('error', (err) => logger.error({ err }, 'postgres pool error'));
      observePool(pool as unknown as ObservablePool, options.name ?? 'main');
      const driver: DbDriver = {
        query: async (name, text, values) => (await pool.query({ name, text, values })).rows,
        connect: () => pool.connect() as Promise<SessionClient>,
      };
      return opened(drizzle(pool, { schema }), driver, () => pool.end());
    }
    case 'vercel-postgres': {
      const { createPool } = await import('@vercel/postgres');
      const { drizzle } = await import('drizzle-orm/vercel-postgres');
      // Neon's pooler refuses start-up parameters such as statement_timeout: set it on the
      // database role instead (docs/operating.md, "Deploying to Vercel"); the client-side deadline stays.
      const pool = createPool({
        connectionString: database.url,
        max,
        connectionTimeoutMillis: POOL_ACQUIRE_TIMEOUT_MS,
        query_timeout: STATEMENT_TIMEOUT_MS + 2000,
      });
      observePool(pool as unknown as ObservablePool, options.name ?? 'main');
      const driver: DbDriver = {
        query: async (_name, text, values) => (await pool.query(text, values)).rows,
        connect: () => pool.connect() as unknown as Promise<SessionClient>,
      };
      return opened(drizzle(pool, { schema }), driver, () => pool.end());
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
      const driver: DbDriver = {
        query: async (_name, text, values) => (await client.query(text, values)).rows,
        connect: null,
      };
      return opened(db, driver, () => client.close());
    }
  }
}
