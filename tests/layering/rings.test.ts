import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise as runCruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, expect, it } from 'vitest';

// docs/decisions/rings.md: the rings of lib/ are the rules of .dependency-cruiser.cjs, run by
// `npm run lint`. The fixture is a three-file lib/ whose bottom ring imports a feature; the same
// rules must refuse that import and only that one (the feature importing the bottom ring is the
// control). dependency-cruiser runs in this process through its API, as its CLI would run it
// (`depcruise lib --config .dependency-cruiser.cjs --output-type err` in the tree's folder).
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
    /** The err reporter's text and the exit status the CLI would end with (the count of errors). */
    run: async () => {
      const options = await extractDepcruiseOptions(path.join(dir, '.dependency-cruiser.cjs'));
      const tsConfig = extractTSConfig(path.join(dir, 'tsconfig.json'));
      const result = await runCruise(['lib'], { ...options, outputType: 'err', baseDir: dir }, {}, { tsConfig });
      return { status: result.exitCode, output: String(result.output) };
    },
  };
}

it('an upward import (lib/core → lib/features) fails the layer check, naming the rule and the files', async () => {
  const { run } = cruise('upward');
  const { status, output } = await run();
  expect(status, output).not.toBe(0);
  expect(output).toMatch(/error core-is-the-bottom-ring: lib\/core\/tag-rule\.ts → lib\/features\/identity\/note\.ts/);
  expect(output).toMatch(/1 dependency violations/);
}, 60_000);

it('the same tree without the upward import passes (the control)', async () => {
  const { dir, run } = cruise('downward');
  writeFileSync(path.join(dir, 'lib/core/tag-rule.ts'), 'export const tagRule = (tag: string) => tag;\n');
  const { status, output } = await run();
  expect(status, output).toBe(0);
}, 60_000);
