/**
 * Helpers for the program tests over the shared LiteSVM harness: register a tag,
 * read its record, plant accounts the program did not write, and assert a refusal the way
 * the program reports it (its code and Anchor's error line).
 */
import { AnchorError } from '@coral-xyz/anchor';
import {
  AccountRole,
  isSignerRole,
  isWritableRole,
  lamports as toLamports,
  type AccountMeta,
  type Address,
  type Instruction,
  type InstructionWithAccounts,
  type InstructionWithData,
  type ReadonlyUint8Array,
} from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { beforeEach, expect } from 'vitest';
import { instructionOf, type LifecycleCall as AnyLifecycleCall } from '@/devstack/lifecycle-instructions';
import {
  getRegisterTagInstructionDataEncoder,
  parseTagRecord,
  tagRecordBytes,
  type TagRecordFields as TagRecord,
} from '@/packages/tag-registry/src';
import { findTagRecordAddress } from '@/program/pda';
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
  type SendResult,
  type Signer,
} from '@/program/litesvm-harness';

/** A lifecycle call whose parties are the harness's signers. */
export type LifecycleCall = AnyLifecycleCall<Signer>;

/** An instruction with its accounts and data spelled out, as the tests bend them. */
export type FullInstruction = Instruction &
  InstructionWithAccounts<readonly AccountMeta[]> &
  InstructionWithData<ReadonlyUint8Array>;

/**
 * Sends one lifecycle call (devstack/lifecycle-instructions.ts) to the program at PROGRAM_ID: its
 * signer pays unless `payer` is given, and a payout wallet other than the signer signs too.
 */
export function sendCall(svm: LiteSVM, call: LifecycleCall, payer?: Signer): SendResult {
  const { instruction, signer, cosigners } = instructionOf(call, PROGRAM_ID);
  const feePayer = payer ?? signer;
  return send(svm, [instruction], feePayer.address, [feePayer, signer, ...cosigners]);
}

/**
 * The instruction of a lifecycle call to the program at PROGRAM_ID. `tagRecord` puts another
 * account in the record's place (position 0 of every call but register_tag), for the tests
 * that plant one.
 */
export function lifecycleInstruction(call: LifecycleCall, tagRecord?: Address): FullInstruction {
  const instruction = instructionOf(call, PROGRAM_ID).instruction as FullInstruction;
  return tagRecord ? withAccount(instruction, 0, { address: tagRecord }) : instruction;
}

/** Registers `tag` for `owner` (who pays; the payout wallet signs too) and returns the record's address. */
export function registerTag(svm: LiteSVM, tag: string, owner: Signer, wallet: Signer = owner): Address {
  expectSuccess(sendCall(svm, { kind: 'register', tag, owner, wallet }));
  return findTagRecordAddress(tag, PROGRAM_ID)[0];
}

/** Where every lifecycle test starts: a fresh LiteSVM in which alice holds the tag `alice`, and bob has a funded key. */
export function aliceHoldsTag(): { svm: LiteSVM; alice: Signer; bob: Signer; tagRecord: Address } {
  const svm = startSvm();
  const alice = fundedKeypair(svm);
  const bob = fundedKeypair(svm);
  return { svm, alice, bob, tagRecord: registerTag(svm, 'alice', alice) };
}

/** In a world of `aliceHoldsTag`: alice offers her tag to bob, an offer that stands. */
export function offerAliceToBob({ svm, alice, bob }: { svm: LiteSVM; alice: Signer; bob: Signer }): void {
  expectSuccess(sendCall(svm, { kind: 'offer', tag: 'alice', owner: alice, newOwner: bob.address }));
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
export function recordAt(svm: LiteSVM, address: Address): TagRecord {
  const account = accountData(svm, address);
  const record = account && parseTagRecord(account.data);
  if (!record) throw new Error(`no TagRecord at ${address}`);
  return record;
}

/** Everything about an account that a refused call must leave as it was. */
export function snapshot(svm: LiteSVM, address: Address) {
  const account = accountData(svm, address);
  return (
    account && {
      data: Buffer.from(account.data).toString('hex'),
      owner: account.owner,
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
  address: Address,
  data: Uint8Array,
  owner: Address = PROGRAM_ID,
  lamports = 10_000_000n,
) {
  svm.setAccount({
    address,
    data,
    executable: false,
    lamports: toLamports(lamports),
    programAddress: owner,
    space: BigInt(data.length),
  });
}

/** A record the program could have written for `tag` (canonical bump), as bytes. */
export function recordBytes(tag: string, owner: Address, overrides: Partial<TagRecord> = {}): Uint8Array {
  const [, bump] = findTagRecordAddress(tag, PROGRAM_ID);
  return tagRecordBytes({
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
export function rawInstruction(accounts: readonly AccountMeta[], data: ReadonlyUint8Array): FullInstruction {
  return { programAddress: PROGRAM_ID, accounts, data };
}

/** `register_tag`'s data: discriminator ‖ borsh string tag ‖ wallet. */
export function encodeRegisterTagData(tag: string, wallet: Address): Uint8Array {
  return new Uint8Array(getRegisterTagInstructionDataEncoder().encode({ tag, wallet }));
}

/** An account meta from its address and flags. */
export function accountMeta(address: Address, signer: boolean, writable: boolean): AccountMeta {
  const role = signer
    ? writable
      ? AccountRole.WRITABLE_SIGNER
      : AccountRole.READONLY_SIGNER
    : writable
      ? AccountRole.WRITABLE
      : AccountRole.READONLY;
  return { address, role };
}

/** The instruction's metas with one position replaced (its address and flags kept unless given). */
export function withAccount(
  ix: FullInstruction,
  position: number,
  change: { address?: Address; isSigner?: boolean; isWritable?: boolean },
): FullInstruction {
  const accounts = ix.accounts.map((meta, i) =>
    i === position
      ? accountMeta(
          change.address ?? meta.address,
          change.isSigner ?? isSignerRole(meta.role),
          change.isWritable ?? isWritableRole(meta.role),
        )
      : meta,
  );
  return { ...ix, accounts };
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
  expect(parsed?.program.toBase58()).toBe(PROGRAM_ID);
}
