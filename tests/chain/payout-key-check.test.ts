// The payout check made from the key alone (lib/chain/payout-safety.ts `unsafePayoutWithoutRpc`),
// which remembers each key's curve check: a repeated ask gets the first answer, and one key's
// answer is never another's.
import { address, generateKeyPairSigner, getProgramDerivedAddress, isOffCurveAddress, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { unsafePayoutWithoutRpc } from '@/lib/chain/payout-safety';

const PROGRAM = address('BPFLoaderUpgradeab1e11111111111111111111111');
const offCurve = async (seed: string) =>
  (await getProgramDerivedAddress({ programAddress: PROGRAM, seeds: [seed] }))[0];
const wallet = async () => (await generateKeyPairSigner()).address;

describe('the payout check from the key alone', () => {
  it.each([
    ['a wallet (on the curve)', wallet, null],
    ['a program-derived address (off the curve)', () => offCurve(`pda-${Math.random()}`), 'off_curve'],
    ['the zero key (the System Program)', async () => address('11111111111111111111111111111111'), 'program'],
  ] as const)('%s: %s, asked once and again', async (_name, key, expected) => {
    const found: Address = await key();
    expect(unsafePayoutWithoutRpc(found)).toBe(expected);
    expect(unsafePayoutWithoutRpc(address(`${found}`))).toBe(expected);
  });

  it('keys asked in turn keep their own answers', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? offCurve(`turn-${i}`) : wallet())));
    for (let round = 0; round < 3; round++)
      for (const key of keys) expect(unsafePayoutWithoutRpc(key)).toBe(isOffCurveAddress(key) ? 'off_curve' : null);
  });
});
