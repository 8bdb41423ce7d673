// `npm run db:migrate`: applies drizzle/ migrations to the configured database
// (DATABASE_URL or POSTGRES_URL; the embedded PGlite migrates itself on open).
import { ConfigError, getConfig } from '@/lib/config';
import { openDb } from '@/lib/db/client';
import { migratePostgres } from '@/lib/db/migrate';

async function main(): Promise<void> {
  const { database } = getConfig();
  if (database.driver === 'pglite') {
    await (await openDb(database)).close();
  } else {
    await migratePostgres(database.url);
  }
  console.log(`migrated (${database.driver})`);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
