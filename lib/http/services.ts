import 'server-only';
import { getConfig, type Config } from '@/lib/core/config';
import { getAuthDb, getDb, type Db } from '@/lib/db';
import { resolveAuthSecret } from '@/lib/features/auth/secret';
import { sessionTokenKeys, type SessionTokenKeys } from '@/lib/features/auth/session-token';
import { watchIndexerLag } from '@/lib/features/indexer/lag-gauges';

export interface Services {
  config: Config;
  db: Db;
  /** For the sign-in and rate-limit statements only: a pool no other table's trouble can exhaust. */
  authDb: Db;
  tokenKeys: SessionTokenKeys;
}

/** Where a route's handlers take their services from (lib/http/v1-route.ts `v1Handlers`). */
export type ServicesProvider = () => Promise<Services>;

/**
 * Services made from a configuration and database handles the caller opened: what a test
 * binds a route's handlers to in-process (tests/support/in-process.ts), one per configuration.
 */
export async function servicesOf(config: Config, db: Db, authDb: Db = db): Promise<Services> {
  return { config, db, authDb, tokenKeys: await sessionTokenKeys(resolveAuthSecret(config), config.appUrl.origin) };
}

let cached: Promise<Services> | undefined;

/** What route handlers pass into lib/: configuration, database and token keys, made once. */
export function getServices(): Promise<Services> {
  if (!cached) {
    cached = (async () => {
      const config = getConfig();
      const [db, authDb] = await Promise.all([getDb(), getAuthDb()]);
      const tokenKeys = await sessionTokenKeys(resolveAuthSecret(config), config.appUrl.origin);
      watchIndexerLag({ db, config });
      return { config, db, authDb, tokenKeys };
    })();
    // a failed start is tried again on the next request
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}
