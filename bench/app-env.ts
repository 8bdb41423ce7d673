import { liftedRateLimits, SHARED_APP_BUCKETS } from '@/devstack/rate-limits';

/** The app's environment in every benchmark: rate limits no load generator reaches. */
export const BENCH_APP_ENV = {
  RATE_LIMITS: liftedRateLimits([...SHARED_APP_BUCKETS, 'register', 'actionMint', 'status'], 100_000_000),
} as const;
