// The tag lifecycle on its happy paths, in LiteSVM with every feature on, against the
// committed program/tag_registry.so: set_wallet, offer / cancel / accept, release and
// registering the same tag again.
import { Keypair, SystemProgram, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { acceptTransferInstruction, cancelTransferInstruction, findTagRecordAddress, offerTransferInstruction, registerTagInstruction, releaseTagInstruction, setWalletInstruction } from '@/packages/tag-registry/src/web3js';
import { accountData, balance, expectSuccess, FEE_PER_SIGNATURE, fundedKeypair, PROGRAM_ID, send, toAddress } from '@/program/litesvm-harness';
import { aliceHoldsTag, expectRefusal, freshForEachTest, recordAt, registerTag } from './lifecycle-support';

const programId = PROGRAM_ID;
const world = freshForEachTest(aliceHoldsTag);

const offer = (to: PublicKey, from = world.alice) =>
  send(world.svm, [offerTransferInstruction({ programId, tagRecord: world.tagRecord, owner: from.publicKey, newOwner: to })], from.publicKey, [from]);
const accept = (by: Keypair) => send(world.svm, [acceptTransferInstruction({ programId, tagRecord: world.tagRecord, newOwner: by.publicKey })], by.publicKey, [by]);

describe('register_tag writes the 149-byte record', () => {
  it('with no offer standing', () => {
    const account = accountData(world.svm, world.tagRecord)!;
    expect(account.data.length).toBe(TAG_RECORD_SIZE);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({ pendingOwner: null, tag: 'alice', bump: findTagRecordAddress('alice', programId)[1] });
  });
});

describe('set_wallet', () => {
  it('changes the payout wallet and nothing else', () => {
    const before = recordAt(world.svm, world.tagRecord);
    const lamports = accountData(world.svm, world.tagRecord)!.lamports;
    const wallet = Keypair.generate().publicKey;
    const result = expectSuccess(send(world.svm, [setWalletInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, wallet })], world.alice.publicKey, [world.alice]));
    expect(result.logs()).toContain('Program log: set_wallet: alice');
    expect(recordAt(world.svm, world.tagRecord)).toEqual({ ...before, wallet });
    expect(accountData(world.svm, world.tagRecord)!.lamports).toBe(lamports);
  });

  it('works with a sponsor paying the fee (the owner only signs)', () => {
    const sponsor = fundedKeypair(world.svm);
    const ownerBefore = balance(world.svm, world.alice.publicKey);
    const wallet = Keypair.generate().publicKey;
    expectSuccess(send(world.svm, [setWalletInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, wallet })], sponsor.publicKey, [world.alice, sponsor]));
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(wallet);
    expect(balance(world.svm, world.alice.publicKey)).toBe(ownerBefore);
  });
});

describe('offer_transfer and cancel_transfer', () => {
  it('an offer names the pending owner; the owner stays the owner', () => {
    const result = expectSuccess(offer(world.bob.publicKey));
    expect(result.logs()).toContain('Program log: offer_transfer: alice');
    const record = recordAt(world.svm, world.tagRecord);
    expect(record.pendingOwner).toEqual(world.bob.publicKey);
    expect(record.owner).toEqual(world.alice.publicKey);
    expect(record.wallet).toEqual(world.alice.publicKey);
  });

  it('a new offer replaces the earlier one, which can then no longer be accepted', () => {
    const carol = fundedKeypair(world.svm);
    expectSuccess(offer(world.bob.publicKey));
    expectSuccess(offer(carol.publicKey));
    expect(recordAt(world.svm, world.tagRecord).pendingOwner).toEqual(carol.publicKey);
    expectRefusal(accept(world.bob), 'NotPendingOwner');
  });

  it('cancel clears the offer, and the named key can no longer accept', () => {
    expectSuccess(offer(world.bob.publicKey));
    const result = expectSuccess(send(world.svm, [cancelTransferInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey })], world.alice.publicKey, [world.alice]));
    expect(result.logs()).toContain('Program log: cancel_transfer: alice');
    expect(recordAt(world.svm, world.tagRecord).pendingOwner).toBeNull();
    expectRefusal(accept(world.bob), 'NoOfferToAccept');
  });
});

describe('accept_transfer', () => {
  it('makes the pending owner the owner and its payout wallet, and clears the offer', () => {
    const wallet = Keypair.generate().publicKey;
    expectSuccess(send(world.svm, [setWalletInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, wallet })], world.alice.publicKey, [world.alice]));
    const before = recordAt(world.svm, world.tagRecord);
    expectSuccess(offer(world.bob.publicKey));
    const result = expectSuccess(accept(world.bob));
    expect(result.logs()).toContain('Program log: accept_transfer: alice');
    // Payments now reach the new owner, not the old owner's wallet.
    expect(recordAt(world.svm, world.tagRecord)).toEqual({ ...before, owner: world.bob.publicKey, wallet: world.bob.publicKey, pendingOwner: null });
  });

  it('hands over authority: the old owner is refused, the new one manages the tag', () => {
    expectSuccess(offer(world.bob.publicKey));
    expectSuccess(accept(world.bob));
    const wallet = Keypair.generate().publicKey;
    expectRefusal(send(world.svm, [setWalletInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, wallet })], world.alice.publicKey, [world.alice]), 'NotTagOwner');
    expectSuccess(send(world.svm, [setWalletInstruction({ programId, tagRecord: world.tagRecord, owner: world.bob.publicKey, wallet })], world.bob.publicKey, [world.bob]));
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(wallet);
    // And the tag can go back: bob offers it to alice, who accepts.
    expectSuccess(offer(world.alice.publicKey, world.bob));
    expectSuccess(accept(world.alice));
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({ owner: world.alice.publicKey, wallet: world.alice.publicKey, pendingOwner: null });
  });
});

describe('release_tag', () => {
  function release(owner: Keypair, receiver: PublicKey) {
    return send(world.svm, [releaseTagInstruction({ programId, tagRecord: world.tagRecord, owner: owner.publicKey, receiver })], owner.publicKey, [owner]);
  }

  it('pays every lamport to the receiver and leaves no account, no data', () => {
    const receiver = Keypair.generate().publicKey;
    const rent = accountData(world.svm, world.tagRecord)!.lamports;
    const result = expectSuccess(release(world.alice, receiver));
    expect(result.logs()).toContain('Program log: release_tag: alice');
    expect(balance(world.svm, receiver)).toBe(rent);
    expect(balance(world.svm, world.tagRecord)).toBe(0n);
    expect(accountData(world.svm, world.tagRecord)).toBeNull();
    expect(world.svm.getProgramAccounts(toAddress(programId))).toEqual([]);
  });

  it('pays the owner when the owner is the receiver (one account in two positions)', () => {
    const rent = accountData(world.svm, world.tagRecord)!.lamports;
    const before = balance(world.svm, world.alice.publicKey);
    expectSuccess(release(world.alice, world.alice.publicKey));
    expect(balance(world.svm, world.alice.publicKey)).toBe(before + rent - FEE_PER_SIGNATURE);
    expect(accountData(world.svm, world.tagRecord)).toBeNull();
  });

  it('lets the same tag be registered again, as a new record', () => {
    expectSuccess(offer(world.bob.publicKey));
    expectSuccess(release(world.alice, world.alice.publicKey));
    const clock = world.svm.getClock();
    clock.unixTimestamp = 1_800_000_000n;
    world.svm.setClock(clock);

    const again = registerTag(world.svm, 'alice', world.bob);
    expect(again).toEqual(world.tagRecord);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({ owner: world.bob.publicKey, wallet: world.bob.publicKey, pendingOwner: null, registeredAt: 1_800_000_000n });
  });

  it('ends a standing offer: the pending owner finds no record to accept', () => {
    expectSuccess(offer(world.bob.publicKey));
    expectSuccess(release(world.alice, world.alice.publicKey));
    expectRefusal(accept(world.bob), 'TagRecordNotProgramOwned');
  });

  it('an address revived after release (lamports sent to it) is an empty system account, and registers again', () => {
    const ixs = [
      releaseTagInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, receiver: world.alice.publicKey }),
      SystemProgram.transfer({ fromPubkey: world.alice.publicKey, toPubkey: world.tagRecord, lamports: 1_000_000 }),
    ];
    expectSuccess(send(world.svm, ixs, world.alice.publicKey, [world.alice]));
    const revived = accountData(world.svm, world.tagRecord)!;
    expect(revived).toMatchObject({ lamports: 1_000_000n, owner: SystemProgram.programId });
    expect(revived.data.length).toBe(0);
    registerTag(world.svm, 'alice', world.bob);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({ owner: world.bob.publicKey, pendingOwner: null });
  });

  it('release then register in one transaction', () => {
    const ixs = [
      releaseTagInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, receiver: world.alice.publicKey }),
      registerTagInstruction({ programId, tag: 'alice', owner: world.bob.publicKey, wallet: world.bob.publicKey, feePayer: world.alice.publicKey }),
    ];
    expectSuccess(send(world.svm, ixs, world.alice.publicKey, [world.alice, world.bob]));
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({ owner: world.bob.publicKey, pendingOwner: null, tag: 'alice' });
    expect(accountData(world.svm, world.tagRecord)!.data.length).toBe(TAG_RECORD_SIZE);
  });
});

describe('compute units', () => {
  it('each lifecycle instruction stays under 3,000 CU', () => {
    const carol = fundedKeypair(world.svm);
    const calls: Array<[string, TransactionInstruction, Keypair]> = [
      ['set_wallet', setWalletInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, wallet: carol.publicKey }), world.alice],
      ['offer_transfer', offerTransferInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, newOwner: carol.publicKey }), world.alice],
      ['cancel_transfer', cancelTransferInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey }), world.alice],
      ['offer_transfer', offerTransferInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey, newOwner: world.bob.publicKey }), world.alice],
      ['accept_transfer', acceptTransferInstruction({ programId, tagRecord: world.tagRecord, newOwner: world.bob.publicKey }), world.bob],
      ['release_tag', releaseTagInstruction({ programId, tagRecord: world.tagRecord, owner: world.bob.publicKey, receiver: carol.publicKey }), world.bob],
    ];
    for (const [name, ix, signer] of calls) {
      const units = expectSuccess(send(world.svm, [ix], signer.publicKey, [signer])).computeUnitsConsumed();
      expect(units, name).toBeLessThan(3_000n);
    }
  });
});
