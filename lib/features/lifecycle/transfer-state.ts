import type { Db } from '@/lib/db';
import { tagNotFound, type AtSlot } from '@/lib/features/identity/get-identity';
import { findActiveIdentityAtSlot } from '@/lib/features/identity/active';
import { indexedSlotHeaders } from '@/lib/db/indexed-slot';
import { displayTag } from '@/lib/core/tag';
import type { TransferState } from './schemas';

/**
 * GET /v1/identity/{tag}/transfer: the owner and the standing offer as the mirror
 * holds them (the indexer keeps `pending_owner` in step with the record), and the slot they
 * reflect. Missing and blocked give the identity's one 404. `tag` is canonical.
 */
export async function getTransferStateAtSlot(db: Db, tag: string): Promise<AtSlot<TransferState>> {
  const { row, indexedSlot } = await findActiveIdentityAtSlot(db, tag);
  if (!row) throw tagNotFound().withHeaders(indexedSlotHeaders(indexedSlot));
  return { value: { tag: displayTag(row.tag), owner: row.owner, pendingOwner: row.pendingOwner ?? null }, indexedSlot };
}
