// register_tag in LiteSVM against the committed program/tag_registry.so.
import { Keypair, PublicKey, SystemProgram, type AccountMeta, type TransactionInstruction } from '@solana/web3.js';
import { Rent, type LiteSVM } from 'litesvm';
import { beforeEach, describe, expect, it } from 'vitest';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import {
  decodeTagRecord,
  encodeRegisterTagData,
  registerTagInstruction,
  findTagRecordAddress,
} from '@/packages/tag-registry/src/web3js';
import { type RegistryErrorName } from './idl';
import {
  accountData,
  balance,
  customErrorCode,
  expectSuccess,
  FEE_PER_SIGNATURE,
  fundedKeypair,
  PROGRAM_ID,
  send,
  startSvm,
  type SendResult,
} from '@/program/litesvm-harness';
import { expectRefusal, rawInstruction } from './lifecycle-support';

/** TransactionErrorFieldless.SignatureFailure in litesvm (a const enum, so not importable here). */
const SIGNATURE_FAILURE = 11;

function standardKeys(tag: string, owner: PublicKey, feePayer: PublicKey): AccountMeta[] {
  return registerTagInstruction({ programId: PROGRAM_ID, tag, owner, wallet: owner, feePayer }).keys;
}

/** register_tag of `tag` by the test's owner, its own payout wallet, `feePayer` paying. */
function ownerRegisters(tag: string, feePayer: PublicKey = owner.publicKey): TransactionInstruction {
  return registerTagInstruction({
    programId: PROGRAM_ID,
    tag,
    owner: owner.publicKey,
    wallet: owner.publicKey,
    feePayer,
  });
}

function expectError(result: SendResult, name: RegistryErrorName) {
  expectRefusal(result, name);
}

let svm: LiteSVM;
let owner: Keypair;
let sponsor: Keypair;
let rent: bigint;

beforeEach(() => {
  svm = startSvm();
  owner = fundedKeypair(svm);
  sponsor = fundedKeypair(svm);
  rent = svm.minimumBalanceForRentExemption(BigInt(TAG_RECORD_SIZE));
});

/** Sends alice's register_tag over `keys` as they are, `payer` paying and signing first, then `cosigners`. */
function sendAlice(keys: AccountMeta[], payer: Keypair, ...cosigners: Keypair[]): SendResult {
  const ix = rawInstruction(keys, encodeRegisterTagData('alice', owner.publicKey));
  return send(svm, [ix], payer.publicKey, [payer, ...cosigners]);
}

describe('register_tag: success', () => {
  it('registers with owner = fee payer (duplicate account) and stores the record', () => {
    const clock = svm.getClock();
    clock.unixTimestamp = 1_750_000_123n;
    svm.setClock(clock);
    const payee = Keypair.generate();
    const wallet = payee.publicKey;
    const [pda, bump] = findTagRecordAddress('alice', PROGRAM_ID);
    const before = balance(svm, owner.publicKey);

    const ix = registerTagInstruction({
      programId: PROGRAM_ID,
      tag: 'alice',
      owner: owner.publicKey,
      wallet,
      feePayer: owner.publicKey,
    });
    const result = expectSuccess(send(svm, [ix], owner.publicKey, [owner, payee]));

    expect(result.logs()).toContain('Program log: register_tag: alice');
    // The rent and two signatures: the owner's and the payout wallet's.
    expect(before - balance(svm, owner.publicKey)).toBe(rent + 2n * FEE_PER_SIGNATURE);
    const account = accountData(svm, pda);
    expect(account?.owner.equals(PROGRAM_ID)).toBe(true);
    expect(account?.lamports).toBe(rent);
    expect(account?.data.length).toBe(TAG_RECORD_SIZE);
    const record = decodeTagRecord(account!.data);
    expect(record).not.toBeNull();
    expect(record!.owner.equals(owner.publicKey)).toBe(true);
    expect(record!.wallet.equals(wallet)).toBe(true);
    expect(record!.bump).toBe(bump);
    expect(record!.registeredAt).toBe(1_750_000_123n);
    expect(record!.tag).toBe('alice');
    expect(record!.pendingOwner).toBeNull(); // no transfer offer stands on a new record
    // One CreateAccount CPI into the System Program.
    const inner = result.innerInstructions()[0];
    expect(inner).toHaveLength(1);
    expect(inner[0].instruction().data()[0]).toBe(0);
  });

  it('registers with a separate sponsor paying rent and fee', () => {
    const ownerBefore = balance(svm, owner.publicKey);
    const sponsorBefore = balance(svm, sponsor.publicKey);
    const ix = ownerRegisters('bob_smith', sponsor.publicKey);
    expectSuccess(send(svm, [ix], sponsor.publicKey, [sponsor, owner]));

    expect(sponsorBefore - balance(svm, sponsor.publicKey)).toBe(rent + 2n * FEE_PER_SIGNATURE);
    expect(balance(svm, owner.publicKey)).toBe(ownerBefore);
    const record = decodeTagRecord(accountData(svm, findTagRecordAddress('bob_smith', PROGRAM_ID)[0])!.data);
    expect(record!.owner.equals(owner.publicKey)).toBe(true);
    expect(record!.tag).toBe('bob_smith');
  });

  it.each([
    ['the owner', () => [sponsor], () => owner],
    ['the sponsor', () => [owner], () => sponsor],
  ])('refuses a sponsored transaction missing the signature of %s', (_who, signers, missing) => {
    const ix = ownerRegisters('carol', sponsor.publicKey);
    const result = send(svm, [ix], sponsor.publicKey, signers(), [missing().publicKey]);
    expect(customErrorCode(result)).toBe(`TransactionError(${SIGNATURE_FAILURE})`);
    expect(accountData(svm, findTagRecordAddress('carol', PROGRAM_ID)[0])).toBeNull();
  });

  it.each([
    ['below the rent (topped up, then allocated and assigned)', 1_000_000n],
    ['above the rent (only allocated and assigned)', 5_000_000_000n],
  ])('registers a PDA pre-funded %s', (_case, prefund) => {
    const [pda, bump] = findTagRecordAddress('dave', PROGRAM_ID);
    const stranger = fundedKeypair(svm);
    expectSuccess(
      send(
        svm,
        [SystemProgram.transfer({ fromPubkey: stranger.publicKey, toPubkey: pda, lamports: prefund })],
        stranger.publicKey,
        [stranger],
      ),
    );
    expect(balance(svm, pda)).toBe(prefund);

    const before = balance(svm, owner.publicKey);
    const ix = ownerRegisters('dave');
    const result = expectSuccess(send(svm, [ix], owner.publicKey, [owner]));

    const topUp = prefund < rent ? rent - prefund : 0n;
    expect(before - balance(svm, owner.publicKey)).toBe(topUp + FEE_PER_SIGNATURE);
    expect(balance(svm, pda)).toBe(prefund + topUp);
    // System instruction tags: 2 Transfer, 8 Allocate, 1 Assign.
    const tags = result.innerInstructions()[0].map((i) => i.instruction().data()[0]);
    expect(tags).toEqual(topUp > 0n ? [2, 8, 1] : [8, 1]);
    const account = accountData(svm, pda)!;
    expect(account.owner.equals(PROGRAM_ID)).toBe(true);
    const record = decodeTagRecord(account.data);
    expect(record).toMatchObject({ bump, tag: 'dave' });
    expect(record!.owner.equals(owner.publicKey)).toBe(true);
  });

  it.each([
    ['the post-SIMD-0194 default', () => svm.getRent()],
    ['threshold 2.0 (historical)', () => new Rent(3480n, 2.0, 50)],
    ['threshold 1.7, not exact in binary', () => new Rent(3481n, 1.7, 50)],
    ['threshold 0.3 with an odd rate', () => new Rent(12_345n, 0.3, 0)],
  ])('funds the record with the runtime rent-exempt minimum under %s', (_case, makeRent) => {
    svm.setRent(makeRent());
    const expected = svm.minimumBalanceForRentExemption(BigInt(TAG_RECORD_SIZE));
    const ix = ownerRegisters('erin');
    expectSuccess(send(svm, [ix], owner.publicKey, [owner]));
    expect(balance(svm, findTagRecordAddress('erin', PROGRAM_ID)[0])).toBe(expected);
  });

  it('stays within 10,000 compute units', () => {
    const ix = ownerRegisters('abcdefghijklmnopqrstuvwxyz012345', sponsor.publicKey);
    const result = expectSuccess(send(svm, [ix], sponsor.publicKey, [sponsor, owner]));
    expect(result.computeUnitsConsumed()).toBeLessThanOrEqual(10_000n);
  });
});

describe('register_tag: refusals', () => {
  it('refuses a second registration of the same tag with AlreadyRegistered', () => {
    const first = ownerRegisters('alice');
    expectSuccess(send(svm, [first], owner.publicKey, [owner]));
    const [pda] = findTagRecordAddress('alice', PROGRAM_ID);
    const stored = accountData(svm, pda)!.data;

    const second = registerTagInstruction({
      programId: PROGRAM_ID,
      tag: 'alice',
      owner: sponsor.publicKey,
      wallet: sponsor.publicKey,
      feePayer: sponsor.publicKey,
    });
    expectError(send(svm, [second], sponsor.publicKey, [sponsor]), 'AlreadyRegistered');
    expect(accountData(svm, pda)!.data).toEqual(stored);
  });

  it('refuses the PDA of another tag with InvalidTagRecordAddress', () => {
    const keys = standardKeys('alice', owner.publicKey, owner.publicKey);
    keys[0] = { ...keys[0], pubkey: findTagRecordAddress('alicf', PROGRAM_ID)[0] };
    expectError(sendAlice(keys, owner), 'InvalidTagRecordAddress');
  });

  it('refuses the right seeds with a non-canonical bump with InvalidTagRecordAddress', () => {
    const [, canonical] = findTagRecordAddress('alice', PROGRAM_ID);
    let other: PublicKey | null = null;
    for (let bump = canonical - 1; bump >= 0 && !other; bump--) {
      try {
        other = PublicKey.createProgramAddressSync(
          [Buffer.from('tag'), Buffer.from('alice'), Buffer.from([bump])],
          PROGRAM_ID,
        );
      } catch {
        // on the curve: not a program address, try the next bump
      }
    }
    const keys = standardKeys('alice', owner.publicKey, owner.publicKey);
    keys[0] = { ...keys[0], pubkey: other! };
    expectError(sendAlice(keys, owner), 'InvalidTagRecordAddress');
  });

  /** One flag taken from one account of the standard list; the transaction paid by the first signer. */
  interface FlagCase {
    feePayer: 'owner' | 'sponsor';
    flags: Record<number, Partial<AccountMeta>>;
    signers: Array<'owner' | 'sponsor'>;
  }
  it.each<[string, RegistryErrorName, FlagCase]>([
    [
      'an owner marked non-signer',
      'OwnerNotSigner',
      // the owner is also the wallet (position 4): unsigned there too
      { feePayer: 'sponsor', flags: { 1: { isSigner: false }, 4: { isSigner: false } }, signers: ['sponsor'] },
    ],
    [
      'a fee payer marked non-signer',
      'FeePayerNotSigner',
      { feePayer: 'sponsor', flags: { 2: { isSigner: false } }, signers: ['owner'] },
    ],
    [
      'a read-only fee payer',
      'FeePayerNotWritable',
      { feePayer: 'sponsor', flags: { 2: { isWritable: false } }, signers: ['owner', 'sponsor'] },
    ],
    [
      'a read-only tag record',
      'TagRecordNotWritable',
      { feePayer: 'owner', flags: { 0: { isWritable: false } }, signers: ['owner'] },
    ],
  ])('refuses %s with %s', (_what, error, { feePayer, flags, signers }) => {
    const holders = { owner, sponsor };
    const keys = standardKeys('alice', owner.publicKey, holders[feePayer].publicKey).map((meta, i) => ({
      ...meta,
      ...flags[i],
    }));
    const [payer, ...cosigners] = signers.map((name) => holders[name]);
    expectError(sendAlice(keys, payer!, ...cosigners), error);
  });

  it.each([
    ['the program itself', () => PROGRAM_ID],
    ['a plain wallet', () => Keypair.generate().publicKey],
  ])('refuses %s as System Program with InvalidSystemProgram', (_case, key) => {
    const keys = standardKeys('alice', owner.publicKey, owner.publicKey);
    keys[3] = { ...keys[3], pubkey: key() };
    expectError(sendAlice(keys, owner), 'InvalidSystemProgram');
  });

  it('refuses three accounts with NotEnoughAccounts', () => {
    const keys = standardKeys('alice', owner.publicKey, owner.publicKey).slice(0, 3);
    expectError(sendAlice(keys, owner), 'NotEnoughAccounts');
  });

  const good = () => encodeRegisterTagData('alice', owner.publicKey);
  it.each<[string, () => Uint8Array]>([
    ['empty data', () => Buffer.alloc(0)],
    ['only the discriminator', () => good().subarray(0, 8)],
    [
      'a wrong discriminator',
      () => {
        const d = Buffer.from(good());
        d[0] ^= 1;
        return d;
      },
    ],
    ['a wallet one byte short', () => good().subarray(0, good().length - 1)],
    ['a trailing byte', () => Buffer.concat([good(), Buffer.from([0])])],
    [
      'a tag length past the end',
      () => {
        const d = Buffer.from(good());
        d.writeUInt32LE(0xffffffff, 8);
        return d;
      },
    ],
    ['garbage', () => Buffer.from('not an instruction at all, just some bytes here')],
  ])('refuses %s with InvalidInstructionData', (_case, data) => {
    const keys = standardKeys('alice', owner.publicKey, owner.publicKey);
    expectError(send(svm, [rawInstruction(keys, data())], owner.publicKey, [owner]), 'InvalidInstructionData');
    expect(accountData(svm, findTagRecordAddress('alice', PROGRAM_ID)[0])).toBeNull();
  });
});
