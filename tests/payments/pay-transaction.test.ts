import {
  getAddressEncoder,
  getProgramDerivedAddress,
  isSignerRole,
  isWritableRole,
  type Address,
  type Instruction,
} from '@solana/kit';
import bs58 from 'bs58';
import { describe, expect, inject, it } from 'vitest';
import {
  payAssetOf,
  toBaseUnits,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  type SplAsset,
} from '@/lib/features/payments/pay-asset';
import { payInstructions } from '@/lib/features/payments/pay-transaction';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { associatedTokenAddress, ASSOCIATED_TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';
import { rpcAt } from '../support/chain';
import { newKeypair } from '../support/keypair';

const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const anyKey = () => newKeypair().publicKey as Address;
/** An instruction's accounts as [address, signs, is written]. */
const rolesOf = (ix: Instruction) =>
  (ix.accounts ?? []).map((a) => [a.address, isSignerRole(a.role), isWritableRole(a.role)]);

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
  const payer = anyKey();
  const wallet = anyKey();
  const reference = anyKey();

  it('SOL: one System transfer, the reference a read-only key of it', async () => {
    const [transfer, ...rest] = await payInstructions({
      payer,
      wallet,
      asset: { kind: 'sol', symbol: 'SOL', decimals: 9, fallback: false },
      amount: 42n,
      reference,
    });
    expect(rest).toEqual([]);
    expect(transfer!.programAddress).toBe(SYSTEM_PROGRAM);
    expect(rolesOf(transfer!)).toEqual([
      [payer, true, true],
      [wallet, false, true],
      [reference, false, false],
    ]);
  });

  for (const tokenProgram of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
    it(`SPL (${tokenProgram === TOKEN_PROGRAM_ID ? 'Token' : 'Token-2022'}): the wallet's token account created if missing, then TransferChecked with the reference`, async () => {
      const mint = anyKey();
      const asset: SplAsset = { kind: 'spl', symbol: 'USDC', decimals: 6, mint, tokenProgram };
      const [create, transfer, ...rest] = await payInstructions({
        payer,
        wallet,
        asset,
        amount: 2_500_000n,
        reference,
      });
      expect(rest).toEqual([]);
      const source = await associatedTokenAddress(payer, mint, tokenProgram);
      const destination = await associatedTokenAddress(wallet, mint, tokenProgram);
      // The associated token account as its program defines it: seeds owner, token program, mint.
      const encode = getAddressEncoder().encode;
      const [derived] = await getProgramDerivedAddress({
        programAddress: ASSOCIATED_TOKEN_PROGRAM_ID,
        seeds: [encode(wallet), encode(tokenProgram), encode(mint)],
      });
      expect(destination).toBe(derived);

      expect(create!.programAddress).toBe(ASSOCIATED_TOKEN_PROGRAM_ID);
      expect([...create!.data!]).toEqual([1]); // CreateIdempotent
      expect(rolesOf(create!).map(([address]) => address)).toEqual([
        payer,
        destination,
        wallet,
        mint,
        SYSTEM_PROGRAM,
        tokenProgram,
      ]);

      expect(transfer!.programAddress).toBe(tokenProgram);
      expect(Buffer.from(transfer!.data!).toString('hex')).toBe('0c' + 'a025260000000000' + '06'); // TransferChecked, 2,500,000, 6 decimals
      expect(rolesOf(transfer!)).toEqual([
        [source, false, true],
        [mint, false, false],
        [destination, false, true],
        [payer, true, false],
        [reference, false, false],
      ]);
    });
  }
});

describe('payAssetOf (on the localnet)', () => {
  const rpc = rpcAt(inject('rpcUrl'));
  const CASES: [preferred: string | null, fallback: boolean][] = [
    [null, false],
    ['SOL', false],
    ['USDC', true], // no USDC mint on a localnet
    [anyKey(), true], // a mint address with no mint account here
  ];
  for (const [preferred, fallback] of CASES) {
    it(`${preferred ?? 'no preference'} → SOL${fallback ? ', as a fallback' : ''}`, async () => {
      expect(await payAssetOf(preferred, 'localnet', rpc)).toEqual({
        kind: 'sol',
        symbol: 'SOL',
        decimals: 9,
        fallback,
      });
    });
  }
});

describe('serviceIdentity', () => {
  it('is the key pair’s own address, and refuses a secret key whose halves are not one key pair', () => {
    const pair = newKeypair();
    expect(serviceIdentity(pair.secretKey).address).toBe(pair.publicKey);
    const mismatched = Uint8Array.from([...pair.secretKey.subarray(0, 32), ...bs58.decode(newKeypair().publicKey)]);
    expect(() => serviceIdentity(mismatched)).toThrow('not a 64-byte ed25519 key pair');
    expect(() => serviceIdentity(pair.secretKey.subarray(0, 32))).toThrow('not a 64-byte ed25519 key pair');
  });
});
