import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests: Debian's Chromium against the production build, with a real PostgreSQL, a
 * localnet and an injected Wallet Standard test wallet (e2e/support). The app's address is
 * known only once e2e/support/global-setup.ts has started it, so the tests read it from
 * E2E_APP_URL through the `baseURL` fixture (e2e/support/fixtures.ts).
 */
export default defineConfig({
  testDir: 'e2e',
  // `npm run screenshots` runs the screenshot tours (e2e/*.tour.ts), which compare nothing and
  // so are not part of `npm test`: they write e2e/artifacts/ for a person to look at.
  testMatch: process.env.E2E_TOURS ? '*.tour.ts' : '*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './e2e/support/global-setup.ts',
  // Two spec files at a time, each file's tests in order: the specs share the one app, database
  // and localnet but no state (each signs in with keys of its own, registers tags of its own
  // (uniqueTag), and the buckets they all spend are lifted: e2e/support/stack.ts).
  fullyParallel: false,
  workers: Number(process.env.PLAYWRIGHT_WORKERS ?? 2),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    screenshot: 'only-on-failure',
    // A failed test keeps its trace with DOM snapshots (enough to step through it) but no
    // screencast: recording frames for every test, passing or not, cost Chromium's GPU and
    // browser processes about 24 of their 198 CPU-seconds a run (measured 2026-11-28).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
