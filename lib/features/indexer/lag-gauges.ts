import { clusterAccess } from '@/lib/chain/chain-and-mirror';
import type { Config } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { readIndexerLagWith } from '@/lib/observability/metrics';
import { readIndexerStatus } from './status';

/** Longest a collection of the metrics waits for the lag (a scrape must not hang on the cluster). */
const LAG_DEADLINE_MS = 2000;

/**
 * The indexer's lag gauges (indexer_lag_slots, indexer_lag_seconds, indexer_deferred) are read
 * from the status when metrics are collected, not kept between runs: every instance reports
 * the same figures, whichever ran the indexer.
 */
export function watchIndexerLag({ db, config }: { db: Db; config: Config }): void {
  readIndexerLagWith(async () => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), LAG_DEADLINE_MS)));
    try {
      const status = await Promise.race([readIndexerStatus({ db, ...clusterAccess(config) }, false), deadline]);
      if (!status?.lag) return null;
      return { slots: status.lag.slots, seconds: status.lag.seconds, deferred: status.deferred.count };
    } finally {
      clearTimeout(timer);
    }
  });
}
