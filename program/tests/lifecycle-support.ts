/**
 * Helpers for the program tests over the shared LiteSVM harness: register a tag,
 * read its record, plant accounts the program did not write, and assert a refusal the way
 * the program reports it (its code and Anchor's error line).
 */
import { AnchorError } from '@coral-xyz/anchor';
import { lamports as toLamports } from '@solana/kit';
import { Keypair, PublicKey, TransactionInstruction, type AccountMeta } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { beforeEach, expect } from 'vitest';
import { instructionOf, type LifecycleCall } from '@/devstack/lifecycle-calls';
import {
  decodeTagRecord,
  encodeTagRecord,
  type TagRecord,
  findTagRecordAddress,
} from '@/packages/tag-registry/src/web3js';
import { REGISTRY_ERRORS, type RegistryErrorName } from './idl';
import {
  accountData,
  customErrorCode,
  expectSuccess,
  fundedKeypair,
  logs,
  PROGRAM_ID,
  send,
  startSvm,
  toAddress,
  type SendResult,
} from '@/program/litesvm-harness';

/**
 * Sends one lifecycle call (devstack/lifecycle-calls.ts) to the program at PROGRAM_ID: its
 * signer pays unless `payer` is given, and a payout wallet other than the signer signs too.
 */
export function sendCall(svm: LiteSVM, call: LifecycleCall, payer?: Keypair): SendResult {
  const { instruction, signer, cosigners } = instructionOf(call, PROGRAM_ID);
  const feePayer = payer ?? signer;
  return send(svm, [instruction], feePayer.publicKey, [feePayer, signer, ...cosigners]);
}

/**
 * The instruction of a lifecycle call to the program at PROGRAM_ID. `tagRecord` puts another
 * account in the record's place (position 0 of every call but register_tag), for the tests
 * that plant one.
 */
export function lifecycleInstruction(call: LifecycleCall, tagRecord?: PublicKey): TransactionInstruction {
  const { instruction } = instructionOf(call, PROGRAM_ID);
  return tagRecord ? withAccount(instruction, 0, { pubkey: tagRecord }) : instruction;
}

/** Registers `tag` for `owner` (who pays; the payout wallet signs too) and returns the record's address. */
export function registerTag(svm: LiteSVM, tag: string, owner: Keypair, wallet: Keypair = owner): PublicKey {
  expectSuccess(sendCall(svm, { kind: 'register', tag, owner, wallet }));
  return findTagRecordAddress(tag, PROGRAM_ID)[0];
}

/** Where every lifecycle test starts: a fresh LiteSVM in which alice holds the tag `alice`, and bob has a funded key. */
export function aliceHoldsTag(): { svm: LiteSVM; alice: Keypair; bob: Keypair; tagRecord: PublicKey } {
  const svm = startSvm();
  const alice = fundedKeypair(svm);
  const bob = fundedKeypair(svm);
  return { svm, alice, bob, tagRecord: registerTag(svm, 'alice', alice) };
}

/** In a world of `aliceHoldsTag`: alice offers her tag to bob, an offer that stands. */
export function offerAliceToBob({ svm, alice, bob }: { svm: LiteSVM; alice: Keypair; bob: Keypair }): void {
  expectSuccess(sendCall(svm, { kind: 'offer', tag: 'alice', owner: alice, newOwner: bob.publicKey }));
}

/**
 * A fixture made afresh by `make` before each test of the calling file (its beforeEach), so
 * that no test sees another's accounts. Read its fields inside tests, hooks and the helpers
 * they call: at load time it is still empty.
 */
export function freshForEachTest<T extends object>(make: () => T): T {
  const fixture = {} as T;
  beforeEach(() => {
    Object.assign(fixture, make());
  });
  return fixture;
}

/** The decoded record at `address`; fails the test when there is none or it does not decode. */
export function recordAt(svm: LiteSVM, address: PublicKey): TagRecord {
  const account = accountData(svm, address);
  const record = account && decodeTagRecord(account.data);
  if (!record) throw new Error(`no TagRecord at ${address.toBase58()}`);
  return record;
}

/** Everything about an account that a refused call must leave as it was. */
export function snapshot(svm: LiteSVM, address: PublicKey) {
  const account = accountData(svm, address);
  return (
    account && {
      data: Buffer.from(account.data).toString('hex'),
      owner: account.owner.toBase58(),
      lamports: account.lamports,
    }
  );
}

/**
 * Writes an account the runtime's rules would never let exist this way: a record at the
 * wrong address, a look-alike owned by another program. `owner` defaults to this program.
 */
export function plantAccount(
  svm: LiteSVM,
  address: PublicKey,
  data: Uint8Array,
  owner: PublicKey = PROGRAM_ID,
  lamports = 10_000_000n,
) {
  svm.setAccount({
    address: toAddress(address),
    data,
    executable: false,
    lamports: toLamports(lamports),
    programAddress: toAddress(owner),
    space: BigInt(data.length),
  });
}

/** A record the program could have written for `tag` (canonical bump), as bytes. */
export function recordBytes(tag: string, owner: PublicKey, overrides: Partial<TagRecord> = {}): Uint8Array {
  const [, bump] = findTagRecordAddress(tag, PROGRAM_ID);
  return encodeTagRecord({
    owner,
    wallet: owner,
    pendingOwner: null,
    bump,
    registeredAt: 1_700_000_000n,
    tag,
    ...overrides,
  });
}

/** An instruction of the program with every account spelled out, so a test can bend one. */
export function rawInstruction(keys: AccountMeta[], data: Uint8Array): TransactionInstruction {
  return new TransactionInstruction({ programId: PROGRAM_ID, keys, data: Buffer.from(data) });
}

/** The instruction's metas with one position replaced (flags kept unless given). */
export function withAccount(
  ix: TransactionInstruction,
  position: number,
  change: Partial<AccountMeta>,
): TransactionInstruction {
  const keys = ix.keys.map((key, i) => (i === position ? { ...key, ...change } : key));
  return new TransactionInstruction({ programId: ix.programId, keys, data: ix.data });
}

/**
 * The refusal as the program reports it: `Custom(code)`, and Anchor's error line in the logs,
 * which AnchorError.parse (@coral-xyz/anchor) reads back as the error's name, number and message.
 */
export function expectRefusal(result: SendResult, name: RegistryErrorName) {
  const { code, msg } = REGISTRY_ERRORS.find((e) => e.name === name)!;
  expect(customErrorCode(result)).toBe(code);
  expect(logs(result)).toContain(
    `Program log: AnchorError occurred. Error Code: ${name}. Error Number: ${code}. Error Message: ${msg}.`,
  );
  const parsed = AnchorError.parse(logs(result));
  expect(parsed?.error).toEqual({
    errorCode: { code: name, number: code },
    errorMessage: msg,
    comparedValues: undefined,
    origin: undefined,
  });
  expect(parsed?.program.toBase58()).toBe(PROGRAM_ID.toBase58());
}
