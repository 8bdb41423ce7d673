import { and, eq, sql } from 'drizzle-orm';
import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { identities, primaryTags } from '@/lib/db/schema';
import { tagNotFound } from '@/lib/features/identity/get-identity';
import type { OwnerCheck } from '@/lib/features/identity/owner-on-chain';
import { findIdentityRow } from '@/lib/features/identity/queries';
import { displayTag } from '@/lib/core/tag';
import { ownerPrimaryTag } from './reverse-lookup';
import type { PrimaryTag } from './schemas';
import { isActiveIdentity, isActiveRow } from '@/lib/features/identity/active';

/**
 * PUT /v1/primary: the caller chooses which of its active tags reverse lookups answer, or
 * (`tag: null`) goes back to the default, its oldest. 404 when the tag is missing or blocked,
 * 403 when someone else owns it. The choice is written only if the caller owns the tag at that
 * moment (one statement), and counts only while it still does (see reverse-lookup.ts).
 * `checkOwner` asks the chain first where the mirror may lag (owner-on-chain.ts).
 */
export async function setPrimaryTag(
  db: Db,
  input: { owner: string; tag: string | null },
  now: Date,
  checkOwner: OwnerCheck,
): Promise<PrimaryTag> {
  const { owner, tag } = input;
  if (tag === null) {
    await db.delete(primaryTags).where(eq(primaryTags.owner, owner));
    const current = await ownerPrimaryTag(db, owner);
    return { owner, tag: current ? displayTag(current) : null };
  }
  const mirrored = await findIdentityRow(db, tag);
  if (isActiveRow(mirrored) && mirrored.owner === owner) await checkOwner(mirrored, owner);
  const chosen = await db
    .insert(primaryTags)
    .select(
      db
        .select({
          owner: identities.owner,
          tag: identities.tag,
          chosenAt: sql<Date>`${now.toISOString()}::timestamptz`.as('chosen_at'),
          endedAt: sql<Date | null>`NULL::timestamptz`.as('ended_at'),
        })
        .from(identities)
        .where(and(eq(identities.tag, tag), eq(identities.owner, owner), isActiveIdentity)),
    )
    .onConflictDoUpdate({ target: primaryTags.owner, set: { tag, chosenAt: now, endedAt: null } })
    .returning({ tag: primaryTags.tag });
  if (chosen[0]) return { owner, tag: displayTag(tag) };

  const row = await findIdentityRow(db, tag);
  if (!isActiveRow(row)) throw tagNotFound();
  throw new AppError('forbidden', 'This tag belongs to another public key.');
}
