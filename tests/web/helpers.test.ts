import { describe, expect, it } from 'vitest';
import { ProfilePatch } from '@/lib/features/identity/schemas';
import { formatSol, shortKey } from '@/lib/web/browser/format';
import { confirmsRelease } from '@/lib/web/browser/lifecycle-flow';
import { ogSafeText } from '@/lib/web/server/og-text';
import { profileFieldErrors, profilePatch, profileValues } from '@/lib/web/browser/profile-form';
import { payToken, solanaPayLink, TOKEN_MINTS } from '@/lib/core/solana-pay';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const MINT = 'So11111111111111111111111111111111111111112';

describe('Solana Pay links', () => {
  it.each([
    ['no preference → SOL', null, 'mainnet-beta', { label: 'SOL', mint: null, unavailable: false }],
    ['SOL', 'SOL', 'devnet', { label: 'SOL', mint: null, unavailable: false }],
    [
      'USDC on mainnet',
      'USDC',
      'mainnet-beta',
      { label: 'USDC', mint: TOKEN_MINTS['mainnet-beta'].USDC, unavailable: false },
    ],
    ['USDC on devnet', 'USDC', 'devnet', { label: 'USDC', mint: TOKEN_MINTS.devnet.USDC, unavailable: false }],
    ['EURC on localnet: no mint, so SOL', 'EURC', 'localnet', { label: 'SOL', mint: null, unavailable: true }],
    ['a mint address as it is', MINT, 'localnet', { label: MINT, mint: MINT, unavailable: false }],
  ] as const)('%s', (_name, preferred, cluster, expected) => {
    expect(payToken(preferred, cluster)).toEqual(expected);
  });

  it('writes spl-token only for a token and percent-encodes the label', () => {
    expect(solanaPayLink({ wallet: WALLET, mint: null, label: 'Alice & Bob' })).toBe(
      `solana:${WALLET}?label=Alice%20%26%20Bob`,
    );
    expect(solanaPayLink({ wallet: WALLET, mint: MINT, label: '@alice' })).toBe(
      `solana:${WALLET}?spl-token=${MINT}&label=%40alice`,
    );
  });
});

describe('profile form helpers', () => {
  const saved = profileValues({ displayName: 'Alice', avatar: null, bio: 'Hi', preferredToken: 'USDC' });

  it('sends only what changed, an emptied field as null', () => {
    expect(profilePatch(saved, { ...saved })).toEqual({});
    expect(profilePatch(saved, { ...saved, bio: '  ', displayName: 'Alicia' })).toEqual({
      bio: null,
      displayName: 'Alicia',
    });
  });

  it('maps ProfilePatch issues to the fields', () => {
    const errors = profileFieldErrors(
      ProfilePatch.safeParse({ displayName: 'x'.repeat(51), avatar: 'http://a.example/x.png' }),
    );
    expect(errors).toEqual({ displayName: 'Must be at most 50 characters', avatar: 'Must be an https: URL' });
    expect(profileFieldErrors(ProfilePatch.safeParse({ bio: null }))).toEqual({});
  });
});

describe('display helpers', () => {
  it.each([
    [0, '0 SOL'],
    [1_500_000_000, '1.5 SOL'],
    [5000, '0.000005 SOL'],
    [2_000_000_000n, '2 SOL'],
  ] as const)('formatSol(%s) = %s', (lamports, text) => {
    expect(formatSol(lamports)).toBe(text);
  });

  it('shortens keys', () => {
    expect(shortKey(WALLET)).toBe('9xQe…VFin');
  });

  it('keeps OG text to what the bundled font draws, and to a length', () => {
    expect(ogSafeText('Zoë 🚀 Café\nnew line', 40)).toBe('Zoë Café new line');
    expect(ogSafeText('日本語', 10)).toBe('');
    expect(ogSafeText('abcdef', 3)).toBe('abc…');
    expect(ogSafeText(null, 3)).toBe('');
  });
});

describe('qrSvg', () => {
  it('draws an SVG once per link', async () => {
    const { qrSvg } = await import('@/lib/web/server/qr-svg');
    const link = solanaPayLink({ wallet: WALLET, mint: null, label: '@qr' });
    const first = qrSvg(link);
    expect(qrSvg(link)).toBe(first);
    expect(await first).toMatch(/^<svg[^>]*viewBox/);
  });
});

describe('confirmsRelease', () => {
  it.each([
    ['alice', true],
    ['Alice', true],
    ['@alice', true],
    [' @ALICE ', true],
    ['alic', false],
    ['alice2', false],
    ['@@alice', false],
    ['@ alice', false],
    ['%40alice', false],
    ['alicé', false],
    ['', false],
  ])('%j confirms releasing alice: %s', (typed, expected) => {
    expect(confirmsRelease(typed, 'alice')).toBe(expected);
  });
});
