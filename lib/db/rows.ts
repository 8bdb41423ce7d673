import 'server-only';
import { driverOf, type Db } from './client';

/**
 * Runs a fixed statement text (`$1`, `$2`… placeholders) on the driver under drizzle, for the
 * rate-limit and sign-in statements: no query building per request, and with node-postgres a
 * statement prepared under `name` (parsed and planned once per connection; a name must always
 * go with the same text, which node-postgres enforces). PGlite and @vercel/postgres take the
 * same text and values as a plain query. Only for single statements (run on their own, in
 * autocommit), since a deadlock victim is run again.
 */
export async function executePrepared<T>(db: Db, name: string, text: string, values: unknown[]): Promise<T[]> {
  const driver = driverOf(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return (await driver.query(name, text, values)) as T[];
    } catch (err) {
      // A statement chosen as a deadlock victim was rolled back whole: run it again.
      if ((err as { code?: string }).code !== DEADLOCK_DETECTED || attempt === 3) throw err;
    }
  }
}

const DEADLOCK_DETECTED = '40P01';
