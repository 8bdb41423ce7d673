import { startStack, type Stack } from '@/devstack/stack';

/**
 * What the browser tests run against: the shared stack (PostgreSQL, a localnet with the
 * program, the production build), on localnet, with no background indexer.
 */
export function startE2eStack(): Promise<Stack> {
  return startStack({
    SOLANA_CLUSTER: 'localnet',
    // Every test signs in and registers from the same address.
    AUTH_RATE_LIMIT: '1000000',
    SYNC_RATE_LIMIT: '1000000',
    REGISTER_RATE_LIMIT: '1000000',
    AVAILABILITY_RATE_LIMIT: '1000000',
    PROFILE_RATE_LIMIT: '1000000',
    PROFILE_ADDRESS_RATE_LIMIT: '1000000',
    FEED_RATE_LIMIT: '1000000',
    BATCH_RATE_LIMIT: '1000000',
    ACTION_RATE_LIMIT: '1000000',
    INDEXER_INTERVAL_SECONDS: '0',
  });
}
