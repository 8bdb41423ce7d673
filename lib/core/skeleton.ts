/*
 * Look-alike tags. Two tags look alike when they have the same skeleton: the tag with every
 * character or pair a reader can mistake for another replaced by one representative. This
 * is UTS #39's "skeleton" idea, cut down to our alphabet: tags are ASCII `[a-z0-9_]`
 * (DESIGN.md "Tags"), so the zero-width and Cyrillic homoglyphs of other name services
 * cannot occur, and what is left is digits, letter pairs and underscores.
 *
 * Where the table comes from:
 * - Unicode's confusables.txt (UTS #39 data), restricted to `[a-z0-9_]` after our
 *   lower-casing, has four entries: 0 → O, 1 → l, I → l (our `i`) and m → rn. Those are the
 *   rules marked `confusables.txt` below.
 * - The rest is digit folding, the "leet" spellings a payer reads past in a hurry (2 z, 3 e,
 *   4 a, 5 s, 6 b, 7 t, 8 b, 9 g), and the kerning pairs that fuse in small sans-serif type
 *   (nn, vv, uu, cl) besides confusables.txt's rn.
 * Each class has one representative. Where a glyph could be read as two letters, the two
 * letters join one class when they are themselves alike (9 is g or q, and q folds to g; 1 is
 * l or i, and i folds to l). 6 reads as b (its bowl and stem) and sometimes as g; b and g do
 * not look alike, so merging them would make `bag` a look-alike of `gag`: 6 folds to b only.
 *
 * This file is the one rule table. The database computes the same skeleton in a generated
 * column (`identities.skeleton`, the `tag_skeleton` function, written from `skeletonSql`
 * below); tests/identity/skeleton.test.ts checks the two agree. A change to the table needs a
 * migration that replaces that function and recomputes the column (drizzle/0012 did so for
 * this table).
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
 * run), then the pairs, each left to right without overlap. No pair's output (`m`, `w`, `d`)
 * is a letter of any pair, and a pair is replaced by one letter, so one pass reaches the
 * fixed point.
 */
export const SKELETON_RULES: readonly SkeletonRule[] = [
  { from: '_', to: '', why: 'Underscores are easy to miss: `bob_`, `b_ob` and `bob` look the same in a hurry.' },
  { from: '0', to: 'o', why: 'Digit zero and letter o (confusables.txt: 0 → O): one glyph apart in most fonts.' },
  { from: '1', to: 'l', why: 'Digit one and letter l (confusables.txt: 1 → l): one stroke in many sans-serif fonts.' },
  { from: 'i', to: 'l', why: 'Letters i and l (confusables.txt: I → l, lower-cased): the dot is lost at small sizes.' },
  { from: '2', to: 'z', why: 'Digit two and letter z: the same zigzag, a common spelling (`2ero` for `zero`).' },
  { from: '3', to: 'e', why: 'Digit three and letter e: a mirrored e, the commonest leet (`alic3` for `alice`).' },
  { from: '4', to: 'a', why: 'Digit four and letter a: an open a (`w4llet` for `wallet`).' },
  { from: '5', to: 's', why: 'Digit five and letter s: the same curve in a blocky or small font (`5hop` for `shop`).' },
  { from: '6', to: 'b', why: 'Digit six and letter b: a bowl with a stem (`6ob` for `bob`).' },
  { from: '7', to: 't', why: 'Digit seven and letter t: a stroke with a bar (`rnarke7` for `market`).' },
  { from: '8', to: 'b', why: 'Digit eight and letter b: a bowl and a stem at small sizes (`8ob` for `bob`).' },
  { from: '9', to: 'g', why: 'Digit nine and letters g and q: a bowl with a descender (`9oogle` for `google`).' },
  { from: 'q', to: 'g', why: 'Letters q and g: a bowl with a descender; only the tail differs (`qoogle`).' },
  { from: 'rn', to: 'm', why: 'r then n reads as m (confusables.txt: m → rn), the best-known spoof (`rnarket`).' },
  { from: 'nn', to: 'm', why: 'Two n read as m in a tight font (`nnarket` for `market`).' },
  { from: 'vv', to: 'w', why: 'Two v read as w (`vvallet` for `wallet`).' },
  { from: 'uu', to: 'w', why: 'Two u read as w in a tight font (`uuallet` for `wallet`).' },
  { from: 'cl', to: 'd', why: 'c then l reads as d: in a tight sans-serif the two fuse (`cllego` for `diego`).' },
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
