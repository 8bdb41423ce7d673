// register_tag in LiteSVM against the committed program/tag_registry.so.
import { isSignerRole, isWritableRole, type AccountMeta, type Address } from '@solana/kit';
import { Rent, type LiteSVM } from 'litesvm';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseTagRecord, TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { createProgramAddressSync, findTagRecordAddress } from '@/program/pda';
import { type RegistryErrorName } from './idl';
import {
  accountData,
  balance,
  customErrorCode,
  expectSuccess,
  FEE_PER_SIGNATURE,
  fundedKeypair,
  generateSigner,
  PROGRAM_ID,
  send,
  startSvm,
  transferInstruction,
  type SendResult,
  type Signer,
} from '@/program/litesvm-harness';
import {
  accountMeta,
  encodeRegisterTagData,
  expectRefusal,
  rawInstruction,
  type FullInstruction,
} from './lifecycle-support';

/** TransactionErrorFieldless.SignatureFailure in litesvm (a const enum, so not importable here). */
const SIGNATURE_FAILURE = 11;

function standardKeys(tag: string, owner: Address, feePayer: Address): AccountMeta[] {
  return [...ownerRegisters(tag, feePayer, owner).accounts];
}

/** `meta` moved to `address`, its flags kept. */
const movedTo = (meta: AccountMeta, address: Address): AccountMeta => ({ ...meta, address });

/** register_tag of `tag` by the test's owner, its own payout wallet, `feePayer` paying. */
function ownerRegisters(tag: string, feePayer: Address = owner.address, who: Address = owner.address): FullInstruction {
  const ix = registerTagInstruction({ programAddress: PROGRAM_ID, tag, owner: who, wallet: who, feePayer });
  return ix as FullInstruction;
}

function expectError(result: SendResult, name: RegistryErrorName) {
  expectRefusal(result, name);
}

let svm: LiteSVM;
let owner: Signer;
let sponsor: Signer;
let rent: bigint;

beforeEach(() => {
  svm = startSvm();
  owner = fundedKeypair(svm);
  sponsor = fundedKeypair(svm);
  rent = svm.minimumBalanceForRentExemption(BigInt(TAG_RECORD_SIZE));
});

/** Sends alice's register_tag over `keys` as they are, `payer` paying and signing first, then `cosigners`. */
function sendAlice(keys: AccountMeta[], payer: Signer, ...cosigners: Signer[]): SendResult {
  const ix = rawInstruction(keys, encodeRegisterTagData('alice', owner.address));
  return send(svm, [ix], payer.address, [payer, ...cosigners]);
}

describe('register_tag: success', () => {
  it('registers with owner = fee payer (duplicate account) and stores the record', () => {
    const clock = svm.getClock();
    clock.unixTimestamp = 1_750_000_123n;
    svm.setClock(clock);
    const payee = generateSigner();
    const wallet = payee.address;
    const [pda, bump] = findTagRecordAddress('alice', PROGRAM_ID);
    const before = balance(svm, owner.address);

    const ix = registerTagInstruction({
      programAddress: PROGRAM_ID,
      tag: 'alice',
      owner: owner.address,
      wallet,
      feePayer: owner.address,
    });
    const result = expectSuccess(send(svm, [ix], owner.address, [owner, payee]));

    expect(result.logs()).toContain('Program log: register_tag: alice');
    // The rent and two signatures: the owner's and the payout wallet's.
    expect(before - balance(svm, owner.address)).toBe(rent + 2n * FEE_PER_SIGNATURE);
    const account = accountData(svm, pda);
    expect(account?.owner).toBe(PROGRAM_ID);
    expect(account?.lamports).toBe(rent);
    expect(account?.data.length).toBe(TAG_RECORD_SIZE);
    const record = parseTagRecord(account!.data);
    expect(record).not.toBeNull();
    expect(record!.owner).toBe(owner.address);
    expect(record!.wallet).toBe(wallet);
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
    const ownerBefore = balance(svm, owner.address);
    const sponsorBefore = balance(svm, sponsor.address);
    const ix = ownerRegisters('bob_smith', sponsor.address);
    expectSuccess(send(svm, [ix], sponsor.address, [sponsor, owner]));

    expect(sponsorBefore - balance(svm, sponsor.address)).toBe(rent + 2n * FEE_PER_SIGNATURE);
    expect(balance(svm, owner.address)).toBe(ownerBefore);
    const record = parseTagRecord(accountData(svm, findTagRecordAddress('bob_smith', PROGRAM_ID)[0])!.data);
    expect(record!.owner).toBe(owner.address);
    expect(record!.tag).toBe('bob_smith');
  });

  it.each([
    ['the owner', () => [sponsor], () => owner],
    ['the sponsor', () => [owner], () => sponsor],
  ])('refuses a sponsored transaction missing the signature of %s', (_who, signers, missing) => {
    const ix = ownerRegisters('carol', sponsor.address);
    const result = send(svm, [ix], sponsor.address, signers(), [missing().address]);
    expect(customErrorCode(result)).toBe(`TransactionError(${SIGNATURE_FAILURE})`);
    expect(accountData(svm, findTagRecordAddress('carol', PROGRAM_ID)[0])).toBeNull();
  });

  it.each([
    ['below the rent (topped up, then allocated and assigned)', 1_000_000n],
    ['above the rent (only allocated and assigned)', 5_000_000_000n],
  ])('registers a PDA pre-funded %s', (_case, prefund) => {
    const [pda, bump] = findTagRecordAddress('dave', PROGRAM_ID);
    const stranger = fundedKeypair(svm);
    expectSuccess(send(svm, [transferInstruction(stranger.address, pda, prefund)], stranger.address, [stranger]));
    expect(balance(svm, pda)).toBe(prefund);

    const before = balance(svm, owner.address);
    const ix = ownerRegisters('dave');
    const result = expectSuccess(send(svm, [ix], owner.address, [owner]));

    const topUp = prefund < rent ? rent - prefund : 0n;
    expect(before - balance(svm, owner.address)).toBe(topUp + FEE_PER_SIGNATURE);
    expect(balance(svm, pda)).toBe(prefund + topUp);
    // System instruction tags: 2 Transfer, 8 Allocate, 1 Assign.
    const tags = result.innerInstructions()[0].map((i) => i.instruction().data()[0]);
    expect(tags).toEqual(topUp > 0n ? [2, 8, 1] : [8, 1]);
    const account = accountData(svm, pda)!;
    expect(account.owner).toBe(PROGRAM_ID);
    const record = parseTagRecord(account.data);
    expect(record).toMatchObject({ bump, tag: 'dave' });
    expect(record!.owner).toBe(owner.address);
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
    expectSuccess(send(svm, [ix], owner.address, [owner]));
    expect(balance(svm, findTagRecordAddress('erin', PROGRAM_ID)[0])).toBe(expected);
  });

  it('stays within 10,000 compute units', () => {
    const ix = ownerRegisters('abcdefghijklmnopqrstuvwxyz012345', sponsor.address);
    const result = expectSuccess(send(svm, [ix], sponsor.address, [sponsor, owner]));
    expect(result.computeUnitsConsumed()).toBeLessThanOrEqual(10_000n);
  });
});

describe('register_tag: refusals', () => {
  it('refuses a second registration of the same tag with AlreadyRegistered', () => {
    const first = ownerRegisters('alice');
    expectSuccess(send(svm, [first], owner.address, [owner]));
    const [pda] = findTagRecordAddress('alice', PROGRAM_ID);
    const stored = accountData(svm, pda)!.data;

    const second = registerTagInstruction({
      programAddress: PROGRAM_ID,
      tag: 'alice',
      owner: sponsor.address,
      wallet: sponsor.address,
      feePayer: sponsor.address,
    });
    expectError(send(svm, [second], sponsor.address, [sponsor]), 'AlreadyRegistered');
    expect(accountData(svm, pda)!.data).toEqual(stored);
  });

  it('refuses the PDA of another tag with InvalidTagRecordAddress', () => {
    const keys = standardKeys('alice', owner.address, owner.address);
    keys[0] = movedTo(keys[0]!, findTagRecordAddress('alicf', PROGRAM_ID)[0]);
    expectError(sendAlice(keys, owner), 'InvalidTagRecordAddress');
  });

  it('refuses the right seeds with a non-canonical bump with InvalidTagRecordAddress', () => {
    const [, canonical] = findTagRecordAddress('alice', PROGRAM_ID);
    let other: Address | null = null;
    // A bump whose address falls on the curve is no program address: try the next.
    for (let bump = canonical - 1; bump >= 0 && !other; bump--) {
      other = createProgramAddressSync([Buffer.from('tag'), Buffer.from('alice'), Buffer.from([bump])], PROGRAM_ID);
    }
    const keys = standardKeys('alice', owner.address, owner.address);
    keys[0] = movedTo(keys[0]!, other!);
    expectError(sendAlice(keys, owner), 'InvalidTagRecordAddress');
  });

  /** One flag taken from one account of the standard list; the transaction paid by the first signer. */
  interface FlagCase {
    feePayer: 'owner' | 'sponsor';
    flags: Record<number, { isSigner?: boolean; isWritable?: boolean }>;
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
    const keys = standardKeys('alice', owner.address, holders[feePayer].address).map((meta, i) =>
      accountMeta(
        meta.address,
        flags[i]?.isSigner ?? isSignerRole(meta.role),
        flags[i]?.isWritable ?? isWritableRole(meta.role),
      ),
    );
    const [payer, ...cosigners] = signers.map((name) => holders[name]);
    expectError(sendAlice(keys, payer!, ...cosigners), error);
  });

  it.each([
    ['the program itself', () => PROGRAM_ID],
    ['a plain wallet', () => generateSigner().address],
  ])('refuses %s as System Program with InvalidSystemProgram', (_case, key) => {
    const keys = standardKeys('alice', owner.address, owner.address);
    keys[3] = movedTo(keys[3]!, key());
    expectError(sendAlice(keys, owner), 'InvalidSystemProgram');
  });

  it('refuses three accounts with NotEnoughAccounts', () => {
    const keys = standardKeys('alice', owner.address, owner.address).slice(0, 3);
    expectError(sendAlice(keys, owner), 'NotEnoughAccounts');
  });

  const good = () => encodeRegisterTagData('alice', owner.address);
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
    const keys = standardKeys('alice', owner.address, owner.address);
    expectError(send(svm, [rawInstruction(keys, data())], owner.address, [owner]), 'InvalidInstructionData');
    expect(accountData(svm, findTagRecordAddress('alice', PROGRAM_ID)[0])).toBeNull();
  });
});
