import bs58 from 'bs58';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import { rpcCall } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { executePrepared } from '@/lib/db/rows';
import { TAG_RECORD_DISCRIMINATOR, TAG_RECORD_OFFSETS, TAG_RECORD_SIZE } from '@/packages/tag-registry/src';

/*
 * Why a reverse lookup found no tag (README "Reverse lookup: why a 404"), in the 404's
 * envelope as `reason`, checked in this order:
 *   blocked            the address owns, or is the payout wallet of, a tag that is blocked;
 *   not_indexed        the chain holds a tag record owned by it or paying it that the mirror
 *                      does not show yet (a registration or transfer still on its way in);
 *   primary_not_owned  it chose a primary tag that it no longer owns (transferred, released);
 *   no_tag             none of these: it has no tag.
 * Only the 404 path pays for this: one statement, then (unless blocked) one filtered
 * getProgramAccounts per key offset, returning no account data.
 */

export const REVERSE_NOT_FOUND_REASONS = ['no_tag', 'primary_not_owned', 'blocked', 'not_indexed'] as const;
export type ReverseNotFoundReason = (typeof REVERSE_NOT_FOUND_REASONS)[number];

const MIRROR_REASONS_SQL = `
SELECT
  EXISTS (SELECT 1 FROM identities WHERE owner = $1 AND status = 'blocked')
    OR EXISTS (SELECT 1 FROM identities WHERE wallet = $1 AND status = 'blocked') AS blocked,
  EXISTS (SELECT 1 FROM primary_tags WHERE owner = $1 AND ended_at IS NOT NULL) AS primary_ended`;

async function mirrorReasons(db: Db, address: string): Promise<{ blocked: boolean; primary_ended: boolean }> {
  const [row] = await executePrepared<{ blocked: boolean; primary_ended: boolean }>(db, 'reverse_not_found_reasons', MIRROR_REASONS_SQL, [address]);
  return row!;
}

/**
 * Does the chain hold a tag record with `address` as owner or payout wallet (at `confirmed`,
 * ahead of the mirror's `finalized`)? Filtered on size, discriminator and the key's offset;
 * `dataSlice` of zero bytes, so the node sends addresses only.
 */
async function chainHasRecordFor({ connection, programId }: Omit<ChainAndMirror, 'db'>, address: string): Promise<boolean> {
  const withKeyAt = (offset: number) =>
    rpcCall(() =>
      connection.getProgramAccounts(programId, {
        commitment: 'confirmed',
        dataSlice: { offset: 0, length: 0 },
        filters: [
          { dataSize: TAG_RECORD_SIZE },
          { memcmp: { offset: 0, bytes: bs58.encode(TAG_RECORD_DISCRIMINATOR) } },
          { memcmp: { offset, bytes: address } },
        ],
      }),
    );
  const [owned, paid] = await Promise.all([withKeyAt(TAG_RECORD_OFFSETS.owner), withKeyAt(TAG_RECORD_OFFSETS.wallet)]);
  return owned.length > 0 || paid.length > 0;
}

/** The reason a reverse lookup of `address` answers 404 (see the order above). 503 when the cluster cannot be asked. */
export async function reverseNotFoundReason(chain: ChainAndMirror, address: string): Promise<ReverseNotFoundReason> {
  const mirror = await mirrorReasons(chain.db, address);
  if (mirror.blocked) return 'blocked';
  if (await chainHasRecordFor(chain, address)) return 'not_indexed';
  return mirror.primary_ended ? 'primary_not_owned' : 'no_tag';
}
