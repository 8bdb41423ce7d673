// One account passed in two positions, for every ordered pair of positions of every
// instruction: the call fails with its own code, or does exactly what it says. A refused
// call changes no account; none ever leaves a corrupt record.
import { isSignerRole, isWritableRole, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { parseTagRecord } from '@/packages/tag-registry/src';
import { SYSTEM_PROGRAM_ADDRESS } from '@/program/deploy/loader-v3';
import { findTagRecordAddress } from '@/program/pda';
import { type RegistryErrorName, type RegistryInstructionName } from './idl';
import {
  accountData,
  expectSuccess,
  fundedKeypair,
  PROGRAM_ID,
  send,
  transferInstruction,
  type Signer,
} from '@/program/litesvm-harness';
import {
  accountMeta,
  aliceHoldsTag,
  expectRefusal,
  freshForEachTest,
  lifecycleInstruction,
  offerAliceToBob,
  recordAt,
  rawInstruction,
  snapshot,
  type FullInstruction,
} from './lifecycle-support';

const programId = PROGRAM_ID;
const world = freshForEachTest(() => {
  const start = aliceHoldsTag();
  // A standing offer to bob, so cancel and accept could succeed but for the duplicate.
  offerAliceToBob(start);
  return { ...start, sponsor: fundedKeypair(start.svm) };
});

/**
 * Each instruction as its rightful signer sends it; register_tag for a fresh tag, paid by the
 * sponsor. The payout wallet of register_tag and set_wallet is bob, who signs.
 */
const CALLS: Record<RegistryInstructionName, () => FullInstruction> = {
  register_tag: () =>
    registerTagInstruction({
      programAddress: programId,
      tag: 'carol',
      owner: world.alice.address,
      wallet: world.bob.address,
      feePayer: world.sponsor.address,
    }) as FullInstruction,
  set_wallet: () => lifecycleInstruction({ kind: 'set_wallet', tag: 'alice', owner: world.alice, wallet: world.bob }),
  offer_transfer: () =>
    lifecycleInstruction({ kind: 'offer', tag: 'alice', owner: world.alice, newOwner: world.sponsor.address }),
  cancel_transfer: () => lifecycleInstruction({ kind: 'cancel', tag: 'alice', owner: world.alice }),
  accept_transfer: () => lifecycleInstruction({ kind: 'accept', tag: 'alice', newOwner: world.bob }),
  release_tag: () =>
    lifecycleInstruction({ kind: 'release', tag: 'alice', owner: world.alice, receiver: world.bob.address }),
};

type Outcome = RegistryErrorName | 'success';
/** [instruction, the position whose account is repeated, the position it replaces, what happens]. */
type Case = [RegistryInstructionName, number, number, Outcome];
const CASES: Case[] = [
  ['register_tag', 0, 1, 'OwnerNotSigner'],
  ['register_tag', 0, 2, 'FeePayerNotSigner'],
  ['register_tag', 0, 3, 'InvalidSystemProgram'],
  ['register_tag', 1, 0, 'InvalidTagRecordAddress'],
  ['register_tag', 1, 2, 'success'], // the owner pays
  ['register_tag', 1, 3, 'InvalidSystemProgram'],
  ['register_tag', 2, 0, 'InvalidTagRecordAddress'],
  ['register_tag', 2, 1, 'success'], // the sponsor registers for itself
  ['register_tag', 2, 3, 'InvalidSystemProgram'],
  ['register_tag', 3, 0, 'TagRecordNotWritable'], // the runtime demotes a builtin program to read-only
  ['register_tag', 3, 1, 'OwnerNotSigner'],
  ['register_tag', 3, 2, 'FeePayerNotSigner'],
  // Position 4, the payout wallet, must be the wallet argument (bob), whichever account replaces it.
  ...[0, 1, 2, 3].map((from): Case => ['register_tag', from, 4, 'WalletAccountMismatch']),
  ['register_tag', 4, 0, 'InvalidTagRecordAddress'],
  ['register_tag', 4, 1, 'success'], // the wallet registers for itself
  ['register_tag', 4, 2, 'success'], // the wallet pays
  ['register_tag', 4, 3, 'InvalidSystemProgram'],
  ['set_wallet', 0, 2, 'WalletAccountMismatch'],
  ['set_wallet', 1, 2, 'WalletAccountMismatch'],
  ['set_wallet', 2, 0, 'TagRecordNotProgramOwned'],
  ['set_wallet', 2, 1, 'NotTagOwner'], // the wallet signs as if it owned the tag
  ...(['set_wallet', 'offer_transfer', 'cancel_transfer'] as const).flatMap((name): Case[] => [
    [name, 0, 1, 'OwnerNotSigner'], // a PDA cannot sign
    [name, 1, 0, 'TagRecordNotProgramOwned'],
  ]),
  ['accept_transfer', 0, 1, 'NewOwnerNotSigner'],
  ['accept_transfer', 1, 0, 'TagRecordNotProgramOwned'],
  ['release_tag', 0, 1, 'OwnerNotSigner'],
  ['release_tag', 0, 2, 'ReceiverIsTagRecord'],
  ['release_tag', 1, 0, 'TagRecordNotProgramOwned'],
  ['release_tag', 1, 2, 'success'], // the owner receives the lamports
  ['release_tag', 2, 0, 'TagRecordNotProgramOwned'],
  ['release_tag', 2, 1, 'NotTagOwner'], // the receiver signs as if it owned the tag
];

const HOLDERS = () => [world.alice, world.bob, world.sponsor];

/** `ix` with position `to` holding the account of position `from`; it signs only if we hold its key. */
function duplicate(ix: FullInstruction, from: number, to: number): { ix: FullInstruction; signers: Signer[] } {
  const key = ix.accounts[from]!.address;
  const holder = HOLDERS().find((k) => k.address === key);
  const keys = ix.accounts.map((meta, i) =>
    i === to ? withSigner(meta, key, isSignerRole(meta.role) && holder !== undefined) : meta,
  );
  const signers = HOLDERS().filter((k) => keys.some((m) => isSignerRole(m.role) && m.address === k.address));
  return {
    ix: rawInstruction(keys, ix.data),
    signers: [world.sponsor, ...signers.filter((k) => k !== world.sponsor)],
  };
}

/** `meta` moved to `address`, signing as `signer` says, writable as it was. */
function withSigner(meta: FullInstruction['accounts'][number], address: Address, signer: boolean) {
  return accountMeta(address, signer, isWritableRole(meta.role));
}

/** Every account but the fee payer (whose lamports pay the fee), as it is now. */
function accountsState(keys: Address[]) {
  return keys.filter((k) => k !== world.sponsor.address).map((k) => snapshot(world.svm, k));
}

describe('duplicate accounts', () => {
  it.each(CASES)('%s with position %i repeated in position %i: %s', (name, from, to, outcome) => {
    const original = CALLS[name]();
    const { ix, signers } = duplicate(original, from, to);
    const touched = [...original.accounts.map((k) => k.address), findTagRecordAddress('carol', programId)[0]];
    const before = accountsState(touched);
    const result = send(world.svm, [ix], world.sponsor.address, signers);

    if (outcome === 'success') {
      expectSuccess(result);
    } else {
      expectRefusal(result, outcome);
      expect(accountsState(touched)).toEqual(before);
    }
    // Whatever happened, every account the program owns is a well-formed record at its PDA.
    for (const account of world.svm.getProgramAccounts(programId)) {
      const record = parseTagRecord(new Uint8Array(account.data));
      expect(record).not.toBeNull();
      expect(findTagRecordAddress(record!.tag, programId)[0]).toBe(account.address);
    }
  });

  it('register_tag with the owner paying: one key, the record owned by it', () => {
    const { ix, signers } = duplicate(CALLS.register_tag(), 1, 2);
    expectSuccess(send(world.svm, [ix], world.sponsor.address, signers));
    expect(recordAt(world.svm, findTagRecordAddress('carol', programId)[0]).owner).toEqual(world.alice.address);
  });

  it('release_tag with the owner as receiver: the owner gets every lamport above the deposit, the record rests', () => {
    const extra = 777_000n;
    expectSuccess(
      send(world.svm, [transferInstruction(world.sponsor.address, world.tagRecord, extra)], world.sponsor.address, [
        world.sponsor,
      ]),
    );
    const record = accountData(world.svm, world.tagRecord)!.lamports;
    const before = accountData(world.svm, world.alice.address)!.lamports;
    const { ix, signers } = duplicate(CALLS.release_tag(), 1, 2);
    expectSuccess(send(world.svm, [ix], world.sponsor.address, signers));
    expect(accountData(world.svm, world.alice.address)!.lamports).toBe(before + extra);
    expect(accountData(world.svm, world.tagRecord)!.lamports).toBe(record - extra);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.alice.address,
      pendingOwner: world.alice.address,
      wallet: SYSTEM_PROGRAM_ADDRESS,
    });
  });

  it('release_tag with the record in all three positions: OwnerNotSigner, nothing moves', () => {
    const keys = CALLS.release_tag().accounts.map((meta) => withSigner(meta, world.tagRecord, false));
    const before = snapshot(world.svm, world.tagRecord);
    const result = send(world.svm, [rawInstruction(keys, CALLS.release_tag().data)], world.sponsor.address, [
      world.sponsor,
    ]);
    expectRefusal(result, 'OwnerNotSigner');
    expect(snapshot(world.svm, world.tagRecord)).toEqual(before);
  });

  it('a lifecycle call on the System Program id as record: TagRecordNotProgramOwned', () => {
    const ix = lifecycleInstruction(
      { kind: 'set_wallet', tag: 'alice', owner: world.alice, wallet: world.bob },
      SYSTEM_PROGRAM_ADDRESS,
    );
    expectRefusal(
      send(world.svm, [ix], world.sponsor.address, [world.sponsor, world.alice, world.bob]),
      'TagRecordNotProgramOwned',
    );
  });
});
