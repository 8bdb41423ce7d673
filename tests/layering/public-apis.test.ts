import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The service builds on the public APIs of its framework and runtime only: a module under
 * `next/dist/` is Next.js's internals, which any release may move, and a global that one file
 * patches changes what every other module (and the framework) gets. Either breaks silently on an
 * upgrade, so neither is written anywhere in the project's sources: app, lib, scripts, bench,
 * tests alike. (Running Next.js's binary, `node_modules/next/dist/bin/next`, is not an import.)
 */

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** Not the project's sources: installed, built or generated. */
const NOT_SOURCE =
  /^(node_modules|\.git|\.next.*|\.data|test-results|playwright-report)$|^(program\/build|e2e\/artifacts)(\/|$)/;

function sourceFiles(dir = '.'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    const relative = path.posix.relative('.', file);
    if (NOT_SOURCE.test(relative)) return [];
    if (entry.isDirectory()) return sourceFiles(file);
    return SOURCE.test(entry.name) ? [relative] : [];
  });
}

/** A static import (with or without bindings), a dynamic `import()` or a `require` of a path under next/dist/. */
const NEXT_INTERNALS = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"`]next\/dist\//;
/**
 * An assignment (`=`, `??=`, `||=`, `&&=`) to a named property of the global object, through
 * `globalThis` or `global`, cast or not, by dot or by a quoted key; or `Object.defineProperty`,
 * `Object.defineProperties` or `Object.assign` on it. (A value kept under a symbol of ours is no
 * patch: nothing else reads it.)
 */
const GLOBAL_PATCH =
  /\b(?:globalThis|global)\b(?:\s+as\s+[^)]*\))?\s*(?:\.\s*[A-Za-z_$][\w$]*|\[\s*['"`][^'"`]*['"`]\s*\])\s*(?:[|&?]{2})?=(?!=)|\bObject\.(?:defineProperty|defineProperties|assign)\(\s*(?:globalThis|global)\b/;

/** Each line of `text` that `pattern` finds, as `file:line: text`. */
function findings(file: string, text: string, pattern: RegExp): string[] {
  return text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('public APIs only', () => {
  const files = sourceFiles();
  const texts = files.map((file) => [file, readFileSync(file, 'utf8')] as const);

  it('the scan reads the whole project, the request wrapper and this test among it', () => {
    expect(files.length).toBeGreaterThan(400);
    for (const dir of [
      'app/',
      'lib/',
      'scripts/',
      'bench/',
      'tests/',
      'e2e/',
      'localnet/',
      'program/',
      'devstack/',
      'packages/',
    ]) {
      expect(
        files.some((file) => file.startsWith(dir)),
        dir,
      ).toBe(true);
    }
    expect(files).toContain('lib/observability/request-context.ts');
    expect(files).toContain('tests/layering/public-apis.test.ts');
    expect(files.some((file) => file.startsWith('node_modules/') || file.startsWith('.next/'))).toBe(false);
  });

  it('no source file imports a module of next/dist/ (Next.js internals)', () => {
    expect(texts.flatMap(([file, text]) => findings(file, text, NEXT_INTERNALS))).toEqual([]);
  });

  it('no source file assigns a property of the global object', () => {
    expect(texts.flatMap(([file, text]) => findings(file, text, GLOBAL_PATCH))).toEqual([]);
  });

  // The controls: what each scan must find, and what it must let pass. The strings are built in
  // pieces so that this file does not itself hold what it looks for.
  const dist = 'next/' + 'dist/server/app-render/work-async-storage.external';
  const globalObject = 'global' + 'This';
  const nodeGlobal = 'glo' + 'bal';

  it('finds an import of Next.js internals, written any way, and passes public imports and running its binary', () => {
    const found = [
      `import { workAsyncStorage } from '${dist}';`,
      `import type { WorkStore } from "${dist}";`,
      `import '${dist}';`,
      `await import('${dist}');`,
      `const { x } = require('${dist}');`,
    ];
    for (const line of found) expect(findings('f.ts', line, NEXT_INTERNALS), line).toHaveLength(1);
    const passed = [
      "import { after } from 'next/server';",
      "import { headers } from 'next/headers';",
      "spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'start']);",
      "const distDir = 'next/dist';",
    ];
    for (const line of passed) expect(findings('f.ts', line, NEXT_INTERNALS), line).toEqual([]);
  });

  it('finds a global patched, written any way, and passes reading globals and keeping a value under a symbol of ours', () => {
    const found = [
      `(${globalObject} as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;`,
      `${globalObject}.fetch = myFetch;`,
      `${globalObject}['crypto'] = webcrypto;`,
      `${globalObject}.cache ||= new Map();`,
      `${nodeGlobal}.Date = FakeDate;`,
      `Object.defineProperty(${globalObject}, 'navigator', { value: {} });`,
      `Object.assign(${globalObject}, { WebSocket });`,
    ];
    for (const line of found) expect(findings('f.ts', line, GLOBAL_PATCH), line).toHaveLength(1);
    const passed = [
      `const res = await ${globalObject}.fetch(url);`,
      `if (${globalObject}.window === undefined) return;`,
      `function f(): typeof ${globalObject}.fetch {`,
      `const holder = ${globalObject} as unknown as Record<symbol, Logs | undefined>;`,
    ];
    for (const line of passed) expect(findings('f.ts', line, GLOBAL_PATCH), line).toEqual([]);
  });
});
