// Look-alike skeletons (docs/integrators.md, "Look-alike tags"): named vectors against lib/core/skeleton.ts,
// and the database's generated column computing the same skeleton.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { executePrepared } from '@/lib/db/rows';
import { SKELETON_RULES, skeletonOf } from '@/lib/core/skeleton';
import { stackDatabase } from '../support/database';
import { DISTINCT_CONTROLS, LOOKALIKE_VARIANTS } from './lookalike-variants';

/** name → [tag, its skeleton, a tag it must look like (or must not, with `!`)] */
const VECTORS: Record<string, { tag: string; skeleton: string; alike?: string; unlike?: string }> = {
  'zero for o': { tag: 'b0b', skeleton: 'bob', alike: 'bob' },
  'one for l': { tag: 'a1ice', skeleton: 'allce', alike: 'alice' },
  'i for l': { tag: 'ailce', skeleton: 'allce', alike: 'alice' },
  'l itself': { tag: 'alice', skeleton: 'allce' },
  'rn for m': { tag: 'rnarket', skeleton: 'market', alike: 'market' },
  'vv for w': { tag: 'vvallet', skeleton: 'wallet', alike: 'wallet' },
  'five for s': { tag: '5hop', skeleton: 'shop', alike: 'shop' },
  'eight for b': { tag: '8ob', skeleton: 'bob', alike: 'bob' },
  'underscores ignored': { tag: 'b_o_b', skeleton: 'bob', alike: 'bob' },
  'trailing underscore variant': { tag: 'bob_x', skeleton: 'bobx', alike: 'bobx' },
  'zero and underscore together': { tag: '0x_shop', skeleton: 'oxshop', alike: 'ox_shop' },
  'cl for d (Unicode confusables)': { tag: 'cllego', skeleton: 'dlego', alike: 'diego' },
  'one then l makes cl': { tag: 'c1iego', skeleton: 'dlego', alike: 'diego' },
  'rn after an underscore': { tag: 'r_nice', skeleton: 'mlce', alike: 'mice' },
  'vvv pairs left to right': { tag: 'vvv', skeleton: 'wv', alike: 'wv' },
  'rnm stays two letters': { tag: 'rnm', skeleton: 'mm', alike: 'mm' },
  'distinct letters stay distinct': { tag: 'alice', skeleton: 'allce', unlike: 'alise' },
  'two for z': { tag: 'bob2', skeleton: 'bobz', alike: 'bobz' },
  'three for e': { tag: 'alic3', skeleton: 'allce', alike: 'alice' },
  'four for a': { tag: 'w4llet', skeleton: 'wallet', alike: 'wallet' },
  'six for b': { tag: '6ob', skeleton: 'bob', alike: 'bob' },
  'seven for t': { tag: 'rnarke7', skeleton: 'market', alike: 'market' },
  'nine for g': { tag: '9oogle', skeleton: 'google', alike: 'google' },
  'q for g': { tag: 'qoogle', skeleton: 'google', alike: '9oogle' },
  'nn for m': { tag: 'nnarket', skeleton: 'market', alike: 'market' },
  'uu for w': { tag: 'uuallet', skeleton: 'wallet', alike: 'wallet' },
  'rnn: rn first': { tag: 'rnn', skeleton: 'mn', alike: 'mn' },
  'b and g stay apart': { tag: 'bag', skeleton: 'bag', unlike: 'gag' },
  'u alone is not w': { tag: 'cup', skeleton: 'cup', unlike: 'cwp' },
  'm does not read as rn backwards': { tag: 'market', skeleton: 'market', alike: 'rnarket' },
  'n alone is not m': { tag: 'nap', skeleton: 'nap', unlike: 'map' },
};

describe('skeleton vectors', () => {
  it.each(Object.entries(VECTORS))('%s', (_name, { tag, skeleton, alike, unlike }) => {
    expect(skeletonOf(tag)).toBe(skeleton);
    if (alike) expect(skeletonOf(alike)).toBe(skeleton);
    if (unlike) expect(skeletonOf(unlike)).not.toBe(skeleton);
  });

  it('every rule is justified and the asked-for ones are there', () => {
    for (const rule of SKELETON_RULES) expect(rule.why.length, rule.from).toBeGreaterThan(20);
    const pairs = new Set(SKELETON_RULES.map((r) => `${r.from}>${r.to}`));
    const asked = [
      '0>o',
      '1>l',
      'i>l',
      '2>z',
      '3>e',
      '4>a',
      '5>s',
      '6>b',
      '7>t',
      '8>b',
      '9>g',
      'q>g',
      'rn>m',
      'nn>m',
      'vv>w',
      'uu>w',
      'cl>d',
      '_>',
    ];
    for (const rule of asked) expect(pairs, rule).toContain(rule);
  });

  it.each(Object.entries(LOOKALIKE_VARIANTS))('every variant of %s has its skeleton', (original, variants) => {
    expect(variants.filter((v) => skeletonOf(v) !== skeletonOf(original))).toEqual([]);
  });

  it('44 variants in all, and no control has the skeleton of an original', () => {
    expect(Object.values(LOOKALIKE_VARIANTS).flat()).toHaveLength(44);
    const originals = new Set(Object.keys(LOOKALIKE_VARIANTS).map(skeletonOf));
    expect(DISTINCT_CONTROLS.filter((c) => originals.has(skeletonOf(c)))).toEqual([]);
  });

  it('a skeleton is its own skeleton (one pass reaches the fixed point)', () => {
    for (const { tag } of Object.values(VECTORS)) expect(skeletonOf(skeletonOf(tag))).toBe(skeletonOf(tag));
  });
});

describe('the database computes the same skeleton', () => {
  const database = stackDatabase({ poolSize: 1 });
  const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789_';

  function randomCanonicalTag(): string {
    const bytes = randomBytes(12);
    let tag = 'r';
    for (const b of bytes) tag += ALPHABET[b % ALPHABET.length];
    return `${tag}z`;
  }

  it('tag_skeleton agrees with skeletonOf on the vectors and 2,000 random tags', async () => {
    const tags = [
      ...Object.values(VECTORS).flatMap((v) => [v.tag, v.alike ?? v.tag]),
      ...Array.from({ length: 2000 }, randomCanonicalTag),
    ];
    const rows = await executePrepared<{ tag: string; skeleton: string }>(
      database.db,
      'test_tag_skeleton',
      'SELECT t.tag, tag_skeleton(t.tag) AS skeleton FROM unnest($1::text[]) AS t(tag)',
      [tags],
    );
    const mismatches = rows.filter((r) => r.skeleton !== skeletonOf(r.tag));
    expect(mismatches).toEqual([]);
    expect(rows).toHaveLength(tags.length);
  });

  it('a row written without a skeleton gets it from its tag', async () => {
    const row = await insertIdentity(database.db, {
      tag: `rn_5h0p${randomBytes(4).toString('hex').replace(/[0-9]/g, 'k')}`,
    });
    expect(row.skeleton).toBe(skeletonOf(row.tag));
    expect(row.skeleton.startsWith('mshop')).toBe(true);
  });
});
