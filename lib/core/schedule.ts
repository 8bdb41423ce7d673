import type { Config } from './config';

/*
 * Every scheduled pass of the service and its cadence, declared once (STYLE.md, "Declare
 * scheduled work next to its cadence"). A cron route runs its passes (what each pass does:
 * lib/features/schedule/passes.ts). Vercel calls a route on its `vercelSchedule` (vercel.json,
 * held to this table by tests/schedule/cron-table.test.ts); `npm start` every `intervalSeconds`
 * (scripts/serve.ts); `npm run indexer -- pass <name>` runs one pass from the command line. So
 * when a webhook retry really fires is read here: at the webhooks route's interval under
 * `npm start`, at the indexer route's schedule on Vercel.
 */

export const PASS_NAMES = ['index', 'findPayments', 'deliverWebhooks', 'pruneNonces', 'pruneRateLimits'] as const;
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
