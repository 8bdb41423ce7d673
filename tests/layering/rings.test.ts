import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

// docs/decisions/rings.md: the rings of lib/ are the rules of .dependency-cruiser.cjs, run by
// `npm run lint`. The fixture is a three-file lib/ whose bottom ring imports a feature; the same
// rules must refuse that import and only that one (the feature importing the bottom ring is the
// control).
const ROOT = process.cwd();
const work = mkdtempSync(path.join(tmpdir(), 'rings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cruise(tree: string) {
  const dir = path.join(work, tree);
  cpSync(path.join(ROOT, 'tests/fixtures/upward-import'), dir, { recursive: true });
  cpSync(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } }),
  );
  return {
    dir,
    run: () =>
      spawnSync(
        path.join(ROOT, 'node_modules/.bin/depcruise'),
        ['lib', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
        { cwd: dir, encoding: 'utf8' },
      ),
  };
}

it('an upward import (lib/core → lib/features) fails the layer check, naming the rule and the files', () => {
  const { run } = cruise('upward');
  const result = run();
  const output = result.stdout + result.stderr;
  expect(result.status, output).not.toBe(0);
  expect(output).toMatch(/error core-is-the-bottom-ring: lib\/core\/tag-rule\.ts → lib\/features\/identity\/note\.ts/);
  expect(output).toMatch(/1 dependency violations/);
}, 60_000);

it('the same tree without the upward import passes (the control)', () => {
  const { dir, run } = cruise('downward');
  writeFileSync(path.join(dir, 'lib/core/tag-rule.ts'), 'export const tagRule = (tag: string) => tag;\n');
  const result = run();
  expect(result.status, result.stdout + result.stderr).toBe(0);
}, 60_000);
