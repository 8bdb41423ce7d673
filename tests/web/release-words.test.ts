import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RELEASE_HINT, REST_DAYS } from '@/lib/web/shared/release-words';

/*
 * Pages that tell the truth (issue 42 item 6): every user-facing string that speaks of a release,
 * rent or the deposit is read against the program's rules (program/README.md, "The resting
 * record" and "Where each lamport goes"): a released tag rests 30 days, only its previous owner
 * may register it in that time, and the deposit comes back only when that owner closes the record
 * after the rest. The strings are the literals and the JSX text of app/, components/ and lib/,
 * and the lines of docs/ and README.md.
 */

const REST_SECONDS = 2_592_000;

/** Files whose text a person reads: the source of pages, answers and messages, and the docs. */
function userFacingFiles(): string[] {
  const source = ['app', 'components', 'lib'].flatMap((dir) =>
    (readdirSync(dir, { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => path.join(dir, file)),
  );
  const docs = (readdirSync('docs', { recursive: true }) as string[])
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file));
  return [...source, ...docs, 'README.md'];
}

/** String literals and JSX text of a source file; each line of a Markdown file. */
function stringsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.md')) return text.split('\n');
  const literals = [...text.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);
  // Concatenated literals ('…' +\n '…') read as one sentence; so does JSX text between tags.
  const joined = text.replace(/['"`]\s*\+\s*\n\s*['"`]/g, '');
  const sentences = [...joined.matchAll(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);
  const jsx = [...text.matchAll(/>([^<>{}]*(?:\{[^{}]*\}[^<>{}]*)*)</g)].map((m) => m[1]!.replace(/\s+/g, ' '));
  return [...literals, ...sentences, ...jsx];
}

const SPEAKS_OF = /\brelease[sd]?\b|\breleasing\b|\brent\b|\bdeposit\b/i;

/** What the rules make false, each with why. */
const FALSE_CLAIMS: Array<[RegExp, string]> = [
  [
    /rent (comes|goes) back|rent (is )?(returned|refunded)/i,
    'the deposit comes back only when the record is closed after the rest',
  ],
  [/record (is )?closed?s?,|the record closes/i, 'a release does not close a live record: it rests'],
  [/returned if you release/i, 'the deposit is returned when the record is closed after the rest'],
  [
    /releas\w*[^.]*anyone (may|can) register it again(?![^.]*after)/i,
    'only the previous owner may register it during the rest',
  ],
  [/releas\w*[^.]*(can|may) be registered again(?![^.]*(rest|30 days|previous owner))/i, 'it rests 30 days first'],
];

describe('what the pages say of a release, rent and the deposit', () => {
  it('the release hint in settings states the rules: 30 days of rest, only you meanwhile, the deposit after closing', () => {
    expect(REST_DAYS * 86_400).toBe(REST_SECONDS);
    expect(RELEASE_HINT).toContain('rests for 30 days');
    expect(RELEASE_HINT).toMatch(/only you\s+can register it again/);
    expect(RELEASE_HINT).toMatch(/deposit .* comes back to you when you close the record once the 30 days are over/);
    expect(readFileSync('components/settings/TagLifecycle.tsx', 'utf8')).toContain('hint={RELEASE_HINT}');
  });

  it('settings links each owned tag to its till', () => {
    expect(readFileSync('components/settings/TagLifecycle.tsx', 'utf8')).toMatch(/href=\{`\/charge\/\$\{tag\}`\}/);
  });

  it('no user-facing string says what the rules make false', () => {
    const found: string[] = [];
    let read = 0;
    for (const file of userFacingFiles()) {
      for (const text of stringsOf(file).filter((s) => SPEAKS_OF.test(s))) {
        read += 1;
        for (const [claim, why] of FALSE_CLAIMS) if (claim.test(text)) found.push(`${file}: ${why}: ${text.trim()}`);
      }
    }
    expect(found).toEqual([]);
    expect(read).toBeGreaterThan(20);
  });

  it('the rule table itself catches the sentences the pages used to carry', () => {
    const old = [
      "Releasing deletes the profile and gives the tag up: anyone may register it again. The account's rent comes back to you.",
      'The record is closed, its rent goes to `receiver` (default: the owner)',
      "held by the tag's account and returned if you release the tag",
    ];
    for (const text of old)
      expect(
        FALSE_CLAIMS.some(([claim]) => claim.test(text)),
        text,
      ).toBe(true);
  });
});
