import { inArray, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, identityEvents, primaryTags } from '@/lib/db/schema';
import { toIdentity } from '@/lib/features/identity/identity-response';
import { isActiveRow } from '@/lib/features/identity/active';

/*
 * The write side of the change feed (DESIGN.md "For integrators"). Every writer of the
 * mirror (PATCH, moderation, the indexer, the lifecycle) calls `recordIdentityChanges` in its
 * own transaction, after its writes. Nothing is called after the commit: no page is kept
 * (/@tag is read from the mirror on every view), so there is nothing to expire.
 */

/** First key of the feed's per-tag advisory lock (`'fe'`); the second is hashtext(tag). */
const FEED_LOCK_CLASS = 0x6665;

/**
 * Appends one event per tag to the feed, reflecting what GET /v1/identity now answers for it
 * in this transaction: `upsert` with the full identity when the row is active, `remove` (no
 * identity) when it is missing or blocked. Also ends the primary-tag choices of these tags
 * whose chooser no longer owns them (reverse lookups ignore them already; this keeps a tag
 * that comes back to its old owner from reviving an old choice). Call it inside the transaction that wrote (or
 * deleted) the mirror rows of `tags`, after those writes, at READ COMMITTED (PostgreSQL's
 * default), so the event commits or rolls back with the change.
 *
 * Two transactions writing events for one tag take turns on a per-tag lock held to commit,
 * and each reads the row and the tag's previous event after getting it: so the later one
 * describes the newer state and sorts after the earlier one (its `xid` is raised to the
 * previous event's when smaller; see `identityEvents`).
 */
export async function recordIdentityChanges(tx: Db, tags: readonly string[], now: Date): Promise<void> {
  const unique = [...new Set(tags)].sort();
  if (unique.length === 0) return;
  // Sorted, so two writers of overlapping tags cannot deadlock. A statement of its own: the
  // reads below must take their snapshot after the lock is held.
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${FEED_LOCK_CLASS}::int, hashtext(s.tag)) FROM (SELECT unnest(${sql.param(unique)}::text[]) AS tag ORDER BY 1) AS s`,
  );
  const rows = await tx.select().from(identities).where(inArray(identities.tag, unique));
  // A primary-tag choice described its owner's tag: once the tag has another owner or none,
  // the choice is over for good (DESIGN.md "Indexer": cleared when the owner changes). It is
  // kept, ended, so a reverse lookup's 404 can say the primary was given away.
  await tx.execute(
    sql`UPDATE ${primaryTags} p SET ended_at = ${now.toISOString()}::timestamptz WHERE p.tag = ANY(${sql.param(unique)}::text[]) AND p.ended_at IS NULL AND NOT EXISTS (SELECT 1 FROM ${identities} i WHERE i.tag = p.tag AND i.owner = p.owner)`,
  );
  const byTag = new Map(rows.map((row) => [row.tag, row]));
  await tx.insert(identityEvents).values(
    unique.map((tag) => {
      const row = byTag.get(tag);
      const live = isActiveRow(row);
      return {
        tag,
        type: live ? ('upsert' as const) : ('remove' as const),
        identity: live ? toIdentity(row) : null,
        at: now,
        xid: sql`greatest(pg_current_xact_id(), (SELECT max(e.xid) FROM ${identityEvents} e WHERE e.tag = ${tag}))`,
      };
    }),
  );
}
