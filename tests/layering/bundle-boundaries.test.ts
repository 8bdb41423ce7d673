import { expect, it } from 'vitest';
import { browserBuildRules } from '@/lib/web/browser-build-rules';
import nextConfig from '@/next.config';
import { buildFixture } from '../support/next-build';

// lib/README.md "Layers": browser code (lib/web/browser/, whatever a 'use client' component
// imports) never reaches a Node.js built-in or a server module. Turbopack would polyfill
// `node:crypto` for the browser and build; the rule in lib/web/browser-build-rules.ts stops it.
// The fixture's client component imports two browser modules: one imports node:crypto, the
// other lib/web/server/html.ts; its page, a server component, imports lib/web/browser/format.ts.
// A real `next build` must fail on all three, naming each.
it('next build fails when browser code imports a node: built-in or a server module, or server code a browser module', () => {
  const { status, output } = buildFixture('browser-imports-node');
  expect(status, output.slice(-3000)).not.toBe(0);
  expect(output).toMatch(
    /browser-imports-node\/app\/leaky-digest\.ts imports node:crypto, a Node\.js built-in, and is part of the browser's bundle .*Browser code cannot use Node\.js built-ins/,
  );
  expect(output).toMatch(
    /\.\/lib\/web\/server\/html\.ts:1:1\nError: 'server-only' cannot be imported from a Client Component module/,
  );
  expect(output).toMatch(
    /\.\/lib\/web\/server\/html\.ts \[Client Component Browser\]\n\s+\.\/tests\/fixtures\/browser-imports-node\/app\/leaky-markup\.ts \[Client Component Browser\]/,
  );
  expect(output).toMatch(
    /\.\/lib\/web\/browser\/format\.ts:1:1\nError: 'client-only' cannot be imported from a Server Component module/,
  );
  expect(output).toMatch(
    /Server Component:\n\s+\.\/lib\/web\/browser\/format\.ts\n\s+\.\/tests\/fixtures\/browser-imports-node\/app\/page\.tsx/,
  );
}, 300_000);

it("the app's next.config.ts builds with the same rule", () => {
  expect(nextConfig.turbopack?.rules).toEqual(browserBuildRules(process.cwd()));
});
