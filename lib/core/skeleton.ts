/*
 * Look-alike tags. Two tags look alike when they have the same skeleton: the tag with every
 * character or pair a reader can mistake for another replaced by one representative. This
 * is UTS #39's "skeleton" idea, cut down to our alphabet: tags are ASCII `[a-z0-9_]`
 * (DESIGN.md "Tags"), so the zero-width and Cyrillic homoglyphs of other name services
 * cannot occur, and what is left is digits, letter pairs and underscores.
 *
 * This file is the one rule table. The database computes the same skeleton in a generated
 * column (`identities.skeleton`, the `tag_skeleton` function of the migration that added it,
 * written from `skeletonSql` below); tests/identity/skeleton.test.ts checks the two agree.
 * A change to the table needs a migration that replaces that function.
 */

/** One rule: what is read as what, and why a payer could mistake the one for the other. */
export interface SkeletonRule {
  /** One character, or a pair read as one letter. */
  from: string;
  /** The representative: `''` drops the character. */
  to: string;
  why: string;
}

/**
 * Applied in this order. Single characters first (so `c1` becomes `cl` before the pairs
 * run), then the pairs, each left to right without overlap. No representative is part of any
 * pair (`m`, `w`, `d`, `o`, `l`, `s`, `b`), so one pass reaches the fixed point.
 */
export const SKELETON_RULES: readonly SkeletonRule[] = [
  { from: '_', to: '', why: 'Underscores are easy to miss or to read as a space: `bob_`, `b_ob` and `bob` look the same in a hurry, and a tag cannot start or end with one, which hides them further.' },
  { from: '0', to: 'o', why: 'Digit zero and letter o: one glyph apart in most fonts (UTS #39 confusables.txt maps 0 to O).' },
  { from: '1', to: 'l', why: 'Digit one and letter l: confusables.txt maps 1 to l; in many sans-serif fonts they are the same stroke.' },
  { from: 'i', to: 'l', why: 'Letter i and letter l: a short vertical stroke each; at small sizes the dot disappears (confusables.txt maps I to l, and our tags are lower-cased, so a user who typed `I` sees `i`).' },
  { from: '5', to: 's', why: 'Digit five and letter s: the same curve in a blocky or small font, a classic spoof (`5hop` for `shop`).' },
  { from: '8', to: 'b', why: 'Digit eight and letter b: the same bowl-and-stem shape at small sizes (`8ob` for `bob`).' },
  { from: 'rn', to: 'm', why: 'r followed by n reads as m (confusables.txt: rn → m), the best-known kerning spoof (`rnarket` for `market`).' },
  { from: 'vv', to: 'w', why: 'Two v read as w (confusables.txt: vv → w).' },
  { from: 'cl', to: 'd', why: 'c followed by l reads as d (confusables.txt: cl → d), added from Unicode’s data: in a tight sans-serif the two fuse (`cllego` for `diego`).' },
];

const SINGLES = SKELETON_RULES.filter((r) => r.from.length === 1);
const PAIRS = SKELETON_RULES.filter((r) => r.from.length === 2);
const SINGLE_MAP = new Map(SINGLES.map((r) => [r.from, r.to]));

/** The tag's look-alike skeleton (canonical tag in, letters out): equal skeletons look alike. */
export function skeletonOf(tag: string): string {
  let out = '';
  for (const ch of tag) out += SINGLE_MAP.get(ch) ?? ch;
  for (const { from, to } of PAIRS) out = out.replaceAll(from, to);
  return out;
}

/**
 * The same rules as a SQL expression over `column` (PostgreSQL `translate` drops the
 * characters it has no counterpart for, as the underscore rule asks; `replace` is left to
 * right without overlap, as `replaceAll`). The body of the database's `tag_skeleton`.
 */
export function skeletonSql(column: string): string {
  const kept = SINGLES.filter((r) => r.to !== '');
  const dropped = SINGLES.filter((r) => r.to === '');
  const from = [...kept, ...dropped].map((r) => r.from).join('');
  const to = kept.map((r) => r.to).join('');
  let expression = `translate(${column}, '${from}', '${to}')`;
  for (const { from: pair, to: one } of PAIRS) expression = `replace(${expression}, '${pair}', '${one}')`;
  return expression;
}
