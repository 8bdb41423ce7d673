import type { Db } from '@/lib/db';
import { executePrepared } from '@/lib/db/rows';

/*
 * Why a reverse lookup found no tag (README "Reverse lookup: why a 404"), in the 404's
 * envelope as `reason`, checked in this order:
 *   blocked            the address owns, or is the payout wallet of, a tag that is blocked;
 *   not_indexed        the mirror may be behind the chain, so the absence is not conclusive:
 *                      the indexer holds deferred transactions (the cursor waits before them),
 *                      or it has not read the program up to the chain's newest finalized slot
 *                      within MIRROR_CURRENT_WITHIN_MS (a registration may be on its way in);
 *   primary_not_owned  it chose a primary tag that it no longer owns (transferred, released);
 *   no_tag             none of these: it has no tag.
 * One statement over the mirror and the indexer's own state (indexer_deferrals, indexer_runs),
 * never the cluster: a scan of the program per 404 (getProgramAccounts, the dearest call a
 * provider serves) would let any caller spend the service's RPC quota at will.
 */

export const REVERSE_NOT_FOUND_REASONS = ['no_tag', 'primary_not_owned', 'blocked', 'not_indexed'] as const;
export type ReverseNotFoundReason = (typeof REVERSE_NOT_FOUND_REASONS)[number];

/**
 * How recently the indexer must have caught up with the chain for the mirror to count as
 * current: two minutes, two runs of Vercel's per-minute cron (`npm start` runs every 15 s).
 */
export const MIRROR_CURRENT_WITHIN_MS = 120_000;

const REASONS_SQL = `
SELECT
  EXISTS (SELECT 1 FROM identities WHERE owner = $1 AND status = 'blocked')
    OR EXISTS (SELECT 1 FROM identities WHERE wallet = $1 AND status = 'blocked') AS blocked,
  EXISTS (SELECT 1 FROM primary_tags WHERE owner = $1 AND ended_at IS NOT NULL) AS primary_ended,
  EXISTS (SELECT 1 FROM indexer_deferrals WHERE program_id = $2) AS deferred,
  (SELECT caught_up_at FROM indexer_runs WHERE program_id = $2) AS caught_up_at`;

interface ReasonFacts {
  blocked: boolean;
  primary_ended: boolean;
  deferred: boolean;
  caught_up_at: Date | string | null;
}

/** The reason a reverse lookup of `address` answers 404 (see the order above), at `now`. */
export async function reverseNotFoundReason(
  { db, programAddress }: { db: Db; programAddress: string },
  address: string,
  now: Date,
): Promise<ReverseNotFoundReason> {
  const [facts] = await executePrepared<ReasonFacts>(db, 'reverse_not_found_reasons', REASONS_SQL, [
    address,
    programAddress,
  ]);
  if (facts!.blocked) return 'blocked';
  if (facts!.deferred || !caughtUpSince(facts!.caught_up_at, now)) return 'not_indexed';
  return facts!.primary_ended ? 'primary_not_owned' : 'no_tag';
}

function caughtUpSince(caughtUpAt: Date | string | null, now: Date): boolean {
  if (caughtUpAt === null) return false;
  return now.getTime() - new Date(caughtUpAt).getTime() <= MIRROR_CURRENT_WITHIN_MS;
}
