import type { Db } from '@/lib/db';
import type { AtSlot } from '@/lib/db/indexed-slot';
import { findActiveIdentityAtSlot } from '@/lib/features/identity/active';
import { displayTag } from '@/lib/core/tag';
import type { TransferState } from './schemas';

/**
 * GET /v1/identity/{tag}/transfer: the owner and the standing offer as the mirror
 * holds them (the indexer keeps `pending_owner` in step with the record), and the slot they
 * reflect; null when missing or blocked. `tag` is canonical.
 */
export async function getTransferStateAtSlot(db: Db, tag: string): Promise<AtSlot<TransferState | null>> {
  const { value: row, indexedSlot } = await findActiveIdentityAtSlot(db, tag);
  const value = row && { tag: displayTag(row.tag), owner: row.owner, pendingOwner: row.pendingOwner ?? null };
  return { value, indexedSlot };
}
