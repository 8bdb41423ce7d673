import { pruneNonces } from '@/lib/auth/nonce-store';
import { pruneRateLimits } from '@/lib/auth/rate-limit';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import type { Config } from '@/lib/config';
import { runIndexer, type IndexerSummary } from './run-indexer';

export interface CronSummary extends IndexerSummary {
  /** Expired sign-in challenges deleted. */
  prunedNonces: number;
  /** Rate-limit rows deleted (their bucket full again). */
  prunedRateLimits: number;
}

/**
 * GET /api/cron/indexer's work: one indexer run, then housekeeping (expired nonces, old
 * rate-limit windows). Pruning runs after the indexer, so a slow prune never delays identities.
 */
export async function runCronJob({
  db,
  connection,
  programId,
  config,
  now,
}: ChainAndMirror & {
  config: Pick<Config, 'indexer'>;
  now: Date;
}): Promise<CronSummary> {
  const summary = await runIndexer({
    db,
    connection,
    programId,
    maxTransactions: config.indexer.maxTransactions,
    pageSize: config.indexer.pageSize,
    now,
  });
  const prunedNonces = await pruneNonces(db, now);
  const prunedRateLimits = await pruneRateLimits(db, now);
  return { ...summary, prunedNonces, prunedRateLimits };
}
