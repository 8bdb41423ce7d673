import { expect, it } from 'vitest';
import { buildFixture } from '../support/next-build';

// STYLE.md "Lessons": every module touching the database, secrets or the session says
// `import 'server-only'`, so a client component importing one fails the build instead of
// shipping it. The fixture is a one-page app whose client component imports lib/db; a real
// `next build` of it (about 10 s with Turbopack) must stop on the marker.
it('next build fails when a client component imports lib/db, naming server-only', () => {
  const { status, output } = buildFixture('client-imports-db');
  expect(status, output.slice(-2000)).not.toBe(0);
  expect(output).toMatch(/'server-only' cannot be imported from a Client Component module/);
  expect(output).toMatch(
    /\.\/lib\/db\/(client|index)\.ts:1:1\nError: 'server-only' cannot be imported from a Client Component module/,
  );
}, 300_000);
