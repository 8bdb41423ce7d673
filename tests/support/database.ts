import { inject } from 'vitest';
import { createDatabase } from '@/devstack/postgres';
import { openDb, type Db, type DbHandle } from '@/lib/db/client';
import { startControllablePostgres } from '../db/postgres-control';
import { held, type Lifetime } from './held';

export interface TestDatabase {
  /** Its URL, for an app or a command of the test's own. */
  readonly url: string;
  readonly db: Db;
}

export interface TestDatabaseOptions {
  /** The handle's pool size (10 when not given). */
  poolSize?: number;
  lifetime?: Lifetime;
}

/**
 * A database of the test's own on the run's PostgreSQL server, migrated, with a handle open
 * on it: counts are exact whatever other files write. `lifetime` as in held().
 */
export function ownDatabase(options: TestDatabaseOptions = {}): TestDatabase {
  return heldDatabase('the own database', () => createDatabase(inject('databaseUrl')), options);
}

/**
 * A handle on the database the shared app uses (global-setup's stack): for tests that seed
 * rows the app must see, or read what it wrote.
 */
export function stackDatabase(options: TestDatabaseOptions = {}): TestDatabase {
  return heldDatabase('the stack database', async () => inject('databaseUrl'), options);
}

/**
 * A migrated database on a PostgreSQL server of the test's alone, with a handle open on it:
 * for a timing claim about the change feed or webhooks, whose events are served once no older
 * transaction is open anywhere on the server, where another file's may be for seconds.
 */
export function isolatedDatabase({ poolSize = 10, lifetime }: TestDatabaseOptions = {}): TestDatabase {
  const open = async () => {
    const server = await startControllablePostgres();
    const url = await createDatabase(server.url);
    return { server, url, handle: await openDb({ driver: 'node-postgres', url }, { poolSize }) };
  };
  const close = async ({ server, handle }: Awaited<ReturnType<typeof open>>) => {
    await handle.close();
    await server.close();
  };
  const current = held('the isolated database', open, close, lifetime);
  return {
    get url() {
      return current().url;
    },
    get db() {
      return current().handle.db;
    },
  };
}

function heldDatabase(
  name: string,
  urlOf: () => Promise<string>,
  { poolSize = 10, lifetime }: TestDatabaseOptions,
): TestDatabase {
  const open = async (): Promise<{ url: string; handle: DbHandle }> => {
    const url = await urlOf();
    return { url, handle: await openDb({ driver: 'node-postgres', url }, { poolSize }) };
  };
  const current = held(name, open, ({ handle }) => handle.close(), lifetime);
  return {
    get url() {
      return current().url;
    },
    get db() {
      return current().handle.db;
    },
  };
}
