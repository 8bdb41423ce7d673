import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { perHandle } from '@/lib/db/batch';
import { identities } from '@/lib/db/schema';
import { toResolvedIdentity } from '@/lib/identity/identity-response';
import type { ResolvedIdentity } from '@/lib/identity/schemas';

/*
 * POST /v1/resolve: up to 100 tags in one statement. Each answer is made by the same
 * `toResolvedIdentity` as GET /v1/resolve/{tag} from the same kind of read (the active row, or
 * none: missing and blocked alike), so a batch answers exactly what single lookups would.
 */

const activeRows = perHandle((db: Db) =>
  db
    .select()
    .from(identities)
    .where(and(sql`${identities.tag} = ANY(${sql.placeholder('tags')}::text[])`, eq(identities.status, 'active')))
    .prepare('integrations_resolve_many'),
);

/** Canonical tags → `{ <tag>: resolve object | null }`, each tag once, in the order first given. */
export async function resolveMany(db: Db, tags: readonly string[]): Promise<Record<string, ResolvedIdentity | null>> {
  const unique = [...new Set(tags)];
  const results: Record<string, ResolvedIdentity | null> = {};
  if (unique.length === 0) return results;
  const byTag = new Map((await activeRows(db).execute({ tags: unique })).map((row) => [row.tag, row]));
  for (const tag of unique) {
    const row = byTag.get(tag);
    results[tag] = row ? toResolvedIdentity(row) : null;
  }
  return results;
}
