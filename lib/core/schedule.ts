import type { Config } from './config';

/*
 * Every scheduled pass of the service and its cadence, declared once (STYLE.md, "Declare
 * scheduled work next to its cadence"). A cron route runs its passes (what each pass does:
 * lib/features/schedule/passes.ts). Vercel calls a route on its `vercelSchedule` (vercel.json,
 * held to this table by tests/schedule/cron-table.test.ts); `npm start` every `intervalSeconds`
 * (scripts/serve.ts); `npm run indexer -- pass <name>` runs one pass from the command line. So
 * when a webhook retry really fires is read here: after its backoff (below), at the next call of
 * the webhooks route under `npm start`, of the indexer route on Vercel.
 */

export const PASS_NAMES = [
  'index',
  'findPayments',
  'deliverWebhooks',
  'pruneNonces',
  'pruneRateLimits',
  'pruneExpiredReferences',
] as const;
export type PassName = (typeof PASS_NAMES)[number];

/** A cron route: the passes it runs and how often. */
export interface CronRoute {
  path: `/api/cron/${string}`;
  passes: readonly PassName[];
  /** Vercel's schedule of the route (its finest is once a minute); null: not called on Vercel. */
  vercelSchedule: string | null;
  /** `npm start`'s interval for the route, in seconds (0: not called). */
  intervalSeconds: (config: Pick<Config, 'indexerIntervalSeconds' | 'webhookIntervalSeconds'>) => number;
}

export const CRON_ROUTES = [
  {
    // Vercel's Hobby plan runs one cron a day at most and Pro once a minute: this route runs every
    // pass, so on Vercel a webhook retry fires at most once a minute; under `npm start` the
    // webhooks route below runs every WEBHOOK_INTERVAL_SECONDS.
    path: '/api/cron/indexer',
    passes: PASS_NAMES,
    vercelSchedule: '* * * * *',
    intervalSeconds: (config) => config.indexerIntervalSeconds,
  },
  {
    path: '/api/cron/webhooks',
    passes: ['deliverWebhooks'],
    vercelSchedule: null,
    intervalSeconds: (config) => config.webhookIntervalSeconds,
  },
] as const satisfies readonly CronRoute[];

export type CronPath = (typeof CRON_ROUTES)[number]['path'];

/** The route declared at `path`. */
export function cronRoute(path: CronPath): CronRoute {
  return CRON_ROUTES.find((route) => route.path === path)!;
}

/*
 * The webhook delivery pass's retry policy (DESIGN.md "Webhooks"): a failed delivery is tried
 * again after an exponential backoff, from RETRY_BASE_MS up to MAX_RETRY_DELAY_MS, at the first
 * pass after that; a subscription failing GIVE_UP_AFTER_MS is disabled
 * (lib/features/webhooks/retry-policy.ts writes it).
 */

/** The first retry comes this long after a failure; each next one waits twice as long… */
export const RETRY_BASE_MS = 5_000;
/** …up to this. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** A subscription failing this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** The delay before retry number `failures` (1: the first retry). */
export function retryDelayMs(failures: number, baseMs = RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.min(failures - 1, 30), MAX_RETRY_DELAY_MS);
}
