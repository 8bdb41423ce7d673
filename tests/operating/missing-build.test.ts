import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A run that cannot reach the built app must fail, never pass with the HTTP contract
 * untested. This starts a second `vitest run` whose NEXT_DIST_DIR is an empty folder: its
 * global setup throws before any test file is collected, so it cannot recurse into this file
 * (the filter names another, cheap file anyway).
 */
describe('vitest without a production build', () => {
  it('fails, naming the missing build and how to make it', () => {
    const emptyBuild = mkdtempSync(path.join(tmpdir(), 'no-build-'));
    try {
      const run = spawnSync(
        process.execPath,
        ['node_modules/vitest/vitest.mjs', 'run', 'tests/chain/json-rpc.test.ts'],
        {
          env: { ...process.env, NEXT_DIST_DIR: emptyBuild, NO_COLOR: '1', FORCE_COLOR: '0' },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(run.status).toBe(1);
      const output = run.stdout + run.stderr;
      expect(output).toContain(`No production build in ${emptyBuild}/ (${emptyBuild}/BUILD_ID is missing)`);
      expect(output).toContain('Run `npm run build` first');
    } finally {
      rmSync(emptyBuild, { recursive: true, force: true });
    }
  });
});
