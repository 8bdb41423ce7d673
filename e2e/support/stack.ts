import { startStack, type Stack } from '@/devstack/stack';
import { liftedRateLimits, SHARED_APP_BUCKETS } from '@/devstack/rate-limits';

/**
 * What the browser tests run against: the shared stack (PostgreSQL, a localnet with the
 * program, the production build), on localnet, with no background indexer.
 */
export function startE2eStack(): Promise<Stack> {
  return startStack({
    SOLANA_CLUSTER: 'localnet',
    // Every test signs in and registers from the same address.
    RATE_LIMITS: liftedRateLimits([...SHARED_APP_BUCKETS, 'register']),
    INDEXER_INTERVAL_SECONDS: '0',
  });
}
