import path from 'node:path';

/*
 * Migrations, apart from the app's handles (lib/db/client.ts): devstack runs them under
 * Playwright and plain tsx, outside any server bundle, so this module carries no
 * `server-only` marker; the app never imports it except for the folder's path.
 */

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');

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
