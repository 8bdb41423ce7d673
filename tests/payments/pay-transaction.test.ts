import { Connection, Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { describe, expect, inject, it } from 'vitest';
import {
  payAssetOf,
  toBaseUnits,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  type SplAsset,
} from '@/lib/features/payments/pay-asset';
import { payInstructions } from '@/lib/features/payments/pay-transaction';
import { associatedTokenAddress, ASSOCIATED_TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';

/*
 * The pieces of the pay Action, without HTTP: amounts in base units, the instructions of a
 * SOL and of an SPL payment (Token and Token-2022), and the asset a profile pays in.
 */

describe('toBaseUnits', () => {
  const CASES: [text: string, decimals: number, units: bigint | null][] = [
    ['1', 9, 1_000_000_000n],
    ['0.000000001', 9, 1n],
    ['1.5', 6, 1_500_000n],
    ['2.50', 6, 2_500_000n],
    [' 2.50 ', 6, null], // refused, never trimmed: the amount shown must be the amount paid
    ['\uFEFF1', 9, null],
    ['1\u200B', 9, null],
    ['18446744073.709551615', 9, 2n ** 64n - 1n],
    ['18446744073.709551616', 9, null],
    ['0', 9, null],
    ['0.0', 6, null],
    ['1.1234567', 6, null],
    ['-1', 9, null],
    ['1e3', 9, null],
    ['.5', 9, null],
    ['1.', 9, null],
    ['', 9, null],
  ];
  for (const [text, decimals, units] of CASES) {
    it(`${JSON.stringify(text)} with ${decimals} decimals → ${units}`, () =>
      expect(toBaseUnits(text, decimals)).toBe(units));
  }
});

describe('payInstructions', () => {
  const payer = Keypair.generate().publicKey;
  const wallet = Keypair.generate().publicKey;
  const reference = Keypair.generate().publicKey;

  it('SOL: one System transfer, the reference a read-only key of it', () => {
    const [transfer, ...rest] = payInstructions({
      payer,
      wallet,
      asset: { kind: 'sol', symbol: 'SOL', decimals: 9, fallback: false },
      amount: 42n,
      reference,
    });
    expect(rest).toEqual([]);
    expect(transfer!.programId.equals(SystemProgram.programId)).toBe(true);
    expect(transfer!.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual([
      [payer.toBase58(), true, true],
      [wallet.toBase58(), false, true],
      [reference.toBase58(), false, false],
    ]);
  });

  for (const tokenProgram of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
    it(`SPL (${tokenProgram.equals(TOKEN_PROGRAM_ID) ? 'Token' : 'Token-2022'}): the wallet's token account created if missing, then TransferChecked with the reference`, () => {
      const mint = Keypair.generate().publicKey;
      const asset: SplAsset = { kind: 'spl', symbol: 'USDC', decimals: 6, mint, tokenProgram };
      const [create, transfer, ...rest] = payInstructions({ payer, wallet, asset, amount: 2_500_000n, reference });
      expect(rest).toEqual([]);
      const source = associatedTokenAddress(payer, mint, tokenProgram);
      const destination = associatedTokenAddress(wallet, mint, tokenProgram);
      expect(
        destination.equals(
          PublicKey.findProgramAddressSync(
            [wallet.toBuffer(), tokenProgram.toBuffer(), mint.toBuffer()],
            ASSOCIATED_TOKEN_PROGRAM_ID,
          )[0],
        ),
      ).toBe(true);

      expect(create!.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)).toBe(true);
      expect([...create!.data]).toEqual([1]); // CreateIdempotent
      expect(create!.keys.map((k) => k.pubkey.toBase58())).toEqual(
        [payer, destination, wallet, mint, SystemProgram.programId, tokenProgram].map((k) => k.toBase58()),
      );

      expect(transfer!.programId.equals(tokenProgram)).toBe(true);
      expect(transfer!.data.toString('hex')).toBe('0c' + 'a025260000000000' + '06'); // TransferChecked, 2,500,000, 6 decimals
      expect(transfer!.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual([
        [source.toBase58(), false, true],
        [mint.toBase58(), false, false],
        [destination.toBase58(), false, true],
        [payer.toBase58(), true, false],
        [reference.toBase58(), false, false],
      ]);
    });
  }
});

describe('payAssetOf (on the localnet)', () => {
  const connection = new Connection(inject('rpcUrl'), 'confirmed');
  const CASES: [preferred: string | null, fallback: boolean][] = [
    [null, false],
    ['SOL', false],
    ['USDC', true], // no USDC mint on a localnet
    [Keypair.generate().publicKey.toBase58(), true], // a mint address with no mint account here
  ];
  for (const [preferred, fallback] of CASES) {
    it(`${preferred ?? 'no preference'} → SOL${fallback ? ', as a fallback' : ''}`, async () => {
      expect(await payAssetOf(preferred, 'localnet', connection)).toEqual({
        kind: 'sol',
        symbol: 'SOL',
        decimals: 9,
        fallback,
      });
    });
  }
});
