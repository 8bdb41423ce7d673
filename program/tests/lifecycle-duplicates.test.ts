// One account passed in two positions, for every ordered pair of positions of every
// instruction: the call fails with its own code, or does exactly what it says. A refused
// call changes no account; none ever leaves a corrupt record.
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeTagRecord } from '@/lib/registry/account';
import { type RegistryErrorName } from '@/lib/registry/errors';
import { acceptTransferInstruction, cancelTransferInstruction, offerTransferInstruction, registerTagInstruction, releaseTagInstruction, setWalletInstruction, type RegistryInstructionName } from '@/lib/registry/instruction';
import { findTagRecordAddress } from '@/lib/registry/pda';
import { accountData, expectSuccess, fundedKeypair, PROGRAM_ID, send, toAddress } from '@/program/litesvm-harness';
import { aliceHoldsTag, expectRefusal, recordAt, snapshot } from './lifecycle-support';

const programId = PROGRAM_ID;
let svm: LiteSVM;
let alice: Keypair;
let bob: Keypair;
let sponsor: Keypair;
let tagRecord: PublicKey;

beforeEach(() => {
  ({ svm, alice, bob, tagRecord } = aliceHoldsTag());
  sponsor = fundedKeypair(svm);
  // A standing offer to bob, so cancel and accept could succeed but for the duplicate.
  expectSuccess(send(svm, [offerTransferInstruction({ programId, tagRecord, owner: alice.publicKey, newOwner: bob.publicKey })], alice.publicKey, [alice]));
});

/** Each instruction as its rightful signer sends it; register_tag for a fresh tag, paid by the sponsor. */
const CALLS: Record<RegistryInstructionName, () => TransactionInstruction> = {
  register_tag: () => registerTagInstruction({ programId, tag: 'carol', owner: alice.publicKey, wallet: alice.publicKey, feePayer: sponsor.publicKey }),
  set_wallet: () => setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: Keypair.generate().publicKey }),
  offer_transfer: () => offerTransferInstruction({ programId, tagRecord, owner: alice.publicKey, newOwner: sponsor.publicKey }),
  cancel_transfer: () => cancelTransferInstruction({ programId, tagRecord, owner: alice.publicKey }),
  accept_transfer: () => acceptTransferInstruction({ programId, tagRecord, newOwner: bob.publicKey }),
  release_tag: () => releaseTagInstruction({ programId, tagRecord, owner: alice.publicKey, receiver: bob.publicKey }),
};

type Outcome = RegistryErrorName | 'success';
/** [instruction, the position whose account is repeated, the position it replaces, what happens]. */
const CASES: Array<[RegistryInstructionName, number, number, Outcome]> = [
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
  ...(['set_wallet', 'offer_transfer', 'cancel_transfer'] as const).flatMap((name): Array<[RegistryInstructionName, number, number, Outcome]> => [
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

const HOLDERS = () => [alice, bob, sponsor];

/** `ix` with position `to` holding the account of position `from`; it signs only if we hold its key. */
function duplicate(ix: TransactionInstruction, from: number, to: number): { ix: TransactionInstruction; signers: Keypair[] } {
  const key = ix.keys[from].pubkey;
  const holder = HOLDERS().find((k) => k.publicKey.equals(key));
  const keys = ix.keys.map((meta, i) => (i === to ? { ...meta, pubkey: key, isSigner: meta.isSigner && holder !== undefined } : meta));
  const signers = HOLDERS().filter((k) => keys.some((m) => m.isSigner && m.pubkey.equals(k.publicKey)));
  return { ix: new TransactionInstruction({ programId, keys, data: ix.data }), signers: [sponsor, ...signers.filter((k) => k !== sponsor)] };
}

/** Every account but the fee payer (whose lamports pay the fee), as it is now. */
function accountsState(keys: PublicKey[]) {
  return keys.filter((k) => !k.equals(sponsor.publicKey)).map((k) => snapshot(svm, k));
}

describe('duplicate accounts', () => {
  it.each(CASES)('%s with position %i repeated in position %i: %s', (name, from, to, outcome) => {
    const original = CALLS[name]();
    const { ix, signers } = duplicate(original, from, to);
    const touched = [...original.keys.map((k) => k.pubkey), findTagRecordAddress('carol', programId)[0]];
    const before = accountsState(touched);
    const result = send(svm, [ix], sponsor.publicKey, signers);

    if (outcome === 'success') {
      expectSuccess(result);
    } else {
      expectRefusal(result, outcome);
      expect(accountsState(touched)).toEqual(before);
    }
    // Whatever happened, every account the program owns is a well-formed record at its PDA.
    for (const account of svm.getProgramAccounts(toAddress(programId))) {
      const record = decodeTagRecord(new Uint8Array(account.data));
      expect(record).not.toBeNull();
      expect(findTagRecordAddress(record!.tag, programId)[0].toBase58()).toBe(account.address);
    }
  });

  it('register_tag with the owner paying: one key, the record owned by it', () => {
    const { ix, signers } = duplicate(CALLS.register_tag(), 1, 2);
    expectSuccess(send(svm, [ix], sponsor.publicKey, signers));
    expect(recordAt(svm, findTagRecordAddress('carol', programId)[0]).owner).toEqual(alice.publicKey);
  });

  it('release_tag with the owner as receiver: the owner gets every lamport, the record is gone', () => {
    const rent = accountData(svm, tagRecord)!.lamports;
    const before = accountData(svm, alice.publicKey)!.lamports;
    const { ix, signers } = duplicate(CALLS.release_tag(), 1, 2);
    expectSuccess(send(svm, [ix], sponsor.publicKey, signers));
    expect(accountData(svm, alice.publicKey)!.lamports).toBe(before + rent);
    expect(accountData(svm, tagRecord)).toBeNull();
  });

  it('release_tag with the record in all three positions: OwnerNotSigner, nothing moves', () => {
    const keys = CALLS.release_tag().keys.map((meta) => ({ ...meta, pubkey: tagRecord, isSigner: false }));
    const before = snapshot(svm, tagRecord);
    const result = send(svm, [new TransactionInstruction({ programId, keys, data: CALLS.release_tag().data })], sponsor.publicKey, [sponsor]);
    expectRefusal(result, 'OwnerNotSigner');
    expect(snapshot(svm, tagRecord)).toEqual(before);
  });

  it('a lifecycle call on the System Program id as record: TagRecordNotProgramOwned', () => {
    const ix = setWalletInstruction({ programId, tagRecord: SystemProgram.programId, owner: alice.publicKey, wallet: bob.publicKey });
    expectRefusal(send(svm, [ix], sponsor.publicKey, [sponsor, alice]), 'TagRecordNotProgramOwned');
  });
});
