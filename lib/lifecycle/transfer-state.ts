import type { Db } from '@/lib/db';
import { tagNotFound } from '@/lib/identity/get-identity';
import { findActiveIdentity } from '@/lib/identity/queries';
import { displayTag } from '@/lib/identity/tag';
import type { TransferState } from './schemas';

/**
 * GET /v1/identity/{tag}/transfer: the owner and the standing offer as the mirror
 * holds them (the indexer keeps `pending_owner` in step with the record). Missing and blocked
 * give the identity's one 404. `tag` is canonical.
 */
export async function getTransferState(db: Db, tag: string): Promise<TransferState> {
  const row = await findActiveIdentity(db, tag);
  if (!row) throw tagNotFound();
  return { tag: displayTag(row.tag), owner: row.owner, pendingOwner: row.pendingOwner ?? null };
}
