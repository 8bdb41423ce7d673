// `npm run db:migrate`: applies drizzle/ migrations to the configured database
// (DATABASE_URL or POSTGRES_URL; the embedded PGlite migrates itself on open).
import { getConfig } from '@/lib/core/config';
import { openDb } from '@/lib/db/client';
import { migratePostgres } from '@/lib/db/migrate';
import { runCommand } from './run-command';

async function main(): Promise<number> {
  const { database } = getConfig();
  if (database.driver === 'pglite') {
    await (await openDb(database, { poolSize: 1 })).close();
  } else {
    await migratePostgres(database.url);
  }
  console.log(`migrated (${database.driver})`);
  return 0;
}

runCommand(main);
