import 'server-only';
import type { ChainAndMirror, ClusterAccess } from '@/lib/chain/chain-and-mirror';
import type { Config } from '@/lib/core/config';
import type { PassName } from '@/lib/core/schedule';
import { logger } from '@/lib/observability/logger';
import { pruneNonces } from '@/lib/features/auth/nonce-store';
import { pruneRateLimits } from '@/lib/features/auth/rate-limit';
import { findPayments } from '@/lib/features/payments/find-payments';
import { pruneExpiredReferences } from '@/lib/features/payments/expiry';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { deliverWebhooks } from '@/lib/features/webhooks/deliver';
import { MAX_TRANSACTIONS_PER_RUN, runIndexer } from '@/lib/features/indexer/run-indexer';

/*
 * What each scheduled pass does; which route runs it and how often is lib/core/schedule.ts.
 */

export type PassConfig = Pick<Config, 'solana' | 'indexerPageSize' | 'webhooks' | 'actionIdentitySecret'>;

export interface PassContext extends ChainAndMirror, ClusterAccess {
  config: PassConfig;
  now: Date;
}

/** One pass: what it does, and whether its failure fails its route (else it is logged and reads as null). */
interface ScheduledPass {
  run: (context: PassContext) => Promise<unknown>;
  failsTheRoute: boolean;
  /** Runs once the route's other passes are done (housekeeping never delays identities). */
  last: boolean;
  /** Its field in a route's answer; null: its fields are the answer's own (the indexer run's). */
  answerKey: string | null;
}

export const SCHEDULED_PASSES = {
  index: {
    run: ({ db, rpc, programAddress, transport, rpcUrl, config, now }) =>
      runIndexer({
        db,
        rpc,
        programAddress,
        transport,
        rpcUrl,
        maxTransactions: MAX_TRANSACTIONS_PER_RUN,
        pageSize: config.indexerPageSize,
        now,
      }),
    failsTheRoute: true,
    last: false,
    answerKey: null,
  },
  findPayments: {
    run: ({ db, rpc, transport, config, now }) =>
      findPayments({
        db,
        cluster: { rpc, transport },
        now,
        identity: serviceIdentity(config.actionIdentitySecret).address,
      }).then(({ changed: _changed, ...counts }) => counts),
    failsTheRoute: false,
    last: false,
    answerKey: 'payments',
  },
  deliverWebhooks: {
    // The delivery clock is the wall clock: a pass may run long, and each delivery is timed.
    run: ({ db, config }) => deliverWebhooks({ db, config: config.webhooks, clock: () => new Date() }),
    failsTheRoute: false,
    last: false,
    answerKey: 'webhooks',
  },
  pruneNonces: {
    run: ({ db, now }) => pruneNonces(db, now),
    failsTheRoute: true,
    last: true,
    answerKey: 'prunedNonces',
  },
  pruneRateLimits: {
    run: ({ db, now }) => pruneRateLimits(db, now),
    failsTheRoute: true,
    last: true,
    answerKey: 'prunedRateLimits',
  },
  pruneExpiredReferences: {
    run: ({ db, now }) => pruneExpiredReferences(db, now),
    failsTheRoute: true,
    last: true,
    answerKey: 'prunedReferences',
  },
} satisfies Record<PassName, ScheduledPass>;

/** What each pass of a run answered, by name; a soft pass that failed reads as null. */
export type PassResults = Partial<Record<PassName, unknown>>;

async function runPass(name: PassName, context: PassContext): Promise<unknown> {
  const pass: ScheduledPass = SCHEDULED_PASSES[name];
  try {
    return await pass.run(context);
  } catch (err) {
    if (pass.failsTheRoute) throw err;
    logger.warn({ err, pass: name }, 'scheduled pass failed');
    return null;
  }
}

/** Runs `passes`: side by side, then the `last` ones; the first failure of a pass that fails the route is thrown. */
export async function runPasses(passes: readonly PassName[], context: PassContext): Promise<PassResults> {
  const results: PassResults = {};
  for (const last of [false, true]) {
    const now = passes.filter((name) => SCHEDULED_PASSES[name].last === last);
    const settled = await Promise.allSettled(now.map((name) => runPass(name, context)));
    for (const [i, outcome] of settled.entries()) {
      if (outcome.status === 'rejected') throw outcome.reason;
      results[now[i]!] = outcome.value;
    }
  }
  return results;
}

/**
 * A route's answer: a route of one pass answers that pass's summary; the indexer's route answers
 * the run's summary with the other passes' beside it under their `answerKey`.
 */
export function routeAnswer(passes: readonly PassName[], results: PassResults): unknown {
  if (passes.length === 1) return results[passes[0]!];
  const answer: Record<string, unknown> = {};
  for (const name of passes) {
    const key = (SCHEDULED_PASSES[name] as ScheduledPass).answerKey;
    if (key === null) Object.assign(answer, results[name]);
    else answer[key] = results[name];
  }
  return answer;
}
