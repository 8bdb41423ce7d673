import type { Db } from '@/lib/db';
import { executePrepared } from '@/lib/db/rows';
import type { IdentityRow } from '@/lib/db/schema';
import { skeletonOf } from '@/lib/core/skeleton';
import { displayTag } from '@/lib/core/tag';
import { activeIdentitySql, isActiveRow } from './active';

/** An active tag another one looks like (the same skeleton), with the flags that make it one to protect. */
export interface Lookalike {
  /** Bare tag. */
  tag: string;
  verified: boolean;
  merchant: boolean;
}

/** Verified and merchant tags are the ones people pay, hence the ones a look-alike is refused for. */
export function isProtected(tag: Pick<Lookalike, 'verified' | 'merchant'>): boolean {
  return tag.verified || tag.merchant;
}

/** The most look-alikes one answer names (protected ones first). */
export const MAX_LOOKALIKES = 20;

/**
 * Every tag with the skeleton of $2, the tag itself first, then the active protected ones,
 * then the rest by tag: one scan of the skeleton index, prepared once per connection.
 */
export const SKELETON_MATES_SQL = `
SELECT tag, verified, merchant, status FROM identities
WHERE skeleton = $1
ORDER BY tag = $2 DESC, (${activeIdentitySql()} AND (verified OR merchant)) DESC, tag
LIMIT ${MAX_LOOKALIKES + 1}`;

export interface SkeletonMates {
  /** The row of the tag itself, whatever its status, or null. */
  own: Pick<IdentityRow, 'tag' | 'status'> | null;
  /** Other active tags that look like it, protected first, at most MAX_LOOKALIKES. */
  lookalikes: Lookalike[];
}

/**
 * The tag's own row and the active tags that look like it, in one statement (availability and
 * register's check). `tag` must be canonical.
 */
export async function findSkeletonMates(db: Db, tag: string): Promise<SkeletonMates> {
  const rows = await executePrepared<Lookalike & { status: IdentityRow['status'] }>(
    db,
    'identity_skeleton_mates',
    SKELETON_MATES_SQL,
    [skeletonOf(tag), tag],
  );
  const own = rows[0]?.tag === tag ? { tag, status: rows[0].status } : null;
  const lookalikes = rows
    .filter((r) => r.tag !== tag && isActiveRow(r))
    .slice(0, MAX_LOOKALIKES)
    .map(({ tag, verified, merchant }) => ({ tag, verified, merchant }));
  return { own, lookalikes };
}

/** The protected tag a new tag must not imitate, or null. */
export function protectedLookalike(lookalikes: readonly Lookalike[]): Lookalike | null {
  return lookalikes.find(isProtected) ?? null;
}

/** `@alice (verified)`, `@shop (merchant)`, `@bob`: how a look-alike is named to people. */
export function describeLookalike(tag: Lookalike): string {
  const flags = [tag.verified ? 'verified' : null, tag.merchant ? 'merchant' : null].filter(Boolean);
  return flags.length ? `${displayTag(tag.tag)} (${flags.join(', ')})` : displayTag(tag.tag);
}

/** The sentence a registrant sees before signing, or null when the tag looks like no other. */
export function lookalikeWarning(tag: string, lookalikes: readonly Lookalike[]): string | null {
  if (lookalikes.length === 0) return null;
  const named = lookalikes.slice(0, 3).map(describeLookalike).join(', ');
  const more = lookalikes.length > 3 ? ` and ${lookalikes.length - 3} more` : '';
  const refused = protectedLookalike(lookalikes);
  return refused
    ? `${displayTag(tag)} looks like ${named}${more}. Tags that look like a verified or merchant tag cannot be registered.`
    : `${displayTag(tag)} looks like ${named}${more}. Payers may confuse them; consider a more distinct tag.`;
}
