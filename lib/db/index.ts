import { getConfig } from '@/lib/config';
import { openDb, type Db } from './client';

export type { Db } from './client';

const globalForDb = globalThis as unknown as { __tagServiceDb?: Promise<Db> };

/** The process's one database handle (kept on globalThis so dev hot reloads share it). */
export function getDb(): Promise<Db> {
  globalForDb.__tagServiceDb ??= openDb(getConfig().database).then((h) => h.db);
  return globalForDb.__tagServiceDb;
}
