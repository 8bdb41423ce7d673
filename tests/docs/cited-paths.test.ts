// Every repository path that code or documentation cites exists: a comment or a page pointing a
// reader at a file that was moved or never written (docs/multi-instance.md was cited four times
// and did not exist) is a lie a newcomer pays for. A path is checked from the repository's root
// and, for a page, from its own folder too (program/README.md cites `tests/…` of program/).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TOP_FOLDERS = [
  'app',
  'bench',
  'components',
  'devstack',
  'docs',
  'drizzle',
  'e2e',
  'lib',
  'localnet',
  'packages',
  'program',
  'public',
  'scripts',
  'tests',
];

/** Citations that name no file on purpose, each with why. */
const NOT_FILES = new Set([
  'app/v1/widgets/[tag]/route.ts', // lib/README.md's example of adding a route
  'lib/core/tag-rule.ts', // tests/layering/rings.test.ts writes it into a fixture
  'bench/results/YYYY-MM-DD.md', // the pattern of the results' names
  'localnet/devnet', // prose: "localnet/devnet" as a choice
  'localnet/test-only', // prose
  'e2e/artifacts/', // written by Playwright, ignored by git
  'program/build', // written by the program's build, ignored by git
]);

/** Generated or historical text (its citations are its generator's, or of their day), and tests whose examples name files that need not exist. */
const UNCHECKED =
  /^(tests\/docs\/cited-paths\.test\.ts|tests\/layering\/house-rules\.test\.ts|package-lock\.json|drizzle\/meta\/|bench\/results\/|packages\/tag-registry\/src\/generated\/|packages\/client\/openapi\.json|packages\/client\/src\/schema\.d\.ts)/;

const CITATION = new RegExp(
  `(?<![\\w./@-])((?:${TOP_FOLDERS.join('|')})/[A-Za-z0-9_./\\-]*(?:\\[[A-Za-z0-9_.]+\\][A-Za-z0-9_./\\-]*)*)`,
  'g',
);

function trackedTextFiles(): string[] {
  return execFileSync('git', ['ls-files'], { encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.(ts|tsx|mjs|cjs|js|md|sh|h|c|json|yml)$/.test(file) && !UNCHECKED.test(file));
}

/** The paths `text` cites (trailing punctuation dropped), except those followed by a pattern's `*`, `<` or `{`. */
export function citedPaths(text: string): string[] {
  const cited: string[] = [];
  for (const match of text.matchAll(CITATION)) {
    const next = text[match.index + match[0].length] ?? '';
    if (/[*<{$]/.test(next)) continue;
    const cited_ = match[1]!.replace(/[.,:;]+$/, '');
    if (cited_.endsWith('/') && cited_.split('/').length === 2) continue; // a bare top folder
    cited.push(cited_);
  }
  return cited;
}

function exists(citing: string, cited: string): boolean {
  const bare = cited.replace(/#.*$/, '');
  return existsSync(bare) || existsSync(path.join(path.dirname(citing), bare)) || prefixOfAFile(bare);
}

/** `drizzle/0012` names the migration whose file starts so. */
function prefixOfAFile(cited: string): boolean {
  const dir = path.dirname(cited);
  if (!existsSync(dir)) return false;
  return execFileSync('ls', [dir], { encoding: 'utf8' })
    .split('\n')
    .some((name) => name.length > 0 && path.join(dir, name).startsWith(cited) && /^\d/.test(path.basename(cited)));
}

describe('paths cited in code and documentation', () => {
  it('exist', () => {
    const missing = trackedTextFiles().flatMap((file) =>
      citedPaths(readFileSync(file, 'utf8'))
        .filter((cited) => !NOT_FILES.has(cited) && !exists(file, cited))
        .map((cited) => `${file} cites ${cited}`),
    );
    expect(missing).toEqual([]);
  });

  it('the check can fail: a citation of a file that is not there is found', () => {
    const cited = citedPaths('see docs/multi-instance.md, and lib/core/errors.ts.');
    expect(cited).toEqual(['docs/multi-instance.md', 'lib/core/errors.ts']);
    expect(cited.filter((c) => !exists('README.md', c))).toEqual(['docs/multi-instance.md']);
  });
});
