import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

// STYLE.md "Lessons": every module touching the database, secrets or the session says
// `import 'server-only'`, so a client component importing one fails the build instead of
// shipping it. The fixture is a one-page app whose client component imports lib/db; a real
// `next build` of it (about 10 s with Turbopack) must stop on the marker.
const fixture = path.join(process.cwd(), 'tests/fixtures/client-imports-db');
const distDir = `.next-fixture-${process.pid}`;

afterAll(() => rmSync(path.join(fixture, distDir), { recursive: true, force: true }));

it('next build fails when a client component imports lib/db, naming server-only', () => {
  const run = spawnSync(process.execPath, [require.resolve('next/dist/bin/next'), 'build', fixture], {
    env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
    timeout: 240_000,
  });
  // eslint-disable-next-line no-control-regex
  const output = `${run.stdout}${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  expect(run.status, output.slice(-2000)).not.toBe(0);
  expect(output).toMatch(/'server-only' cannot be imported from a Client Component module/);
  expect(output).toMatch(/\.\/lib\/db\/(client|index)\.ts:1:1\nError: 'server-only' cannot be imported from a Client Component module/);
}, 300_000);
