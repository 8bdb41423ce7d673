// The upgrade path: the build before the payout-wallet and rest rules
// (program/tests/fixtures/tag_registry_v1.so, see fixtures/README.md) deployed through
// loader-v3, records written by it with its own account lists, then an upgrade to the
// committed build through loader-v3 (the extend, buffer and upgrade transactions
// program:deploy sends), and every instruction on those records. LiteSVM, every feature on.
import type { Address, Instruction } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { registerTagInstruction, setWalletInstruction } from '@/devstack/lifecycle-instructions';
import { COMMITTED_SO, LOCALNET_PROGRAM_KEYPAIR } from '@/program/build';
import { readKeypairFile } from '@/program/deploy/keys';
import { deployToLiteSvm, upgradeInLiteSvm } from '@/program/deploy/litesvm-deploy';
import { programDataAddress, SYSTEM_PROGRAM_ADDRESS } from '@/program/deploy/loader-v3';
import { parseProgramData } from '@/program/deploy/program-data';
import {
  expectSuccess,
  fundedKeypair,
  generateSigner,
  logs,
  newSvm,
  PROGRAM_ID,
  REST_SECONDS,
  send,
  setUnixTime,
  type Signer,
} from '@/program/litesvm-harness';
import { findTagRecordAddress } from '@/program/pda';
import { expectRefusal, rawInstruction, recordAt, sendCall, type FullInstruction } from './lifecycle-support';

const programId = PROGRAM_ID;
const V1_SO = new Uint8Array(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tag_registry_v1.so')),
);
const CURRENT_SO = new Uint8Array(readFileSync(COMMITTED_SO));
const REGISTERED_AT = 1_750_000_000n;

/** The v1 account lists: register_tag without the wallet account, set_wallet without it. */
const v1Register = (tag: string, owner: Address, wallet: Address) => {
  const ix = registerTagInstruction({
    programAddress: programId,
    tag,
    owner,
    wallet,
    feePayer: owner,
  }) as FullInstruction;
  return rawInstruction(ix.accounts.slice(0, 4), ix.data);
};
const v1SetWallet = (tagRecord: Address, owner: Address, wallet: Address) => {
  const ix = setWalletInstruction({ programAddress: programId, tagRecord, owner, wallet }) as FullInstruction;
  return rawInstruction(ix.accounts.slice(0, 2), ix.data);
};

let svm: LiteSVM;
let alice: Signer;
let bob: Signer;
let carol: Signer;
/** alice's tag, a standing v1 offer to bob on it; carol's tag, registered with a zero wallet (v1 allowed it). */
let aliceRecord: Address;
let carolRecord: Address;

/** Sends an instruction in v1's account list, `payer` signing. */
const runV1 = (ix: Instruction, payer: Signer) => send(svm, [ix], payer.address, [payer]);
/** register_tag of `tag` for `owner`, its own payout wallet. */
const register = (tag: string, owner: Signer) => sendCall(svm, { kind: 'register', tag, owner, wallet: owner });

beforeEach(() => {
  svm = newSvm();
  const deployed = deployToLiteSvm(svm, V1_SO, { program: readKeypairFile(LOCALNET_PROGRAM_KEYPAIR) });
  [alice, bob, carol] = [fundedKeypair(svm), fundedKeypair(svm), fundedKeypair(svm)];
  setUnixTime(svm, REGISTERED_AT);

  // Written by v1, with v1's account lists.
  expectSuccess(runV1(v1Register('alice', alice.address, alice.address), alice));
  aliceRecord = findTagRecordAddress('alice', programId)[0];
  expectSuccess(runV1(v1SetWallet(aliceRecord, alice.address, generateSigner().address), alice));
  expectSuccess(sendCall(svm, { kind: 'offer', tag: 'alice', owner: alice, newOwner: bob.address }));
  expectSuccess(runV1(v1Register('carol', carol.address, SYSTEM_PROGRAM_ADDRESS), carol));
  carolRecord = findTagRecordAddress('carol', programId)[0];

  upgradeInLiteSvm(svm, deployed, CURRENT_SO);
});

describe('upgrade from the v1 build', () => {
  it('the program data holds the committed build after the upgrade, and v1 records read unchanged', () => {
    const programData = svm.getAccount(programDataAddress(programId));
    expect(programData.exists).toBe(true);
    const { bytes } = parseProgramData(programData.exists ? programData.data : new Uint8Array());
    expect(Buffer.from(bytes.subarray(0, CURRENT_SO.length)).equals(Buffer.from(CURRENT_SO))).toBe(true);
    expect(recordAt(svm, aliceRecord)).toMatchObject({
      owner: alice.address,
      pendingOwner: bob.address,
      registeredAt: REGISTERED_AT,
      tag: 'alice',
    });
    expect(recordAt(svm, carolRecord)).toMatchObject({
      owner: carol.address,
      wallet: SYSTEM_PROGRAM_ADDRESS,
      pendingOwner: null,
    });
  });

  it('an old-ABI call gets WalletAccountMissing: set_wallet with two accounts, register_tag with four', () => {
    const result = runV1(v1SetWallet(aliceRecord, alice.address, alice.address), alice);
    expectRefusal(result, 'WalletAccountMissing');
    expect(logs(result)).toContain(
      'Program log: AnchorError occurred. Error Code: WalletAccountMissing. Error Number: 6028. Error Message: The payout wallet account is missing: it comes last, and signs.',
    );
    expectRefusal(runV1(v1Register('dave', bob.address, bob.address), bob), 'WalletAccountMissing');
  });

  it('set_wallet in its three-account form works on a v1 record', () => {
    const wallet = generateSigner();
    expectSuccess(sendCall(svm, { kind: 'set_wallet', tag: 'alice', owner: alice, wallet }));
    expect(recordAt(svm, aliceRecord).wallet).toEqual(wallet.address);
  });

  it('the transfer offered under v1 is accepted under the new build; offer and cancel work', () => {
    expectSuccess(sendCall(svm, { kind: 'accept', tag: 'alice', newOwner: bob }));
    expect(recordAt(svm, aliceRecord)).toMatchObject({
      owner: bob.address,
      wallet: bob.address,
      pendingOwner: null,
    });
    expectSuccess(sendCall(svm, { kind: 'offer', tag: 'alice', owner: bob, newOwner: carol.address }));
    expectSuccess(sendCall(svm, { kind: 'cancel', tag: 'alice', owner: bob }));
    expect(recordAt(svm, aliceRecord).pendingOwner).toBeNull();
  });

  it('release rests a v1 record; its owner registers it again during the rest, anyone once a rest is over', () => {
    expectSuccess(sendCall(svm, { kind: 'release', tag: 'alice', owner: alice, receiver: alice.address }));
    expectRefusal(register('alice', bob), 'TagResting');
    expectSuccess(register('alice', alice));
    expect(recordAt(svm, aliceRecord)).toMatchObject({
      owner: alice.address,
      wallet: alice.address,
      pendingOwner: null,
    });

    expectSuccess(sendCall(svm, { kind: 'release', tag: 'alice', owner: alice, receiver: alice.address }));
    setUnixTime(svm, REGISTERED_AT + REST_SECONDS);
    expectSuccess(register('alice', bob));
    expect(recordAt(svm, aliceRecord).owner).toEqual(bob.address);
  });

  it('a v1 record with a zero wallet is live, not resting: nobody else can take it, and its owner sets a wallet', () => {
    setUnixTime(svm, REGISTERED_AT + 10n * REST_SECONDS);
    expectRefusal(register('carol', bob), 'AlreadyRegistered');
    expectSuccess(sendCall(svm, { kind: 'set_wallet', tag: 'carol', owner: carol, wallet: carol }));
    expect(recordAt(svm, carolRecord).wallet).toEqual(carol.address);
  });
});
