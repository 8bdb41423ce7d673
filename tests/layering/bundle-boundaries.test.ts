import { beforeAll, describe, expect, it } from 'vitest';
import { browserBuildRules } from '@/lib/web/browser-build-rules';
import nextConfig from '@/next.config';
import { buildFixture } from '../support/next-build';

/*
 * What `next build` must refuse, proven by one real build of one fixture app
 * (tests/fixtures/bundle-boundaries) that holds every mistake; each test names its own in the
 * build's output.
 * - lib/README.md "Layers": browser code (lib/web/browser/, whatever a 'use client' component
 *   imports) never reaches a Node.js built-in or a server module. Turbopack would polyfill
 *   `node:crypto` for the browser and build; the rule in lib/web/browser-build-rules.ts stops
 *   it. The fixture's DigestButton imports two browser modules: one imports node:crypto, the
 *   other lib/web/server/html.ts; its page, a server component, imports lib/web/browser/format.ts.
 * - STYLE.md "Lessons": every module touching the database, secrets or the session says
 *   `import 'server-only'`, so a client component importing one fails the build instead of
 *   shipping it. The fixture's LeakyButton imports lib/db.
 */

let build: { status: number | null; output: string };
beforeAll(() => {
  build = buildFixture('bundle-boundaries');
}, 300_000);

describe('next build of a fixture app', () => {
  it('fails when browser code imports a node: built-in or a server module, or server code a browser module', () => {
    const { status, output } = build;
    expect(status, output.slice(-3000)).not.toBe(0);
    expect(output).toMatch(
      /bundle-boundaries\/app\/leaky-digest\.ts imports node:crypto, a Node\.js built-in, and is part of the browser's bundle .*Browser code cannot use Node\.js built-ins/,
    );
    expect(output).toMatch(
      /\.\/lib\/web\/server\/html\.ts:1:1\nError: 'server-only' cannot be imported from a Client Component module/,
    );
    expect(output).toMatch(
      /\.\/lib\/web\/server\/html\.ts \[Client Component Browser\]\n\s+\.\/tests\/fixtures\/bundle-boundaries\/app\/leaky-markup\.ts \[Client Component Browser\]/,
    );
    expect(output).toMatch(
      /\.\/lib\/web\/browser\/format\.ts:1:1\nError: 'client-only' cannot be imported from a Server Component module/,
    );
    expect(output).toMatch(
      /Server Component:\n\s+\.\/lib\/web\/browser\/format\.ts\n\s+\.\/tests\/fixtures\/bundle-boundaries\/app\/page\.tsx/,
    );
  });

  it('fails when a client component imports lib/db, naming server-only', () => {
    const { status, output } = build;
    expect(status, output.slice(-2000)).not.toBe(0);
    expect(output).toMatch(/'server-only' cannot be imported from a Client Component module/);
    expect(output).toMatch(
      /\.\/lib\/db\/(client|index)\.ts:1:1\nError: 'server-only' cannot be imported from a Client Component module/,
    );
  });
});

it("the app's next.config.ts builds with the same rule", () => {
  expect(nextConfig.turbopack?.rules).toEqual(browserBuildRules(process.cwd()));
});
