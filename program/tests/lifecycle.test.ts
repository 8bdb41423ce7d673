// The tag lifecycle on its happy paths, in LiteSVM with every feature on, against the
// committed program/tag_registry.so: set_wallet, offer / cancel / accept. Release, the rest
// and registering the tag again: resting.test.ts.
import { Keypair, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import {
  acceptTransferInstruction,
  cancelTransferInstruction,
  offerTransferInstruction,
  releaseTagInstruction,
  setWalletInstruction,
  findTagRecordAddress,
} from '@/packages/tag-registry/src/web3js';
import { accountData, balance, expectSuccess, fundedKeypair, PROGRAM_ID, send } from '@/program/litesvm-harness';
import { aliceHoldsTag, expectRefusal, freshForEachTest, recordAt } from './lifecycle-support';

const programId = PROGRAM_ID;
const world = freshForEachTest(aliceHoldsTag);

const offer = (to: PublicKey, from = world.alice) =>
  send(
    world.svm,
    [offerTransferInstruction({ programId, tagRecord: world.tagRecord, owner: from.publicKey, newOwner: to })],
    from.publicKey,
    [from],
  );
const accept = (by: Keypair) =>
  send(
    world.svm,
    [acceptTransferInstruction({ programId, tagRecord: world.tagRecord, newOwner: by.publicKey })],
    by.publicKey,
    [by],
  );

describe('register_tag writes the 149-byte record', () => {
  it('with no offer standing', () => {
    const account = accountData(world.svm, world.tagRecord)!;
    expect(account.data.length).toBe(TAG_RECORD_SIZE);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      pendingOwner: null,
      tag: 'alice',
      bump: findTagRecordAddress('alice', programId)[1],
    });
  });
});

describe('set_wallet', () => {
  it('changes the payout wallet and nothing else', () => {
    const before = recordAt(world.svm, world.tagRecord);
    const lamports = accountData(world.svm, world.tagRecord)!.lamports;
    const wallet = Keypair.generate();
    const result = expectSuccess(
      send(
        world.svm,
        [
          setWalletInstruction({
            programId,
            tagRecord: world.tagRecord,
            owner: world.alice.publicKey,
            wallet: wallet.publicKey,
          }),
        ],
        world.alice.publicKey,
        [world.alice, wallet],
      ),
    );
    expect(result.logs()).toContain('Program log: set_wallet: alice');
    expect(recordAt(world.svm, world.tagRecord)).toEqual({ ...before, wallet: wallet.publicKey });
    expect(accountData(world.svm, world.tagRecord)!.lamports).toBe(lamports);
  });

  it('works with a sponsor paying the fee (the owner only signs)', () => {
    const sponsor = fundedKeypair(world.svm);
    const ownerBefore = balance(world.svm, world.alice.publicKey);
    const wallet = Keypair.generate();
    expectSuccess(
      send(
        world.svm,
        [
          setWalletInstruction({
            programId,
            tagRecord: world.tagRecord,
            owner: world.alice.publicKey,
            wallet: wallet.publicKey,
          }),
        ],
        sponsor.publicKey,
        [world.alice, wallet, sponsor],
      ),
    );
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(wallet.publicKey);
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
    const result = expectSuccess(
      send(
        world.svm,
        [cancelTransferInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey })],
        world.alice.publicKey,
        [world.alice],
      ),
    );
    expect(result.logs()).toContain('Program log: cancel_transfer: alice');
    expect(recordAt(world.svm, world.tagRecord).pendingOwner).toBeNull();
    expectRefusal(accept(world.bob), 'NoOfferToAccept');
  });
});

describe('accept_transfer', () => {
  it('makes the pending owner the owner and its payout wallet, and clears the offer', () => {
    const wallet = Keypair.generate();
    expectSuccess(
      send(
        world.svm,
        [
          setWalletInstruction({
            programId,
            tagRecord: world.tagRecord,
            owner: world.alice.publicKey,
            wallet: wallet.publicKey,
          }),
        ],
        world.alice.publicKey,
        [world.alice, wallet],
      ),
    );
    const before = recordAt(world.svm, world.tagRecord);
    expectSuccess(offer(world.bob.publicKey));
    const result = expectSuccess(accept(world.bob));
    expect(result.logs()).toContain('Program log: accept_transfer: alice');
    // Payments now reach the new owner, not the old owner's wallet.
    expect(recordAt(world.svm, world.tagRecord)).toEqual({
      ...before,
      owner: world.bob.publicKey,
      wallet: world.bob.publicKey,
      pendingOwner: null,
    });
  });

  it('hands over authority: the old owner is refused, the new one manages the tag', () => {
    expectSuccess(offer(world.bob.publicKey));
    expectSuccess(accept(world.bob));
    const wallet = Keypair.generate();
    expectRefusal(
      send(
        world.svm,
        [
          setWalletInstruction({
            programId,
            tagRecord: world.tagRecord,
            owner: world.alice.publicKey,
            wallet: wallet.publicKey,
          }),
        ],
        world.alice.publicKey,
        [world.alice, wallet],
      ),
      'NotTagOwner',
    );
    expectSuccess(
      send(
        world.svm,
        [
          setWalletInstruction({
            programId,
            tagRecord: world.tagRecord,
            owner: world.bob.publicKey,
            wallet: wallet.publicKey,
          }),
        ],
        world.bob.publicKey,
        [world.bob, wallet],
      ),
    );
    expect(recordAt(world.svm, world.tagRecord).wallet).toEqual(wallet.publicKey);
    // And the tag can go back: bob offers it to alice, who accepts.
    expectSuccess(offer(world.alice.publicKey, world.bob));
    expectSuccess(accept(world.alice));
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.alice.publicKey,
      wallet: world.alice.publicKey,
      pendingOwner: null,
    });
  });
});

describe('compute units', () => {
  it('each lifecycle instruction stays under 3,000 CU', () => {
    const carol = fundedKeypair(world.svm);
    const calls: Array<[string, TransactionInstruction, Keypair]> = [
      [
        'set_wallet',
        setWalletInstruction({
          programId,
          tagRecord: world.tagRecord,
          owner: world.alice.publicKey,
          wallet: world.alice.publicKey,
        }),
        world.alice,
      ],
      [
        'offer_transfer',
        offerTransferInstruction({
          programId,
          tagRecord: world.tagRecord,
          owner: world.alice.publicKey,
          newOwner: carol.publicKey,
        }),
        world.alice,
      ],
      [
        'cancel_transfer',
        cancelTransferInstruction({ programId, tagRecord: world.tagRecord, owner: world.alice.publicKey }),
        world.alice,
      ],
      [
        'offer_transfer',
        offerTransferInstruction({
          programId,
          tagRecord: world.tagRecord,
          owner: world.alice.publicKey,
          newOwner: world.bob.publicKey,
        }),
        world.alice,
      ],
      [
        'accept_transfer',
        acceptTransferInstruction({ programId, tagRecord: world.tagRecord, newOwner: world.bob.publicKey }),
        world.bob,
      ],
      [
        'release_tag',
        releaseTagInstruction({
          programId,
          tagRecord: world.tagRecord,
          owner: world.bob.publicKey,
          receiver: carol.publicKey,
        }),
        world.bob,
      ],
    ];
    for (const [name, ix, signer] of calls) {
      const units = expectSuccess(send(world.svm, [ix], signer.publicKey, [signer])).computeUnitsConsumed();
      expect(units, name).toBeLessThan(3_000n);
    }
  });
});
