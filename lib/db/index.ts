import 'server-only';
import { getConfig } from '@/lib/core/config';
import { openDb, type Db } from './client';

export type { Db } from './client';

type Slot = '__tagServiceDb' | '__tagServiceAuthDb';
const globalForDb = globalThis as unknown as Partial<Record<Slot, Promise<Db>>>;

/** Opens a handle once per process (kept on globalThis so dev hot reloads share it); a failed open is tried again. */
function once(slot: Slot, open: () => Promise<Db>): Promise<Db> {
  let handle = globalForDb[slot];
  if (!handle) {
    const opening = open();
    globalForDb[slot] = handle = opening;
    opening.catch(() => {
      if (globalForDb[slot] === opening) globalForDb[slot] = undefined;
    });
  }
  return handle;
}

/** The process's main database handle. */
export function getDb(): Promise<Db> {
  const config = getConfig();
  return once('__tagServiceDb', () =>
    openDb(config.database, { poolSize: config.databasePoolSize, name: 'main' }).then((h) => h.db),
  );
}

/** Connections kept for the sign-in and rate-limit statements. */
const AUTH_POOL_SIZE = 3;

/**
 * A handle with a small pool of its own for the sign-in and rate-limit statements (nonces,
 * counters): however many requests a locked or slow table holds up in the main pool, sign-in
 * still gets a connection. PGlite has one connection: there it is the main handle.
 */
export function getAuthDb(): Promise<Db> {
  const config = getConfig();
  if (config.database.driver === 'pglite') return getDb();
  return once('__tagServiceAuthDb', () =>
    openDb(config.database, { poolSize: AUTH_POOL_SIZE, name: 'auth' }).then((h) => h.db),
  );
}
