// The tag lifecycle on its happy paths, in LiteSVM with every feature on, against the
// committed program/tag_registry.so: set_wallet, offer / cancel / accept. Release, the rest
// and registering the tag again: resting.test.ts.
import type { Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { generateSigner, type Signer } from '@/program/deploy/keys';
import { findTagRecordAddress } from '@/program/pda';
import { accountData, balance, expectSuccess, fundedKeypair, PROGRAM_ID } from '@/program/litesvm-harness';
import {
  aliceHoldsTag,
  expectRefusal,
  freshForEachTest,
  recordAt,
  sendCall,
  type LifecycleCall,
} from './lifecycle-support';

const world = freshForEachTest(aliceHoldsTag);

const offer = (to: Address, from = world.alice) =>
  sendCall(world.svm, { kind: 'offer', tag: 'alice', owner: from, newOwner: to });
const accept = (by: Signer) => sendCall(world.svm, { kind: 'accept', tag: 'alice', newOwner: by });
const setWallet = (wallet: Signer, owner = world.alice, payer?: Signer) =>
  sendCall(world.svm, { kind: 'set_wallet', tag: 'alice', owner, wallet }, payer);

describe('register_tag writes the 149-byte record', () => {
  it('with no offer standing', () => {
    const account = accountData(world.svm, world.tagRecord)!;
    expect(account.data.length).toBe(TAG_RECORD_SIZE);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      pendingOwner: null,
      tag: 'alice',
      bump: findTagRecordAddress('alice', PROGRAM_ID)[1],
    });
  });
});

describe('set_wallet', () => {
  it('changes the payout wallet and nothing else', () => {
    const before = recordAt(world.svm, world.tagRecord);
    const lamports = accountData(world.svm, world.tagRecord)!.lamports;
    const wallet = generateSigner();
    const result = expectSuccess(setWallet(wallet));
    expect(result.logs()).toContain('Program log: set_wallet: alice');
    expect(recordAt(world.svm, world.tagRecord)).toEqual({ ...before, wallet: wallet.address });
    expect(accountData(world.svm, world.tagRecord)!.lamports).toBe(lamports);
  });

  it('works with a sponsor paying the fee (the owner only signs)', () => {
    const sponsor = fundedKeypair(world.svm);
    const ownerBefore = balance(world.svm, world.alice.address);
    const wallet = generateSigner();
    expectSuccess(setWallet(wallet, world.alice, sponsor));
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(wallet.address);
    expect(balance(world.svm, world.alice.address)).toBe(ownerBefore);
  });
});

describe('offer_transfer and cancel_transfer', () => {
  it('an offer names the pending owner; the owner stays the owner', () => {
    const result = expectSuccess(offer(world.bob.address));
    expect(result.logs()).toContain('Program log: offer_transfer: alice');
    const record = recordAt(world.svm, world.tagRecord);
    expect(record.pendingOwner).toEqual(world.bob.address);
    expect(record.owner).toEqual(world.alice.address);
    expect(record.wallet).toEqual(world.alice.address);
  });

  it('a new offer replaces the earlier one, which can then no longer be accepted', () => {
    const carol = fundedKeypair(world.svm);
    expectSuccess(offer(world.bob.address));
    expectSuccess(offer(carol.address));
    expect(recordAt(world.svm, world.tagRecord).pendingOwner).toEqual(carol.address);
    expectRefusal(accept(world.bob), 'NotPendingOwner');
  });

  it('cancel clears the offer, and the named key can no longer accept', () => {
    expectSuccess(offer(world.bob.address));
    const result = expectSuccess(sendCall(world.svm, { kind: 'cancel', tag: 'alice', owner: world.alice }));
    expect(result.logs()).toContain('Program log: cancel_transfer: alice');
    expect(recordAt(world.svm, world.tagRecord).pendingOwner).toBeNull();
    expectRefusal(accept(world.bob), 'NoOfferToAccept');
  });
});

describe('accept_transfer', () => {
  it('makes the pending owner the owner and its payout wallet, and clears the offer', () => {
    expectSuccess(setWallet(generateSigner()));
    const before = recordAt(world.svm, world.tagRecord);
    expectSuccess(offer(world.bob.address));
    const result = expectSuccess(accept(world.bob));
    expect(result.logs()).toContain('Program log: accept_transfer: alice');
    // Payments now reach the new owner, not the old owner's wallet.
    expect(recordAt(world.svm, world.tagRecord)).toEqual({
      ...before,
      owner: world.bob.address,
      wallet: world.bob.address,
      pendingOwner: null,
    });
  });

  it('hands over authority: the old owner is refused, the new one manages the tag', () => {
    expectSuccess(offer(world.bob.address));
    expectSuccess(accept(world.bob));
    const wallet = generateSigner();
    expectRefusal(setWallet(wallet, world.alice), 'NotTagOwner');
    expectSuccess(setWallet(wallet, world.bob));
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(wallet.address);
    // And the tag can go back: bob offers it to alice, who accepts.
    expectSuccess(offer(world.alice.address, world.bob));
    expectSuccess(accept(world.alice));
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.alice.address,
      wallet: world.alice.address,
      pendingOwner: null,
    });
  });
});

describe('compute units', () => {
  it('each lifecycle instruction stays under 3,000 CU', () => {
    const carol = fundedKeypair(world.svm);
    const calls: Array<[string, LifecycleCall]> = [
      ['set_wallet', { kind: 'set_wallet', tag: 'alice', owner: world.alice, wallet: world.alice }],
      ['offer_transfer', { kind: 'offer', tag: 'alice', owner: world.alice, newOwner: carol.address }],
      ['cancel_transfer', { kind: 'cancel', tag: 'alice', owner: world.alice }],
      ['offer_transfer', { kind: 'offer', tag: 'alice', owner: world.alice, newOwner: world.bob.address }],
      ['accept_transfer', { kind: 'accept', tag: 'alice', newOwner: world.bob }],
      ['release_tag', { kind: 'release', tag: 'alice', owner: world.bob, receiver: carol.address }],
    ];
    for (const [name, call] of calls) {
      const units = expectSuccess(sendCall(world.svm, call)).computeUnitsConsumed();
      expect(units, name).toBeLessThan(3_000n);
    }
  });
});
