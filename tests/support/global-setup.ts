import type { TestProject } from 'vitest/node';
import { startStack } from '@/devstack/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    rpcUrl: string;
    appUrl: string;
  }
}

/**
 * One real PostgreSQL, one localnet and one production app for the whole run. Without a
 * production build it throws, naming the missing build: a run that cannot test the app
 * fails instead of passing with the HTTP contract untested.
 */
export default async function setup(project: TestProject) {
  const stack = await startStack({
    // As if behind one proxy: tests tell clients apart by the X-Forwarded-For entry it would
    // append (tests/support/http.ts clientHeaders). Direct mode, the default of `npm start`,
    // is tested on apps of its own (tests/auth/client-address.test.ts).
    CLIENT_ADDRESS_SOURCE: 'proxy',
    TRUSTED_PROXY_HOPS: '1',
    AUTH_RATE_LIMIT: '1000000',
    SYNC_RATE_LIMIT: '1000000',
    AVAILABILITY_RATE_LIMIT: '1000000',
    PROFILE_RATE_LIMIT: '1000000',
    PROFILE_ADDRESS_RATE_LIMIT: '1000000',
    FEED_RATE_LIMIT: '1000000',
    BATCH_RATE_LIMIT: '1000000',
    ACTION_RATE_LIMIT: '1000000',
  });
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('rpcUrl', stack.rpcUrl);
  project.provide('appUrl', stack.appUrl);
  return () => stack.stop();
}
