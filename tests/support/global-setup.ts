import type { TestProject } from 'vitest/node';
import { startStack } from '@/devstack/stack';
import { LIFTED_LOAD_BOUNDS, liftedRateLimits, SHARED_APP_BUCKETS } from '@/devstack/rate-limits';

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
    // Files share this app, and some send many requests from one client: the buckets they
    // spend are out of reach here; the limits themselves are tested on apps of their own.
    RATE_LIMITS: liftedRateLimits([...SHARED_APP_BUCKETS, 'actionMint', 'status']),
    ...LIFTED_LOAD_BOUNDS,
  });
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('rpcUrl', stack.rpcUrl);
  project.provide('appUrl', stack.appUrl);
  return () => stack.stop();
}
