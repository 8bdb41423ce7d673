// GET /api/cron/indexer's handlers, bound to services by the caller: route.ts binds the
// process's own, tests/support/in-process.ts a test's own. The run itself is here too, so the
// path from the route to the mirror's one writer is route → run-indexer.ts → mirror-records.ts.
import { json, withApi } from '@/lib/http/handler';
import { getChain } from '@/lib/chain/rpc';
import { withCron } from '@/lib/http/cron-auth';
import { otherMethods } from '@/lib/http/other-methods';
import type { ServicesProvider } from '@/lib/http/services';
import { pruneNonces } from '@/lib/features/auth/nonce-store';
import { pruneRateLimits } from '@/lib/features/auth/rate-limit';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import type { Config } from '@/lib/core/config';
import { deliverWebhooks, type DeliverySummary } from '@/lib/features/webhooks/deliver';
import { findPayments, type FindPaymentsSummary } from '@/lib/features/payments/find-payments';
import { pruneExpiredReferences } from '@/lib/features/payments/expiry';
import { serviceIdentity } from '@/lib/features/integrations/pay-action-identity';
import { MAX_TRANSACTIONS_PER_RUN, runIndexer, type IndexerSummary } from '@/lib/features/indexer/run-indexer';

const ROUTE = '/api/cron/indexer';

interface CronSummary extends IndexerSummary {
  /** Expired sign-in challenges deleted. */
  prunedNonces: number;
  /** Rate-limit rows deleted (their bucket full again). */
  prunedRateLimits: number;
  /** Unpaid payment references deleted, a week after they expired. */
  prunedReferences: number;
  /** The webhook delivery pass; null when it could not run (the reason is logged). */
  webhooks: DeliverySummary | null;
  /** The payment finding pass; null when it could not run (the reason is logged). */
  payments: Omit<FindPaymentsSummary, 'changed'> | null;
}

/**
 * GET /api/cron/indexer's work: one indexer run, one webhook delivery pass and one payment
 * finding pass (lib/features/payments/find-payments.ts) side by side (a
 * slow cluster never holds up deliveries of the changes already in the feed; what this run
 * indexes goes out with the next pass), then housekeeping (expired nonces, old rate-limit
 * windows, unpaid payment references a week past their expiry). Pruning runs after the indexer, so a slow prune never delays identities.
 */
export async function runCronJob({
  db,
  connection,
  programId,
  config,
  now,
}: ChainAndMirror & {
  config: Pick<Config, 'indexerPageSize' | 'webhooks' | 'actionIdentitySecret'>;
  now: Date;
}): Promise<CronSummary> {
  const delivering = deliverWebhooks({ db, config: config.webhooks, clock: () => new Date() }).catch((err: unknown) => {
    console.warn('webhooks: delivery pass failed:', err instanceof Error ? err.message : err);
    return null;
  });
  const indexing = runIndexer({
    db,
    connection,
    programId,
    maxTransactions: MAX_TRANSACTIONS_PER_RUN,
    pageSize: config.indexerPageSize,
    now,
  });
  const identity = serviceIdentity(config.actionIdentitySecret).publicKey;
  const finding = findPayments({ db, connection, now, identity }).then(
    ({ changed: _changed, ...counts }) => counts,
    (err: unknown) => {
      console.warn('payments: finding pass failed:', err instanceof Error ? err.message : err);
      return null;
    },
  );
  const [indexed, webhooks, payments] = await Promise.all([
    indexing.then(
      (summary) => ({ summary }),
      (error: unknown) => ({ error }),
    ),
    delivering,
    finding,
  ]);
  if ('error' in indexed) throw indexed.error;
  const prunedNonces = await pruneNonces(db, now);
  const prunedRateLimits = await pruneRateLimits(db, now);
  const prunedReferences = await pruneExpiredReferences(db, now);
  return { ...indexed.summary, prunedNonces, prunedRateLimits, prunedReferences, webhooks, payments };
}

export function cronIndexerHandlers(provide: ServicesProvider) {
  const GET = withApi(
    withCron(async (_req, { services: { db, config } }) => {
      const { connection, programId } = getChain(config);
      return json(await runCronJob({ db, connection, programId, config, now: new Date() }));
    }),
    ROUTE,
    provide,
  );
  return { GET, ...otherMethods(ROUTE, ['GET']) };
}
