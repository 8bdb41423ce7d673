// The payout check made from the key alone (lib/chain/payout-safety.ts `unsafePayoutWithoutRpc`),
// which remembers each key's curve check: a repeated ask gets the first answer, and one key's
// answer is never another's.
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { unsafePayoutWithoutRpc } from '@/lib/chain/payout-safety';

const PROGRAM = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
const offCurve = (seed: string) => PublicKey.findProgramAddressSync([Buffer.from(seed)], PROGRAM)[0];

describe('the payout check from the key alone', () => {
  it.each([
    ['a wallet (on the curve)', () => Keypair.generate().publicKey, null],
    ['a program-derived address (off the curve)', () => offCurve(`pda-${Math.random()}`), 'off_curve'],
    ['the zero key (the System Program)', () => SystemProgram.programId, 'program'],
  ] as const)('%s: %s, asked once and again', (_name, key, expected) => {
    const wallet = key();
    expect(unsafePayoutWithoutRpc(wallet)).toBe(expected);
    expect(unsafePayoutWithoutRpc(new PublicKey(wallet.toBase58()))).toBe(expected);
  });

  it('keys asked in turn keep their own answers', () => {
    const keys = Array.from({ length: 20 }, (_, i) => (i % 2 ? offCurve(`turn-${i}`) : Keypair.generate().publicKey));
    for (let round = 0; round < 3; round++)
      for (const key of keys)
        expect(unsafePayoutWithoutRpc(key)).toBe(PublicKey.isOnCurve(key.toBytes()) ? null : 'off_curve');
  });
});
