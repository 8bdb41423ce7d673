// Every way a lifecycle call is refused gives a code of its own, and a refused call leaves
// the record exactly as it was. LiteSVM with every feature on, the committed .so.
import { isSignerRole, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  getCancelTransferInstructionDataEncoder,
  getSetWalletInstructionDataEncoder,
  TAG_RECORD_OFFSETS,
} from '@/packages/tag-registry/src';
import { setWalletInstruction } from '@/devstack/lifecycle-instructions';
import { SYSTEM_PROGRAM_ADDRESS } from '@/program/deploy/loader-v3';
import { findTagRecordAddress } from '@/program/pda';
import { type RegistryErrorName, INSTRUCTION_DISCRIMINATORS, type RegistryInstructionName } from './idl';
import {
  expectSuccess,
  fundedKeypair,
  generateSigner,
  PROGRAM_ID as programId,
  send,
  type Signer,
} from '@/program/litesvm-harness';
import {
  accountMeta,
  aliceHoldsTag,
  expectRefusal,
  freshForEachTest,
  lifecycleInstruction,
  offerAliceToBob,
  plantAccount,
  rawInstruction,
  recordBytes,
  snapshot,
  withAccount,
  type FullInstruction,
} from './lifecycle-support';

const world = freshForEachTest(() => {
  const start = aliceHoldsTag();
  return { ...start, mallory: fundedKeypair(start.svm), payee: generateSigner() };
});

/** Each lifecycle instruction as `signer` would send it against `record`; set_wallet names the payee, who signs. */
const CALLS: Record<
  Exclude<RegistryInstructionName, 'register_tag'>,
  (record: Address, signer: Signer) => FullInstruction
> = {
  set_wallet: (record, owner) =>
    lifecycleInstruction({ kind: 'set_wallet', tag: 'alice', owner, wallet: world.payee }, record),
  offer_transfer: (record, owner) =>
    lifecycleInstruction({ kind: 'offer', tag: 'alice', owner, newOwner: generateSigner().address }, record),
  cancel_transfer: (record, owner) => lifecycleInstruction({ kind: 'cancel', tag: 'alice', owner }, record),
  accept_transfer: (record, newOwner) => lifecycleInstruction({ kind: 'accept', tag: 'alice', newOwner }, record),
  release_tag: (record, owner) =>
    lifecycleInstruction({ kind: 'release', tag: 'alice', owner, receiver: owner.address }, record),
};
const LIFECYCLE = Object.keys(CALLS) as Array<keyof typeof CALLS>;
const OWNER_CALLS = LIFECYCLE.filter((name) => name !== 'accept_transfer');

/** Sends `ix` paid and signed by `signer`, and by the payee where `ix` names it as a signer (set_wallet's wallet). */
function sendAs(ix: FullInstruction, signer: Signer) {
  const payeeSigns = ix.accounts.some((k) => isSignerRole(k.role) && k.address === world.payee.address);
  return send(world.svm, [ix], signer.address, payeeSigns ? [signer, world.payee] : [signer]);
}

/** Sends `ix` as `sendAs` does, and checks the refusal and that `address` did not change. */
function expectRefused(ix: FullInstruction, signer: Signer, error: RegistryErrorName, address = world.tagRecord) {
  const before = snapshot(world.svm, address);
  expectRefusal(sendAs(ix, signer), error);
  expect(snapshot(world.svm, address)).toEqual(before);
}

/** For accept: a standing offer to bob, so that only the failure under test can stop it. */
const offerToBob = () => offerAliceToBob(world);

/** The rightful signer of each call, after an offer to bob when the call needs one (cancel, accept). */
function rightful(name: keyof typeof CALLS): Signer {
  if (name === 'cancel_transfer' || name === 'accept_transfer') offerToBob();
  return name === 'accept_transfer' ? world.bob : world.alice;
}

describe('the signer', () => {
  it.each(OWNER_CALLS)('%s refuses a signer that is not the owner with NotTagOwner', (name) => {
    expectRefused(CALLS[name](world.tagRecord, world.mallory), world.mallory, 'NotTagOwner');
  });

  it.each(OWNER_CALLS)('%s refuses the owner unsigned with OwnerNotSigner', (name) => {
    const ix = withAccount(CALLS[name](world.tagRecord, world.alice), 1, { isSigner: false });
    expectRefused(ix, world.mallory, 'OwnerNotSigner');
  });

  it('accept_transfer refuses the pending owner unsigned with NewOwnerNotSigner', () => {
    offerToBob();
    expectRefused(
      withAccount(CALLS.accept_transfer(world.tagRecord, world.bob), 1, { isSigner: false }),
      world.mallory,
      'NewOwnerNotSigner',
    );
  });

  it.each([
    ['a stranger', () => world.mallory],
    ['the current owner', () => world.alice],
  ])('accept_transfer refuses %s, not the pending owner, with NotPendingOwner', (_who, who) => {
    offerToBob();
    expectRefused(CALLS.accept_transfer(world.tagRecord, who()), who(), 'NotPendingOwner');
  });
});

describe('the arguments and the offer', () => {
  it('offer_transfer refuses the zero address with NewOwnerIsZero', () => {
    const ix = lifecycleInstruction({
      kind: 'offer',
      tag: 'alice',
      owner: world.alice,
      newOwner: SYSTEM_PROGRAM_ADDRESS,
    });
    expectRefused(ix, world.alice, 'NewOwnerIsZero');
  });

  it('offer_transfer refuses the owner itself with NewOwnerIsOwner', () => {
    const ix = lifecycleInstruction({
      kind: 'offer',
      tag: 'alice',
      owner: world.alice,
      newOwner: world.alice.address,
    });
    expectRefused(ix, world.alice, 'NewOwnerIsOwner');
  });

  it('set_wallet refuses the zero address with WalletIsZero (payments there would be lost)', () => {
    // Nobody can sign for the zero address (the System Program's): the account goes unsigned.
    const ix = withAccount(
      setWalletInstruction({
        programAddress: programId,
        tagRecord: world.tagRecord,
        owner: world.alice.address,
        wallet: SYSTEM_PROGRAM_ADDRESS,
      }) as FullInstruction,
      2,
      { isSigner: false },
    );
    expectRefused(ix, world.alice, 'WalletIsZero');
  });

  it('accept_transfer with no offer standing: NoOfferToAccept', () => {
    expectRefused(CALLS.accept_transfer(world.tagRecord, world.bob), world.bob, 'NoOfferToAccept');
  });

  it('cancel_transfer with no offer standing: NoOfferToCancel', () => {
    expectRefused(CALLS.cancel_transfer(world.tagRecord, world.alice), world.alice, 'NoOfferToCancel');
  });

  it('release_tag refuses a read-only receiver with ReceiverNotWritable', () => {
    const ix = withAccount(
      lifecycleInstruction({ kind: 'release', tag: 'alice', owner: world.alice, receiver: world.bob.address }),
      2,
      { isWritable: false },
    );
    expectRefused(ix, world.alice, 'ReceiverNotWritable');
  });
});

describe('the record account', () => {
  /** A record that is not the one at its address: where it is planted, and its bytes bent from alice's. */
  const MISPLACED: Array<[string, () => { address: Address; data: Uint8Array }]> = [
    [
      'a record of tag A planted at the address of tag B',
      // alice's exact record bytes, owned by the program, but at bob's PDA.
      () => ({ address: findTagRecordAddress('bob', programId)[0], data: accountBytes(world.tagRecord) }),
    ],
    [
      'a program-owned record at an address that is no PDA of its tag',
      () => ({ address: generateSigner().address, data: accountBytes(world.tagRecord) }),
    ],
    [
      'a record whose stored bump is not the one of its address',
      () => {
        const data = accountBytes(world.tagRecord);
        data[TAG_RECORD_OFFSETS.bump] -= 1;
        return { address: world.tagRecord, data };
      },
    ],
  ];
  it.each(MISPLACED.flatMap(([what, plant]) => LIFECYCLE.map((name) => [name, what, plant] as const)))(
    '%s refuses %s with InvalidTagRecordAddress',
    (name, _what, plant) => {
      const signer = rightful(name);
      const { address, data } = plant();
      plantAccount(world.svm, address, data);
      expectRefused(CALLS[name](address, signer), signer, 'InvalidTagRecordAddress', address);
    },
  );

  it.each([
    ['the System Program', () => SYSTEM_PROGRAM_ADDRESS],
    ['another program', () => generateSigner().address],
  ])('every call refuses a look-alike owned by %s with TagRecordNotProgramOwned', (_owner, lookAlikeOwner) => {
    for (const name of LIFECYCLE) {
      // The right discriminator, the right owner key and offer, at the real PDA of an unregistered tag.
      const [address] = findTagRecordAddress('lookalike', programId);
      const signer = name === 'accept_transfer' ? world.bob : world.alice;
      plantAccount(
        world.svm,
        address,
        recordBytes('lookalike', world.alice.address, { pendingOwner: world.bob.address }),
        lookAlikeOwner(),
      );
      expectRefused(CALLS[name](address, signer), signer, 'TagRecordNotProgramOwned', address);
    }
  });

  it.each([
    ['the old 117-byte layout', (d: Uint8Array) => d.subarray(0, 117)],
    ['one byte more', (d: Uint8Array) => new Uint8Array([...d, 0])],
    [
      'another discriminator',
      (d: Uint8Array) => {
        d[0] ^= 1;
        return d;
      },
    ],
    [
      'a tag length over 32',
      (d: Uint8Array) => {
        new DataView(d.buffer).setUint32(TAG_RECORD_OFFSETS.tagLength, 33, true);
        return d;
      },
    ],
  ])('every call refuses program-owned data with %s with NotATagRecord', (_case, bend) => {
    offerToBob(); // so that neither cancel nor accept could fail for want of an offer
    const valid = accountBytes(world.tagRecord);
    for (const name of LIFECYCLE) {
      const signer = name === 'accept_transfer' ? world.bob : world.alice;
      plantAccount(world.svm, world.tagRecord, bend(valid.slice()));
      expectRefused(CALLS[name](world.tagRecord, signer), signer, 'NotATagRecord');
    }
  });

  it.each(LIFECYCLE)('%s refuses an unregistered tag (an empty address) with TagRecordNotProgramOwned', (name) => {
    const signer = rightful(name);
    const [nobody] = findTagRecordAddress('nobody', programId);
    expectRefused(CALLS[name](nobody, signer), signer, 'TagRecordNotProgramOwned', nobody);
  });

  it.each(LIFECYCLE)('%s refuses a read-only record with TagRecordNotWritable', (name) => {
    const signer = rightful(name);
    expectRefused(
      withAccount(CALLS[name](world.tagRecord, signer), 0, { isWritable: false }),
      signer,
      'TagRecordNotWritable',
    );
  });
});

describe('the instruction', () => {
  it.each(LIFECYCLE)(
    '%s refuses too few accounts with NotEnoughAccounts (set_wallet without its wallet: WalletAccountMissing)',
    (name) => {
      const signer = rightful(name);
      const ix = CALLS[name](world.tagRecord, signer);
      expectRefused(
        rawInstruction(ix.accounts.slice(0, -1), ix.data),
        signer,
        name === 'set_wallet' ? 'WalletAccountMissing' : 'NotEnoughAccounts',
      );
    },
  );

  it.each(LIFECYCLE)('%s ignores accounts past the ones its ABI lists', (name) => {
    const signer = rightful(name);
    const ix = CALLS[name](world.tagRecord, signer);
    const extra = [accountMeta(world.tagRecord, false, true), accountMeta(world.mallory.address, false, true)];
    expectSuccess(sendAs(rawInstruction([...ix.accounts, ...extra], ix.data), signer));
  });

  it.each(LIFECYCLE)('%s refuses a trailing byte, and a byte short, with InvalidInstructionData', (name) => {
    const signer = rightful(name);
    const ix = CALLS[name](world.tagRecord, signer);
    expectRefused(rawInstruction(ix.accounts, new Uint8Array([...ix.data, 0])), signer, 'InvalidInstructionData');
    if (ix.data.length > 8)
      expectRefused(rawInstruction(ix.accounts, ix.data.slice(0, -1)), signer, 'InvalidInstructionData');
  });

  it.each([
    ['no data', Buffer.alloc(0)],
    ['seven bytes of a discriminator', Buffer.from(INSTRUCTION_DISCRIMINATORS.release_tag).subarray(0, 7)],
    ['an unknown discriminator', Buffer.from('unknown!')],
  ])('refuses %s with InvalidInstructionData', (_case, data) => {
    const keys = CALLS.release_tag(world.tagRecord, world.alice).accounts;
    expectRefused(rawInstruction(keys, data), world.alice, 'InvalidInstructionData');
  });

  it('encodes exactly what the program expects (sanity of the codec the tests use)', () => {
    expect(getCancelTransferInstructionDataEncoder().encode({})).toHaveLength(8);
    expect(getSetWalletInstructionDataEncoder().encode({ wallet: world.alice.address })).toHaveLength(40);
  });
});

function accountBytes(address: Address): Uint8Array {
  const account = world.svm.getAccount(address);
  if (!account.exists) throw new Error(`no account at ${address}`);
  return new Uint8Array(account.data);
}
