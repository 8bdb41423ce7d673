import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@/lib/config';
import * as schema from './schema';

/** A drizzle database, whichever driver configuration chose (DESIGN.md "Configuration"). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DbHandle {
  db: Db;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');

/**
 * Opens the database chosen by configuration: node-postgres for DATABASE_URL,
 * @vercel/postgres for POSTGRES_URL, otherwise an embedded PGlite under the data folder,
 * migrated on open (nothing to set up on a fresh machine).
 */
export async function openDb(database: Config['database'], options: { poolSize?: number } = {}): Promise<DbHandle> {
  switch (database.driver) {
    case 'node-postgres': {
      const { Pool } = await import('pg');
      const { drizzle } = await import('drizzle-orm/node-postgres');
      const pool = new Pool({ connectionString: database.url, max: options.poolSize ?? 10 });
      pool.on('error', (err) => console.error('postgres pool error:', err.message));
      return { db: drizzle(pool, { schema }) as unknown as Db, close: () => pool.end() };
    }
    case 'vercel-postgres': {
      const { createPool } = await import('@vercel/postgres');
      const { drizzle } = await import('drizzle-orm/vercel-postgres');
      const pool = createPool({ connectionString: database.url });
      return { db: drizzle(pool, { schema }) as unknown as Db, close: () => pool.end() };
    }
    case 'pglite': {
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
