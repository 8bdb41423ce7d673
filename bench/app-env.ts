/** The app's environment in every benchmark: rate limits no load generator reaches. */
export const BENCH_APP_ENV = {
  AUTH_RATE_LIMIT: '100000000',
  SYNC_RATE_LIMIT: '100000000',
  REGISTER_RATE_LIMIT: '100000000',
  AVAILABILITY_RATE_LIMIT: '100000000',
} as const;
