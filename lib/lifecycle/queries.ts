import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow } from '@/lib/db/schema';

/** The active tags offered to `key` (their record's pending owner), oldest first: the recipient's settings page. */
export async function listTagsOfferedTo(db: Db, key: string): Promise<IdentityRow[]> {
  return db
    .select()
    .from(identities)
    .where(and(eq(identities.pendingOwner, key), eq(identities.status, 'active')))
    .orderBy(asc(identities.createdAt), asc(identities.tag));
}
