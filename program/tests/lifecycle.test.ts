// The tag lifecycle on its happy paths, in LiteSVM with every feature on, against the
// committed program/tag_registry.so: set_wallet, offer / cancel / accept, release and
// registering the same tag again.
import { Keypair, SystemProgram, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { beforeEach, describe, expect, it } from 'vitest';
import { TAG_RECORD_SIZE } from '@/lib/registry/account';
import { acceptTransferInstruction, cancelTransferInstruction, offerTransferInstruction, registerTagInstruction, releaseTagInstruction, setWalletInstruction } from '@/lib/registry/instruction';
import { findTagRecordAddress } from '@/lib/registry/pda';
import { accountData, balance, expectSuccess, FEE_PER_SIGNATURE, fundedKeypair, PROGRAM_ID, send, toAddress } from '@/program/litesvm-harness';
import { aliceHoldsTag, expectRefusal, recordAt, registerTag } from './lifecycle-support';

const programId = PROGRAM_ID;
let svm: LiteSVM;
let alice: Keypair;
let bob: Keypair;
let tagRecord: PublicKey;

beforeEach(() => {
  ({ svm, alice, bob, tagRecord } = aliceHoldsTag());
});

const offer = (to: PublicKey, from = alice) =>
  send(svm, [offerTransferInstruction({ programId, tagRecord, owner: from.publicKey, newOwner: to })], from.publicKey, [from]);
const accept = (by: Keypair) => send(svm, [acceptTransferInstruction({ programId, tagRecord, newOwner: by.publicKey })], by.publicKey, [by]);

describe('register_tag writes the 149-byte record', () => {
  it('with no offer standing', () => {
    const account = accountData(svm, tagRecord)!;
    expect(account.data.length).toBe(TAG_RECORD_SIZE);
    expect(recordAt(svm, tagRecord)).toMatchObject({ pendingOwner: null, tag: 'alice', bump: findTagRecordAddress('alice', programId)[1] });
  });
});

describe('set_wallet', () => {
  it('changes the payout wallet and nothing else', () => {
    const before = recordAt(svm, tagRecord);
    const lamports = accountData(svm, tagRecord)!.lamports;
    const wallet = Keypair.generate().publicKey;
    const result = expectSuccess(send(svm, [setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet })], alice.publicKey, [alice]));
    expect(result.logs()).toContain('Program log: set_wallet: alice');
    expect(recordAt(svm, tagRecord)).toEqual({ ...before, wallet });
    expect(accountData(svm, tagRecord)!.lamports).toBe(lamports);
  });

  it('works with a sponsor paying the fee (the owner only signs)', () => {
    const sponsor = fundedKeypair(svm);
    const ownerBefore = balance(svm, alice.publicKey);
    const wallet = Keypair.generate().publicKey;
    expectSuccess(send(svm, [setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet })], sponsor.publicKey, [alice, sponsor]));
    expect(recordAt(svm, tagRecord).wallet).toEqual(wallet);
    expect(balance(svm, alice.publicKey)).toBe(ownerBefore);
  });
});

describe('offer_transfer and cancel_transfer', () => {
  it('an offer names the pending owner; the owner stays the owner', () => {
    const result = expectSuccess(offer(bob.publicKey));
    expect(result.logs()).toContain('Program log: offer_transfer: alice');
    const record = recordAt(svm, tagRecord);
    expect(record.pendingOwner).toEqual(bob.publicKey);
    expect(record.owner).toEqual(alice.publicKey);
    expect(record.wallet).toEqual(alice.publicKey);
  });

  it('a new offer replaces the earlier one, which can then no longer be accepted', () => {
    const carol = fundedKeypair(svm);
    expectSuccess(offer(bob.publicKey));
    expectSuccess(offer(carol.publicKey));
    expect(recordAt(svm, tagRecord).pendingOwner).toEqual(carol.publicKey);
    expectRefusal(accept(bob), 'NotPendingOwner');
  });

  it('cancel clears the offer, and the named key can no longer accept', () => {
    expectSuccess(offer(bob.publicKey));
    const result = expectSuccess(send(svm, [cancelTransferInstruction({ programId, tagRecord, owner: alice.publicKey })], alice.publicKey, [alice]));
    expect(result.logs()).toContain('Program log: cancel_transfer: alice');
    expect(recordAt(svm, tagRecord).pendingOwner).toBeNull();
    expectRefusal(accept(bob), 'NoOfferToAccept');
  });
});

describe('accept_transfer', () => {
  it('makes the pending owner the owner and its payout wallet, and clears the offer', () => {
    const wallet = Keypair.generate().publicKey;
    expectSuccess(send(svm, [setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet })], alice.publicKey, [alice]));
    const before = recordAt(svm, tagRecord);
    expectSuccess(offer(bob.publicKey));
    const result = expectSuccess(accept(bob));
    expect(result.logs()).toContain('Program log: accept_transfer: alice');
    // Payments now reach the new owner, not the old owner's wallet.
    expect(recordAt(svm, tagRecord)).toEqual({ ...before, owner: bob.publicKey, wallet: bob.publicKey, pendingOwner: null });
  });

  it('hands over authority: the old owner is refused, the new one manages the tag', () => {
    expectSuccess(offer(bob.publicKey));
    expectSuccess(accept(bob));
    const wallet = Keypair.generate().publicKey;
    expectRefusal(send(svm, [setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet })], alice.publicKey, [alice]), 'NotTagOwner');
    expectSuccess(send(svm, [setWalletInstruction({ programId, tagRecord, owner: bob.publicKey, wallet })], bob.publicKey, [bob]));
    expect(recordAt(svm, tagRecord).wallet).toEqual(wallet);
    // And the tag can go back: bob offers it to alice, who accepts.
    expectSuccess(offer(alice.publicKey, bob));
    expectSuccess(accept(alice));
    expect(recordAt(svm, tagRecord)).toMatchObject({ owner: alice.publicKey, wallet: alice.publicKey, pendingOwner: null });
  });
});

describe('release_tag', () => {
  function release(owner: Keypair, receiver: PublicKey) {
    return send(svm, [releaseTagInstruction({ programId, tagRecord, owner: owner.publicKey, receiver })], owner.publicKey, [owner]);
  }

  it('pays every lamport to the receiver and leaves no account, no data', () => {
    const receiver = Keypair.generate().publicKey;
    const rent = accountData(svm, tagRecord)!.lamports;
    const result = expectSuccess(release(alice, receiver));
    expect(result.logs()).toContain('Program log: release_tag: alice');
    expect(balance(svm, receiver)).toBe(rent);
    expect(balance(svm, tagRecord)).toBe(0n);
    expect(accountData(svm, tagRecord)).toBeNull();
    expect(svm.getProgramAccounts(toAddress(programId))).toEqual([]);
  });

  it('pays the owner when the owner is the receiver (one account in two positions)', () => {
    const rent = accountData(svm, tagRecord)!.lamports;
    const before = balance(svm, alice.publicKey);
    expectSuccess(release(alice, alice.publicKey));
    expect(balance(svm, alice.publicKey)).toBe(before + rent - FEE_PER_SIGNATURE);
    expect(accountData(svm, tagRecord)).toBeNull();
  });

  it('lets the same tag be registered again, as a new record', () => {
    expectSuccess(offer(bob.publicKey));
    expectSuccess(release(alice, alice.publicKey));
    const clock = svm.getClock();
    clock.unixTimestamp = 1_800_000_000n;
    svm.setClock(clock);

    const again = registerTag(svm, 'alice', bob);
    expect(again).toEqual(tagRecord);
    expect(recordAt(svm, tagRecord)).toMatchObject({ owner: bob.publicKey, wallet: bob.publicKey, pendingOwner: null, registeredAt: 1_800_000_000n });
  });

  it('ends a standing offer: the pending owner finds no record to accept', () => {
    expectSuccess(offer(bob.publicKey));
    expectSuccess(release(alice, alice.publicKey));
    expectRefusal(accept(bob), 'TagRecordNotProgramOwned');
  });

  it('an address revived after release (lamports sent to it) is an empty system account, and registers again', () => {
    const ixs = [
      releaseTagInstruction({ programId, tagRecord, owner: alice.publicKey, receiver: alice.publicKey }),
      SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: tagRecord, lamports: 1_000_000 }),
    ];
    expectSuccess(send(svm, ixs, alice.publicKey, [alice]));
    const revived = accountData(svm, tagRecord)!;
    expect(revived).toMatchObject({ lamports: 1_000_000n, owner: SystemProgram.programId });
    expect(revived.data.length).toBe(0);
    registerTag(svm, 'alice', bob);
    expect(recordAt(svm, tagRecord)).toMatchObject({ owner: bob.publicKey, pendingOwner: null });
  });

  it('release then register in one transaction', () => {
    const ixs = [
      releaseTagInstruction({ programId, tagRecord, owner: alice.publicKey, receiver: alice.publicKey }),
      registerTagInstruction({ programId, tag: 'alice', owner: bob.publicKey, wallet: bob.publicKey, feePayer: alice.publicKey }),
    ];
    expectSuccess(send(svm, ixs, alice.publicKey, [alice, bob]));
    expect(recordAt(svm, tagRecord)).toMatchObject({ owner: bob.publicKey, pendingOwner: null, tag: 'alice' });
    expect(accountData(svm, tagRecord)!.data.length).toBe(TAG_RECORD_SIZE);
  });
});

describe('compute units', () => {
  it('each lifecycle instruction stays under 3,000 CU', () => {
    const carol = fundedKeypair(svm);
    const calls: Array<[string, TransactionInstruction, Keypair]> = [
      ['set_wallet', setWalletInstruction({ programId, tagRecord, owner: alice.publicKey, wallet: carol.publicKey }), alice],
      ['offer_transfer', offerTransferInstruction({ programId, tagRecord, owner: alice.publicKey, newOwner: carol.publicKey }), alice],
      ['cancel_transfer', cancelTransferInstruction({ programId, tagRecord, owner: alice.publicKey }), alice],
      ['offer_transfer', offerTransferInstruction({ programId, tagRecord, owner: alice.publicKey, newOwner: bob.publicKey }), alice],
      ['accept_transfer', acceptTransferInstruction({ programId, tagRecord, newOwner: bob.publicKey }), bob],
      ['release_tag', releaseTagInstruction({ programId, tagRecord, owner: bob.publicKey, receiver: carol.publicKey }), bob],
    ];
    for (const [name, ix, signer] of calls) {
      const units = expectSuccess(send(svm, [ix], signer.publicKey, [signer])).computeUnitsConsumed();
      expect(units, name).toBeLessThan(3_000n);
    }
  });
});
