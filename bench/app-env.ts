import { LIFTED_LOAD_BOUNDS, liftedRateLimits, SHARED_APP_BUCKETS } from '@/devstack/rate-limits';

/** The app's environment in every benchmark: rate limits and load bounds no load generator reaches (the starvation bench keeps its own). */
export const BENCH_APP_ENV = {
  ...LIFTED_LOAD_BOUNDS,
  RATE_LIMITS: liftedRateLimits([...SHARED_APP_BUCKETS, 'register', 'actionMint', 'status'], 100_000_000),
} as const;
