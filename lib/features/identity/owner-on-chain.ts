import type { Address } from '@solana/kit';
import type { IdentityRow } from '@/lib/db/schema';
import { AppError } from '@/lib/core/errors';
import { readTagRecord } from '@/lib/chain/read-tag-record';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { findTagRecordPda } from '@/packages/tag-registry/src';
import { tagNotFound } from './get-identity';

/**
 * The last check of a write the mirror allowed (PATCH /v1/identity/{tag}, the settings form,
 * PUT /v1/primary): throws when the chain says otherwise. Required by those writers, so none
 * can forget it.
 */
export type OwnerCheck = (row: IdentityRow, caller: string) => Promise<void>;

/**
 * The mirror follows the chain at `finalized` plus the indexer's interval. While it shows a
 * transfer offer standing (`pendingOwner`), an acceptance may already have landed, and the
 * old owner must not edit the tag any more: the record on chain (at `confirmed`, as the
 * lifecycle builders read it) decides, 403 another owner, 404 no record (released). Without
 * an offer the mirror's owner is the chain's (a transfer needs an offer first), so no RPC.
 * An offer and its acceptance both inside the mirror's lag are not seen (docs/security.md, "Threat notes").
 */
export function ownerOnChain({ rpc, programAddress }: { rpc: SolanaRpc; programAddress: Address }): OwnerCheck {
  return async (row, caller) => {
    if (row.pendingOwner === null) return;
    const [pda] = await findTagRecordPda({ tag: row.tag }, { programAddress });
    const record = await readTagRecord(rpc, programAddress, pda, 'confirmed');
    if (!record) throw tagNotFound();
    if (record.owner !== caller) throw new AppError('forbidden', 'This tag belongs to another public key.');
  };
}
