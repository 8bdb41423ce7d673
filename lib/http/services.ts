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
