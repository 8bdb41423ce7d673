import type { RateLimitBucketName } from '@/lib/core/rate-limit-buckets';

type Override = number | { limit: number; windowSeconds: number };

/**
 * RATE_LIMITS' text for some buckets (lib/core/config.ts): a limit, or a limit and a window. Bucket
 * names are checked by the compiler, so a renamed bucket fails the build of the tests too.
 */
export function rateLimitsSetting(overrides: Partial<Record<RateLimitBucketName, Override>>): string {
  return Object.entries(overrides)
    .map(([name, o]) => (typeof o === 'number' ? `${name}=${o}` : `${name}=${o!.limit}/${o!.windowSeconds}`))
    .join(',');
}

/** RATE_LIMITS lifting these buckets out of reach: many requests from one address, as a shared stack or a load generator sends. */
export function liftedRateLimits(buckets: RateLimitBucketName[], limit = 1_000_000): string {
  return rateLimitsSetting(Object.fromEntries(buckets.map((name) => [name, limit])));
}

/**
 * The buckets every shared app lifts (the test suite's, the browser tests', the benchmarks'):
 * one address signs in, syncs, reads and acts there many times over. Each adds its own.
 */
export const SHARED_APP_BUCKETS: RateLimitBucketName[] = [
  'auth',
  'sync',
  'availability',
  'profile',
  'profileKey',
  'feed',
  'batch',
  'action',
];

/**
 * The per-process bounds on heavy work (lib/http/heavy-work.ts) lifted out of reach, beside the
 * concurrency bound: a shared test app serves many files at once, and a benchmark that measures
 * the feed's throughput is not measuring the shedding. Tested on apps and bounds of their own.
 */
export const LIFTED_LOAD_BOUNDS = {
  HEAVY_WORK_MAX_EVENT_LOOP_UTILIZATION: '1',
  HEAVY_WORK_BYTES_PER_SECOND: '0',
} as const;
