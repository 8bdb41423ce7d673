import type { Db } from '@/lib/db';
import { executePrepared } from '@/lib/db/rows';
import { toResolvedIdentity } from '@/lib/features/identity/identity-response';
import type { ResolvedIdentity } from '@/lib/features/identity/schemas';
import { activeIdentitySql } from '@/lib/features/identity/active';

/*
 * POST /v1/resolve: up to 100 tags in one statement. Each answer is made by the same
 * `toResolvedIdentity` as GET /v1/resolve/{tag} from the same kind of read (the active row, or
 * none: missing and blocked alike), so a batch answers exactly what single lookups would.
 */

/**
 * Only the columns a resolve answer shows, `created_at` already as the ISO 8601 text the answer
 * carries: turning a hundred rows' timestamps into Dates and back was most of the statement's
 * cost in the driver.
 */
export const ACTIVE_ROWS_SQL = `
SELECT tag, owner, wallet, display_name, avatar, preferred_token, nostr, verified, merchant,
       unsafe_payout_wallet, unsafe_payout_reason,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
FROM identities
WHERE tag = ANY($1::text[]) AND ${activeIdentitySql()}`;

interface ActiveRow {
  tag: string;
  owner: string;
  wallet: string;
  display_name: string | null;
  avatar: string | null;
  preferred_token: string | null;
  nostr: string | null;
  verified: boolean;
  merchant: boolean;
  unsafe_payout_wallet: string | null;
  unsafe_payout_reason: string | null;
  created_at: string;
}

/** Canonical tags → `{ <tag>: resolve object | null }`, each tag once, in the order first given. */
export async function resolveMany(db: Db, tags: readonly string[]): Promise<Record<string, ResolvedIdentity | null>> {
  const unique = [...new Set(tags)];
  const results: Record<string, ResolvedIdentity | null> = {};
  if (unique.length === 0) return results;
  const rows = await executePrepared<ActiveRow>(db, 'integrations_resolve_many', ACTIVE_ROWS_SQL, [unique]);
  const byTag = new Map(rows.map((row) => [row.tag, row]));
  for (const tag of unique) {
    const row = byTag.get(tag);
    results[tag] = row
      ? toResolvedIdentity({
          tag: row.tag,
          owner: row.owner,
          wallet: row.wallet,
          displayName: row.display_name,
          avatar: row.avatar,
          bio: null, // not part of a resolve answer
          preferredToken: row.preferred_token,
          nostr: row.nostr,
          verified: row.verified,
          merchant: row.merchant,
          createdAt: row.created_at,
          unsafePayoutWallet: row.unsafe_payout_wallet,
          unsafePayoutReason: row.unsafe_payout_reason,
        })
      : null;
  }
  return results;
}
