import type { Db } from '@/lib/db';
import { identities, type NewIdentityRow } from '@/lib/db/schema';
import { isReservedTag } from '@/lib/identity/tag';
import type { Registration } from './extract-registrations';

/**
 * Creates the mirror rows for landed registrations (SPEC 3.1), idempotently: a tag already in
 * the mirror is left as it is (ON CONFLICT DO NOTHING), so the cron run, a sync call, a
 * doubled run or a replay can all apply the same transaction. `createdAt` is the block time
 * (`now` only when the node does not know it); a reserved tag that landed anyway is mirrored
 * as `blocked` (DESIGN "Tags"). Returns the tags actually inserted.
 */
export async function applyRegistrations(db: Db, registrations: readonly Registration[], now: Date): Promise<string[]> {
  if (registrations.length === 0) return [];
  const rows: NewIdentityRow[] = registrations.map((r) => ({
    tag: r.tag,
    owner: r.owner,
    wallet: r.wallet,
    status: isReservedTag(r.tag) ? 'blocked' : 'active',
    createdAt: r.blockTime === null ? now : new Date(r.blockTime * 1000),
    updatedAt: now,
    signature: r.signature,
    slot: BigInt(r.slot),
  }));
  const inserted = await db
    .insert(identities)
    .values(rows)
    .onConflictDoNothing({ target: identities.tag })
    .returning({ tag: identities.tag });
  return inserted.map((r) => r.tag);
}
