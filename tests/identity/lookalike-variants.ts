// Look-alike variants of protected originals (lib/core/skeleton.ts): every variant must be
// refused beside its verified original, and every control must stay available. Shared by the
// skeleton's unit test and the availability/register test.

/** original → its look-alike variants (44 in all; the first nine of each line's kind are the red team's). */
export const LOOKALIKE_VARIANTS: Record<string, readonly string[]> = {
  google: ['9oogle', 'qoogle', 'g0ogle', 'go0gle', 'g00gle', 'goog1e', 'googie', 'goo9le', 'gooqle'],
  coinbase: [
    'coinbas3',
    'c0inbase',
    'co1nbase',
    'colnbase',
    'coinba5e',
    'coin8ase',
    'coin6ase',
    'c01nba53',
    'coin_base',
  ],
  wallet: ['w4llet', 'uuallet', 'vvallet', 'wa1let', 'wal1et', 'waiiet', 'wall3t', 'w4ll37', 'wal_let'],
  alice: ['4lice', 'alic3', 'a1ice', 'al1ce', 'aiice', 'allce', '4l1c3', 'a_lice'],
  market: ['nnarket', 'rnarke7', 'rnarket', 'm4rket', 'mark3t', 'marke7', 'nnark37', 'rn4rk3t', 'm_arket'],
};

/** Distinct names beside the same originals: each must stay available. */
export const DISTINCT_CONTROLS: readonly string[] = [
  'gogle',
  'goggle',
  'gooble',
  'googles',
  'coinbaze',
  'coinbased',
  'conbase',
  'wallets',
  'walnut',
  'waller',
  'alise',
  'alike',
  'malice',
  'marker',
  'markets',
  'rocket',
];
