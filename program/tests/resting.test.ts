// release_tag puts a tag to rest for 30 days (Clock unix_timestamp): only the previous owner
// may register it again meanwhile, anyone after; the previous owner may close the record
// once the rest is over. Every lamport accounted for (program/README.md "Where each lamport
// goes"). LiteSVM with every feature on, the committed .so.
import { getAddressDecoder, type Address } from '@solana/kit';
import { Rent } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { instructionOf, registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { TAG_RECORD_OFFSETS, TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import {
  accountData,
  balance,
  expectSuccess,
  FEE_PER_SIGNATURE,
  fundedKeypair,
  generateSigner,
  PROGRAM_ID,
  REST_SECONDS,
  send,
  setUnixTime,
  transferInstruction,
  type SendResult,
  type Signer,
} from '@/program/litesvm-harness';
import {
  aliceHoldsTag,
  expectRefusal,
  freshForEachTest,
  offerAliceToBob,
  recordAt,
  sendCall,
  snapshot,
  type LifecycleCall,
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

const release = (owner: Signer, receiver: Address, payer?: Signer): SendResult =>
  sendCall(world.svm, { kind: 'release', tag: 'alice', owner, receiver }, payer);

/** register_tag of `alice` for `owner`, paid by `payer` (the instruction's fee payer), the payout wallet signing. */
function register(owner: Signer, payer: Signer = owner, wallet: Signer = owner): SendResult {
  const ix = registerTagInstruction({
    programAddress: PROGRAM_ID,
    tag: 'alice',
    owner: owner.address,
    wallet: wallet.address,
    feePayer: payer.address,
  });
  return send(world.svm, [ix], payer.address, [payer, owner, wallet]);
}

/** Sends lamports to the record, as anyone may (a System transfer to a program-owned account). */
function fundRecord(lamports: bigint) {
  expectSuccess(
    send(world.svm, [transferInstruction(world.mallory.address, world.tagRecord, lamports)], world.mallory.address, [
      world.mallory,
    ]),
  );
}

/** alice releases at RELEASED_AT, the record holding EXTRA above its deposit, to a fresh receiver. */
function releaseWithExtra(): Address {
  fundRecord(EXTRA);
  setUnixTime(world.svm, RELEASED_AT);
  const receiver = generateSigner().address;
  expectSuccess(release(world.alice, receiver));
  return receiver;
}

const rawRecord = () => accountData(world.svm, world.tagRecord)!.data;
const field = (data: Uint8Array, name: keyof typeof TAG_RECORD_OFFSETS) =>
  getAddressDecoder().decode(data.subarray(TAG_RECORD_OFFSETS[name], TAG_RECORD_OFFSETS[name] + 32));

describe('release_tag puts the tag to rest', () => {
  it('keeps the record, resting: wallet zero, pending_owner = owner = the previous owner, registered_at = the release time', () => {
    fundRecord(EXTRA);
    setUnixTime(world.svm, RELEASED_AT);
    const result = expectSuccess(release(world.alice, generateSigner().address));
    expect(result.logs()).toContain('Program log: release_tag: alice');
    const data = rawRecord();
    expect(data.length).toBe(TAG_RECORD_SIZE);
    expect(field(data, 'owner')).toEqual(world.alice.address);
    expect(field(data, 'wallet')).toEqual('11111111111111111111111111111111');
    expect(field(data, 'pendingOwner')).toEqual(world.alice.address);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({ tag: 'alice', registeredAt: RELEASED_AT });
    expect(accountData(world.svm, world.tagRecord)!.owner).toEqual(PROGRAM_ID);
  });

  it('pays the receiver every lamport above the deposit, and the record keeps exactly the deposit', () => {
    const receiver = releaseWithExtra();
    expect(balance(world.svm, receiver)).toBe(EXTRA);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
  });

  it('pays nothing when the record holds exactly its deposit', () => {
    const before = balance(world.svm, world.alice.address);
    expectSuccess(release(world.alice, world.alice.address));
    expect(balance(world.svm, world.alice.address)).toBe(before - FEE_PER_SIGNATURE);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
  });

  it('pays the owner as receiver (one account in two positions), a sponsor paying the fee', () => {
    fundRecord(EXTRA);
    const sponsor = fundedKeypair(world.svm);
    const before = balance(world.svm, world.alice.address);
    expectSuccess(release(world.alice, world.alice.address, sponsor));
    expect(balance(world.svm, world.alice.address)).toBe(before + EXTRA);
  });

  it('ends the standing offer: the pending owner is refused with TagReleased', () => {
    expectSuccess(release(world.alice, world.alice.address));
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
    const payerBefore = balance(world.svm, world.bob.address);
    expectRefusal(register(world.bob), 'TagResting');
    expect(snapshot(world.svm, world.tagRecord)).toEqual(before);
    expect(balance(world.svm, world.bob.address)).toBe(payerBefore - FEE_PER_SIGNATURE);
  });

  it('refuses another key even with the previous owner paying (the owner account decides)', () => {
    releaseWithExtra();
    expectRefusal(register(world.bob, world.alice), 'TagResting');
  });

  it('lets the previous owner register it again: the record is rewritten in place, and the fee payer pays no rent', () => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + 86_400n);
    const wallet = generateSigner();
    const sponsor = fundedKeypair(world.svm);
    const sponsorBefore = balance(world.svm, sponsor.address);
    const result = expectSuccess(register(world.alice, sponsor, wallet));
    expect(result.logs()).toContain('Program log: register_tag: alice');
    expect(result.innerInstructions()[0] ?? []).toHaveLength(0); // no System Program call at all
    expect(balance(world.svm, sponsor.address)).toBe(sponsorBefore - 3n * FEE_PER_SIGNATURE);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.alice.address,
      wallet: wallet.address,
      pendingOwner: null,
      registeredAt: RELEASED_AT + 86_400n,
      tag: 'alice',
    });
  });

  it('lets the owner release and register again in one transaction', () => {
    const alice = world.alice;
    const ixs = [
      instructionOf({ kind: 'release', tag: 'alice', owner: alice, receiver: alice.address }, PROGRAM_ID),
      instructionOf({ kind: 'register', tag: 'alice', owner: alice, wallet: alice }, PROGRAM_ID),
    ].map(({ instruction }) => instruction);
    expectSuccess(send(world.svm, ixs, alice.address, [alice]));
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.alice.address,
      wallet: world.alice.address,
      pendingOwner: null,
    });
  });

  it('refuses the previous owner closing the record with TagResting, a stranger with NotTagOwner', () => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS - 1n);
    const before = snapshot(world.svm, world.tagRecord);
    expectRefusal(release(world.alice, world.alice.address), 'TagResting');
    expectRefusal(release(world.mallory, world.mallory.address), 'NotTagOwner');
    expect(snapshot(world.svm, world.tagRecord)).toEqual(before);
  });
});

/** Every lifecycle call but release_tag, as the previous owner would send it (accept as if offered to her). */
const OTHER_CALLS = (): LifecycleCall[] => [
  { kind: 'set_wallet', tag: 'alice', owner: world.alice, wallet: world.alice },
  { kind: 'offer', tag: 'alice', owner: world.alice, newOwner: world.bob.address },
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
    const before = balance(world.svm, world.bob.address);
    expectSuccess(register(world.bob));
    expect(balance(world.svm, world.bob.address)).toBe(before - FEE_PER_SIGNATURE);
    expect(balance(world.svm, world.tagRecord)).toBe(world.deposit);
    expect(recordAt(world.svm, world.tagRecord)).toMatchObject({
      owner: world.bob.address,
      wallet: world.bob.address,
      pendingOwner: null,
      registeredAt: RELEASED_AT + REST_SECONDS,
    });
    // A live record again: bob manages it, alice no longer can.
    expectRefusal(release(world.alice, world.alice.address), 'NotTagOwner');
    expectSuccess(
      sendCall(world.svm, { kind: 'offer', tag: 'alice', owner: world.bob, newOwner: world.alice.address }),
    );
  });

  it('tops the deposit up from the fee payer when the rent has grown since the release, and only by the difference', () => {
    releaseWithExtra();
    const rent = world.svm.getRent();
    world.svm.setRent(new Rent(rent.lamportsPerByteYear * 2n, rent.exemptionThreshold, rent.burnPercent));
    const grown = world.svm.minimumBalanceForRentExemption(BigInt(TAG_RECORD_SIZE));
    expect(grown).toBeGreaterThan(world.deposit);
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS + 1n);
    const before = balance(world.svm, world.bob.address);
    const result = expectSuccess(register(world.bob));
    expect(balance(world.svm, world.bob.address)).toBe(before - FEE_PER_SIGNATURE - (grown - world.deposit));
    expect(balance(world.svm, world.tagRecord)).toBe(grown);
    expect(result.innerInstructions()[0].map((i) => i.instruction().data()[0])).toEqual([2]); // one System Transfer
  });

  it('the previous owner closes the record: the receiver gets the whole deposit, no account is left', () => {
    const firstReceiver = releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS);
    const receiver = generateSigner().address;
    const result = expectSuccess(release(world.alice, receiver));
    expect(result.logs()).toContain('Program log: release_tag: alice');
    expect(balance(world.svm, receiver)).toBe(world.deposit);
    expect(accountData(world.svm, world.tagRecord)).toBeNull();
    // Every lamport the record ever held: the extra at release, the deposit now.
    expect(balance(world.svm, firstReceiver) + balance(world.svm, receiver)).toBe(world.deposit + EXTRA);
    // And the tag registers afresh, the fee payer paying the rent again.
    const before = balance(world.svm, world.bob.address);
    expectSuccess(register(world.bob));
    expect(balance(world.svm, world.bob.address)).toBe(before - FEE_PER_SIGNATURE - world.deposit);
  });

  it('a closed record cannot be closed twice (nothing left to release)', () => {
    releaseWithExtra();
    setUnixTime(world.svm, RELEASED_AT + REST_SECONDS);
    expectSuccess(release(world.alice, world.alice.address));
    expectRefusal(release(world.alice, world.alice.address), 'TagRecordNotProgramOwned');
  });
});
