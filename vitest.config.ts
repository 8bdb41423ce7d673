import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { LIFTED_LOAD_BOUNDS } from './devstack/rate-limits';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // Tests are not a client bundle: the server-only marker is a no-op here, as it is in
      // Next's server layers (tests/layering/bundle-boundaries.test.ts checks the client side).
      'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)),
    },
  },
  test: {
    include: ['tests/**/*.test.ts', 'lib/**/*.test.ts', 'program/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every app a test starts inherits this: the per-process bounds that follow the machine's load
    // (the event loop's, heavy bytes a second) would shed a busy test app's feed pages at random.
    // Tests of those bounds set them (tests/api/load-shedding.test.ts, feed-shedding.test.ts).
    env: { ...LIFTED_LOAD_BOUNDS },
    pool: 'forks',
    // A worker runs its files one after another in one module graph: each file no longer pays
    // for importing the app, kit, drizzle and Next's server afresh (imports were
    // 256 s of a 416 s run, about 2 s a file; the whole run went to about 300 s). Files keep
    // their state in their own databases and apps; the process-wide stores are keyed by the
    // database handle they cache for.
    isolate: false,
    // Most test time is spent waiting on the app, PostgreSQL and the localnet, not on this
    // process's CPU: three files at a time on two cores (Vitest's default would be one).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
  },
});
