import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/**
 * `next build` of a one-page fixture app under tests/fixtures (its output in a folder of its
 * own, removed afterwards): the exit status and what it printed, colours stripped. It runs in
 * the fixture's folder, as `next build` runs in the app's: Next.js resolves the relative
 * imports of a next.config.ts from the working directory.
 */
export function buildFixture(name: string): { status: number | null; output: string } {
  const fixture = path.join(process.cwd(), 'tests/fixtures', name);
  const distDir = `.next-fixture-${process.pid}`;
  try {
    const run = spawnSync(process.execPath, [require.resolve('next/dist/bin/next'), 'build', fixture], {
      cwd: fixture,
      env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' },
      encoding: 'utf8',
      timeout: 240_000,
    });
    return { status: run.status, output: stripVTControlCharacters(`${run.stdout}${run.stderr}`) };
  } finally {
    rmSync(path.join(fixture, distDir), { recursive: true, force: true });
  }
}
