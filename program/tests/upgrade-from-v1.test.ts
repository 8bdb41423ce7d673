// The upgrade path: the build before the payout-wallet and rest rules
// (program/tests/fixtures/tag_registry_v1.so, see fixtures/README.md) deployed through
// loader-v3, records written by it with its own account lists, then an upgrade to the
// committed build through loader-v3 (the extend, buffer and upgrade transactions
// program:deploy sends), and every instruction on those records. LiteSVM, every feature on.
import { Keypair, PublicKey, type TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { registerTagInstruction, setWalletInstruction, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { COMMITTED_SO, LOCALNET_PROGRAM_KEYPAIR } from '@/program/build';
import { readKeypairFile } from '@/program/deploy/keys';
import { deployToLiteSvm, upgradeInLiteSvm } from '@/program/deploy/litesvm-deploy';
import { programDataAddress } from '@/program/deploy/loader-v3';
import { parseProgramData } from '@/program/deploy/program-data';
import {
  expectSuccess,
  fundedKeypair,
  logs,
  newSvm,
  PROGRAM_ID,
  REST_SECONDS,
  send,
  setUnixTime,
} from '@/program/litesvm-harness';
import { expectRefusal, rawInstruction, recordAt, sendCall } from './lifecycle-support';

const programId = PROGRAM_ID;
const V1_SO = new Uint8Array(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tag_registry_v1.so')),
);
const CURRENT_SO = new Uint8Array(readFileSync(COMMITTED_SO));
const REGISTERED_AT = 1_750_000_000n;

/** The v1 account lists: register_tag without the wallet account, set_wallet without it. */
const v1Register = (tag: string, owner: PublicKey, wallet: PublicKey) => {
  const ix = registerTagInstruction({ programId, tag, owner, wallet, feePayer: owner });
  return rawInstruction(ix.keys.slice(0, 4), ix.data);
};
const v1SetWallet = (tagRecord: PublicKey, owner: PublicKey, wallet: PublicKey) => {
  const ix = setWalletInstruction({ programId, tagRecord, owner, wallet });
  return rawInstruction(ix.keys.slice(0, 2), ix.data);
};

let svm: LiteSVM;
let alice: Keypair;
let bob: Keypair;
let carol: Keypair;
/** alice's tag, a standing v1 offer to bob on it; carol's tag, registered with a zero wallet (v1 allowed it). */
let aliceRecord: PublicKey;
let carolRecord: PublicKey;

/** Sends an instruction in v1's account list, `payer` signing. */
const runV1 = (ix: TransactionInstruction, payer: Keypair) => send(svm, [ix], payer.publicKey, [payer]);
/** register_tag of `tag` for `owner`, its own payout wallet. */
const register = (tag: string, owner: Keypair) => sendCall(svm, { kind: 'register', tag, owner, wallet: owner });

beforeEach(() => {
  svm = newSvm();
  const deployed = deployToLiteSvm(svm, V1_SO, { program: readKeypairFile(LOCALNET_PROGRAM_KEYPAIR) });
  [alice, bob, carol] = [fundedKeypair(svm), fundedKeypair(svm), fundedKeypair(svm)];
  setUnixTime(svm, REGISTERED_AT);

  // Written by v1, with v1's account lists.
  expectSuccess(runV1(v1Register('alice', alice.publicKey, alice.publicKey), alice));
  aliceRecord = findTagRecordAddress('alice', programId)[0];
  expectSuccess(runV1(v1SetWallet(aliceRecord, alice.publicKey, Keypair.generate().publicKey), alice));
  expectSuccess(sendCall(svm, { kind: 'offer', tag: 'alice', owner: alice, newOwner: bob.publicKey }));
  expectSuccess(runV1(v1Register('carol', carol.publicKey, PublicKey.default), carol));
  carolRecord = findTagRecordAddress('carol', programId)[0];

  upgradeInLiteSvm(svm, deployed, CURRENT_SO);
});

describe('upgrade from the v1 build', () => {
  it('the program data holds the committed build after the upgrade, and v1 records read unchanged', () => {
    const programData = svm.getAccount(programDataAddress(programId.toBase58()));
    expect(programData.exists).toBe(true);
    const { bytes } = parseProgramData(programData.exists ? programData.data : new Uint8Array());
    expect(Buffer.from(bytes.subarray(0, CURRENT_SO.length)).equals(Buffer.from(CURRENT_SO))).toBe(true);
    expect(recordAt(svm, aliceRecord)).toMatchObject({
      owner: alice.publicKey,
      pendingOwner: bob.publicKey,
      registeredAt: REGISTERED_AT,
      tag: 'alice',
    });
    expect(recordAt(svm, carolRecord)).toMatchObject({
      owner: carol.publicKey,
      wallet: PublicKey.default,
      pendingOwner: null,
    });
  });

  it('an old-ABI call gets WalletAccountMissing: set_wallet with two accounts, register_tag with four', () => {
    const result = runV1(v1SetWallet(aliceRecord, alice.publicKey, alice.publicKey), alice);
    expectRefusal(result, 'WalletAccountMissing');
    expect(logs(result)).toContain(
      'Program log: AnchorError occurred. Error Code: WalletAccountMissing. Error Number: 6028. Error Message: The payout wallet account is missing: it comes last, and signs.',
    );
    expectRefusal(runV1(v1Register('dave', bob.publicKey, bob.publicKey), bob), 'WalletAccountMissing');
  });

  it('set_wallet in its three-account form works on a v1 record', () => {
    const wallet = Keypair.generate();
    expectSuccess(sendCall(svm, { kind: 'set_wallet', tag: 'alice', owner: alice, wallet }));
    expect(recordAt(svm, aliceRecord).wallet).toEqual(wallet.publicKey);
  });

  it('the transfer offered under v1 is accepted under the new build; offer and cancel work', () => {
    expectSuccess(sendCall(svm, { kind: 'accept', tag: 'alice', newOwner: bob }));
    expect(recordAt(svm, aliceRecord)).toMatchObject({
      owner: bob.publicKey,
      wallet: bob.publicKey,
      pendingOwner: null,
    });
    expectSuccess(sendCall(svm, { kind: 'offer', tag: 'alice', owner: bob, newOwner: carol.publicKey }));
    expectSuccess(sendCall(svm, { kind: 'cancel', tag: 'alice', owner: bob }));
    expect(recordAt(svm, aliceRecord).pendingOwner).toBeNull();
  });

  it('release rests a v1 record; its owner registers it again during the rest, anyone once a rest is over', () => {
    expectSuccess(sendCall(svm, { kind: 'release', tag: 'alice', owner: alice, receiver: alice.publicKey }));
    expectRefusal(register('alice', bob), 'TagResting');
    expectSuccess(register('alice', alice));
    expect(recordAt(svm, aliceRecord)).toMatchObject({
      owner: alice.publicKey,
      wallet: alice.publicKey,
      pendingOwner: null,
    });

    expectSuccess(sendCall(svm, { kind: 'release', tag: 'alice', owner: alice, receiver: alice.publicKey }));
    setUnixTime(svm, REGISTERED_AT + REST_SECONDS);
    expectSuccess(register('alice', bob));
    expect(recordAt(svm, aliceRecord).owner).toEqual(bob.publicKey);
  });

  it('a v1 record with a zero wallet is live, not resting: nobody else can take it, and its owner sets a wallet', () => {
    setUnixTime(svm, REGISTERED_AT + 10n * REST_SECONDS);
    expectRefusal(register('carol', bob), 'AlreadyRegistered');
    expectSuccess(sendCall(svm, { kind: 'set_wallet', tag: 'carol', owner: carol, wallet: carol }));
    expect(recordAt(svm, carolRecord).wallet).toEqual(carol.publicKey);
  });
});
