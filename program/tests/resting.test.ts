// release_tag puts a tag to rest for 30 days (Clock unix_timestamp): only the previous owner
// may register it again meanwhile, anyone after; the previous owner may close the record
// once the rest is over. Every lamport accounted for (program/README.md "Where each lamport
// goes"). LiteSVM with every feature on, the committed .so.
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { Rent } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { instructionOf, type LifecycleCall } from '@/devstack/lifecycle-calls';
import { TAG_RECORD_OFFSETS, TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import {
  accountData,
  balance,
  expectSuccess,
  FEE_PER_SIGNATURE,
  fundedKeypair,
  PROGRAM_ID,
  REST_SECONDS,
  send,
  setUnixTime,
  type SendResult,
} from '@/program/litesvm-harness';
import {
  aliceHoldsTag,
  expectRefusal,
  freshForEachTest,
  offerAliceToBob,
  recordAt,
  sendCall,
  snapshot,
} from './lifecycle-support';

const RELEASED_AT = 1_800_000_000n;
/** Lamports someone sent to the record beyond its deposit: what release pays out. */
const EXTRA = 1_234_567n;

const world = freshForEachTest(() => {
  const start = aliceHoldsTag();
  const mallory = fundedKeypair(start.svm);
  // A standing offer to bob, so that the release visibly ends it.
  offerAliceToBob(start);
  return { ...start, mallory, deposit: start.svm.minimumBalanceForRentExemption(BigInt(TAG_RECORD_SIZE)) };
});

const release = (owner: Keypair, receiver: PublicKey, payer?: Keypair): SendResult =>
  sendCall(world.svm, { kind: 'release', tag: 'alice', owner, receiver }, payer);

/** register_tag of `alice` for `owner`, paid by `payer` (the instruction's fee payer), the payout wallet signing. */
function register(owner: Keypair, payer: Keypair = owner, wallet: Keypair = owner): SendResult {
  const ix = registerTagInstruction({
    programId: PROGRAM_ID,
    tag: 'alice',
    owner: owner.publicKey,
    wallet: wallet.publicKey,
    feePayer: payer.publicKey,
  });
  return send(world.svm, [ix], payer.publicKey, [payer, owner, wallet]);
}

/** Sends lamports to the record, as anyone may (a System transfer to a program-owned account). */
function fundRecord(lamports: bigint) {
  expectSuccess(
    send(
      world.svm,
      [SystemProgram.transfer({ fromPubkey: world.mallory.publicKey, toPubkey: world.tagRecord, lamports })],
      world.mallory.publicKey,
      [world.mallory],
    ),
  );
}

/** alice releases at RELEASED_AT, the record holding EXTRA above its deposit, to a fresh receiver. */
function releaseWithExtra(): PublicKey {
  fundRecord(EXTRA);
  setUnixTime(world.svm, RELEASED_AT);
  const receiver = Keypair.generate().publicKey;
  expectSuccess(release(world.alice, receiver));
  return receiver;
}

const rawRecord = () => accountData(world.svm, world.tagRecord)!.data;
const field = (data: Uint8Array, name: keyof typeof TAG_RECORD_OFFSETS) =>
  new PublicKey(data.subarray(TAG_RECORD_OFFSETS[name], TAG_RECORD_OFFSETS[name] + 32));

describe('release_tag puts the tag to rest', () => {
  it('keeps the record, resting: wallet zero, pending_owner = owner = the previous owner, registered_at = the release time', () => {
    fundRecord(EXTRA);
    setUnixTime(world.svm, RELEASED_AT);
    const result = expectSuccess(release(world.alice, Keypair.generate().publicKey));
    expect(result.logs()).toContain('Program log: release_tag: alice');
    const data = rawRecord();
    expect(data.length).toBe(TAG_RECORD_SIZE);
    expect(field(data, 'owner')).toEqual(world.alice.publicKey);
    expect(field(data, 'wallet')).toEqual(PublicKey.default);
    expect(field(data, 'pendingOwner')).toEqual(world.alice.publicKey);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({ tag: 'alice', registeredAt: RELEASED_AT });
    expect(accountData(world.svm, world.tagRecord)!.owner).toEqual(PROGRAM_ID);
  });

  it('pays the receiver every lamport above the deposit, and the record keeps exactly the deposit', () => {
    const receiver = releaseWithExtra();
    expect(balance(world.svm, receiver)).toBe(EXTRA);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
  });

  it('pays nothing when the record holds exactly its deposit', () => {
    const before = balance(world.svm, world.alice.publicKey);
    expectSuccess(release(world.alice, world.alice.publicKey));
    expect(balance(world.svm, world.alice.publicKey)).toBe(before - FEE_PER_SIGNATURE);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
  });

  it('pays the owner as receiver (one account in two positions), a sponsor paying the fee', () => {
    fundRecord(EXTRA);
    const sponsor = fundedKeypair(world.svm);
    const before = balance(world.svm, world.alice.publicKey);
    expectSuccess(release(world.alice, world.alice.publicKey, sponsor));
    expect(balance(world.svm, world.alice.publicKey)).toBe(before + EXTRA);
  });

  it('ends the standing offer: the pending owner is refused with TagReleased', () => {
    expectSuccess(release(world.alice, world.alice.publicKey));
    expectRefusal(sendCall(world.svm, { kind: 'accept', tag: 'alice', newOwner: world.bob }), 'TagReleased');
  });
});

describe('during the rest', () => {
  it.each([
    ['at once', 0n],
    ['one second before the 30 days end', REST_SECONDS - 1n],
  ])('refuses any other key %s with TagResting, and the record does not change', (_when, after) => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + after);
    const before = snapshot(world.svm, world.tagRecord);
    const payerBefore = balance(world.svm, world.bob.publicKey);
    expectRefusal(register(world.bob), 'TagResting');
    expect(snapshot(world.svm, world.tagRecord)).toEqual(before);
    expect(balance(world.svm, world.bob.publicKey)).toBe(payerBefore - FEE_PER_SIGNATURE);
  });

  it('refuses another key even with the previous owner paying (the owner account decides)', () => {
    releaseWithExtra();
    expectRefusal(register(world.bob, world.alice), 'TagResting');
  });

  it('lets the previous owner register it again: the record is rewritten in place, and the fee payer pays no rent', () => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + 86_400n);
    const wallet = Keypair.generate();
    const sponsor = fundedKeypair(world.svm);
    const sponsorBefore = balance(world.svm, sponsor.publicKey);
    const result = expectSuccess(register(world.alice, sponsor, wallet));
    expect(result.logs()).toContain('Program log: register_tag: alice');
    expect(result.innerInstructions()[0] ?? []).toHaveLength(0); // no System Program call at all
    expect(balance(world.svm, sponsor.publicKey)).toBe(sponsorBefore - 3n * FEE_PER_SIGNATURE);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.alice.publicKey,
      wallet: wallet.publicKey,
      pendingOwner: null,
      registeredAt: RELEASED_AT + 86_400n,
      tag: 'alice',
    });
  });

  it('lets the owner release and register again in one transaction', () => {
    const alice = world.alice;
    const ixs = [
      instructionOf({ kind: 'release', tag: 'alice', owner: alice, receiver: alice.publicKey }, PROGRAM_ID),
      instructionOf({ kind: 'register', tag: 'alice', owner: alice, wallet: alice }, PROGRAM_ID),
    ].map(({ instruction }) => instruction);
    expectSuccess(send(world.svm, ixs, alice.publicKey, [alice]));
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.alice.publicKey,
      wallet: world.alice.publicKey,
      pendingOwner: null,
    });
  });

  it('refuses the previous owner closing the record with TagResting, a stranger with NotTagOwner', () => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS - 1n);
    const before = snapshot(world.svm, world.tagRecord);
    expectRefusal(release(world.alice, world.alice.publicKey), 'TagResting');
    expectRefusal(release(world.mallory, world.mallory.publicKey), 'NotTagOwner');
    expect(snapshot(world.svm, world.tagRecord)).toEqual(before);
  });
});

/** Every lifecycle call but release_tag, as the previous owner would send it (accept as if offered to her). */
const OTHER_CALLS = (): LifecycleCall[] => [
  { kind: 'set_wallet', tag: 'alice', owner: world.alice, wallet: world.alice },
  { kind: 'offer', tag: 'alice', owner: world.alice, newOwner: world.bob.publicKey },
  { kind: 'cancel', tag: 'alice', owner: world.alice },
  { kind: 'accept', tag: 'alice', newOwner: world.alice },
];

describe('every other instruction on a resting record', () => {
  it.each([
    ['during the rest', 0n],
    ['after it', REST_SECONDS],
  ])('is refused with TagReleased %s, and changes nothing', (_when, after) => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + after);
    for (const call of OTHER_CALLS()) {
      const before = snapshot(world.svm, world.tagRecord);
      const result = sendCall(world.svm, call);
      expect(() => expectRefusal(result, 'TagReleased'), call.kind).not.toThrow();
      expect(snapshot(world.svm, world.tagRecord), call.kind).toEqual(before);
    }
  });
});

describe('after the rest', () => {
  it('anyone registers the tag the second the 30 days end; the record keeps the deposit, the fee payer pays no rent', () => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS);
    const before = balance(world.svm, world.bob.publicKey);
    expectSuccess(register(world.bob));
    expect(balance(world.svm, world.bob.publicKey)).toBe(before - FEE_PER_SIGNATURE);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.bob.publicKey,
      wallet: world.bob.publicKey,
      pendingOwner: null,
      registeredAt: RELEASED_AT + REST_SECONDS,
    });
    // A live record again: bob manages it, alice no longer can.
    expectRefusal(release(world.alice, world.alice.publicKey), 'NotTagOwner');
    expectSuccess(
      sendCall(world.svm, { kind: 'offer', tag: 'alice', owner: world.bob, newOwner: world.alice.publicKey }),
    );
  });

  it('tops the deposit up from the fee payer when the rent has grown since the release, and only by the difference', () => {
    releaseWithExtra();
    const rent = world.svm.getRent();
    world.svm.setRent(new Rent(rent.lamportsPerByteYear * 2n, rent.exemptionThreshold, rent.burnPercent));
    const grown = world.svm.minimumBalanceForRentExemption(BigInt(TAG_RECORD_SIZE));
    expect(grown).toBeGreaterThan(world.deposit);
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS + 1n);
    const before = balance(world.svm, world.bob.publicKey);
    const result = expectSuccess(register(world.bob));
    expect(balance(world.svm, world.bob.publicKey)).toBe(before - FEE_PER_SIGNATURE - (grown - world.deposit));
    expect(balance(world.svm, world.tagRecord)).toBe(grown);
    expect(result.innerInstructions()[0].map((i) => i.instruction().data()[0])).toEqual([2]); // one System Transfer
  });

  it('the previous owner closes the record: the receiver gets the whole deposit, no account is left', () => {
    const firstReceiver = releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS);
    const receiver = Keypair.generate().publicKey;
    const result = expectSuccess(release(world.alice, receiver));
    expect(result.logs()).toContain('Program log: release_tag: alice');
    expect(balance(world.svm, receiver)).toBe(world.deposit);
    expect(accountData(world.svm, world.tagRecord)).toBeNull();
    // Every lamport the record ever held: the extra at release, the deposit now.
    expect(balance(world.svm, firstReceiver) + balance(world.svm, receiver)).toBe(world.deposit + EXTRA);
    // And the tag registers afresh, the fee payer paying the rent again.
    const before = balance(world.svm, world.bob.publicKey);
    expectSuccess(register(world.bob));
    expect(balance(world.svm, world.bob.publicKey)).toBe(before - FEE_PER_SIGNATURE - world.deposit);
  });

  it('a closed record cannot be closed twice (nothing left to release)', () => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS);
    expectSuccess(release(world.alice, world.alice.publicKey));
    expectRefusal(release(world.alice, world.alice.publicKey), 'TagRecordNotProgramOwned');
  });
});
