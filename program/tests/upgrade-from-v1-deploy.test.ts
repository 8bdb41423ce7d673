// The upgrade path as an operator runs it: `npm run program:deploy` (its CLI, in process)
// deploys the v1 build (program/tests/fixtures/tag_registry_v1.so) to a localnet, a tag is
// registered and offered with v1's account lists, `program:deploy --upgrade` puts the
// committed build live, then each instruction runs on that record over JSON-RPC.
// The 30-day clock is LiteSVM's: upgrade-from-v1.test.ts and resting.test.ts.
import type { Address, Instruction } from '@solana/kit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instructionOf, type LifecycleCall as AnyLifecycleCall } from '@/devstack/lifecycle-instructions';
import { parseTagRecord, tagRegistryErrorOf } from '@/packages/tag-registry/src';
import { registryErrorCode, type RegistryErrorName } from './idl';
import { startLocalnet, type Localnet } from '@/localnet';
import { runCli } from '@/program/deploy/cli';
import { Cluster } from '@/program/deploy/cluster';
import { generateSigner, readKeypairFile, writeKeypairFile, type Signer } from '@/program/deploy/keys';
import { SYSTEM_PROGRAM_ADDRESS } from '@/program/deploy/loader-v3';
import { findTagRecordAddress } from '@/program/pda';
import { sendToCluster } from './cluster-calls';

type LifecycleCall = AnyLifecycleCall<Signer>;

const V1_SO_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tag_registry_v1.so');
const work = mkdtempSync(path.join(tmpdir(), 'upgrade-v1-'));
let localnet: Localnet;
let cluster: Cluster;
let programId: Address;
let tagRecord: Address;
const [alice, bob, payee] = [generateSigner(), generateSigner(), generateSigner()];

async function deploy(...more: string[]) {
  const lines: string[] = [];
  const argv = [
    'deploy',
    '--url',
    localnet.url,
    '--keypair',
    path.join(work, 'payer.json'),
    '--program-keypair',
    path.join(work, 'program.json'),
    '--state-dir',
    path.join(work, 'state'),
    ...more,
  ];
  const code = await runCli(argv, { log: (l) => lines.push(l), error: (l) => lines.push(l) }, {});
  expect(code, lines.join('\n')).toBe(0);
  return lines.join('\n');
}

function submit(ix: Instruction, payer: Signer, ...more: Signer[]) {
  return sendToCluster(cluster, payer, [ix], more);
}

/** The instruction of a lifecycle call to the deployed program. */
const instructionTo = (call: LifecycleCall) => instructionOf(call, programId).instruction;

/** Sends one lifecycle call to the deployed program, its signer paying (a payout wallet of its own signing too). */
function submitCall(call: LifecycleCall) {
  const { instruction, signer, cosigners } = instructionOf(call, programId);
  return submit(instruction, signer, ...cosigners);
}

async function expectRefused(ix: Instruction, name: RegistryErrorName, payer: Signer, ...more: Signer[]) {
  const error = await submit(ix, payer, ...more).then(
    () => null,
    (e: unknown) => e,
  );
  expect(tagRegistryErrorOf(error, { programAddress: programId })).toBe(registryErrorCode(name));
}

async function record() {
  const account = await cluster.account(tagRecord);
  return account && parseTagRecord(account.data);
}

/** v1's account lists: register_tag without the wallet account, set_wallet without it. */
const v1 = (ix: Instruction, accounts: number): Instruction => ({ ...ix, accounts: ix.accounts?.slice(0, accounts) });

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, dataDir: null, programs: [] });
  cluster = new Cluster(localnet.url, 50);
  const payer = generateSigner();
  writeKeypairFile(path.join(work, 'payer.json'), payer);
  await cluster.airdrop(payer.address, 100_000_000_000);

  await deploy('--so', V1_SO_PATH);
  for (const key of [alice, bob]) await cluster.airdrop(key.address, 1_000_000_000);
  programId = readKeypairFile(path.join(work, 'program.json')).address;
  tagRecord = findTagRecordAddress('alice', programId)[0];
  await submit(v1(instructionTo({ kind: 'register', tag: 'alice', owner: alice, wallet: alice }), 4), alice);
  await submitCall({ kind: 'offer', tag: 'alice', owner: alice, newOwner: bob.address });

  expect(await deploy('--upgrade')).toMatch(/upgraded: \w+/);
  // An upgraded program runs from the next slot: this airdrop is a transaction of its own.
  await cluster.airdrop(payee.address, 1_000_000_000);
});

afterAll(async () => {
  await localnet?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a v1 record after program:deploy --upgrade', () => {
  it('reads as v1 wrote it', async () => {
    expect(await record()).toMatchObject({
      owner: alice.address,
      wallet: alice.address,
      pendingOwner: bob.address,
      tag: 'alice',
    });
  });

  it('set_wallet: the two-account form gets WalletAccountMissing, the three-account form with the wallet signing lands', async () => {
    const setWallet: LifecycleCall = { kind: 'set_wallet', tag: 'alice', owner: alice, wallet: payee };
    await expectRefused(v1(instructionTo(setWallet), 2), 'WalletAccountMissing', alice);
    await submitCall(setWallet);
    expect((await record())?.wallet).toEqual(payee.address);
  });

  it('the offer made under v1 is accepted; the new owner offers and cancels', async () => {
    await submitCall({ kind: 'accept', tag: 'alice', newOwner: bob });
    expect(await record()).toMatchObject({ owner: bob.address, wallet: bob.address, pendingOwner: null });
    await submitCall({ kind: 'offer', tag: 'alice', owner: bob, newOwner: alice.address });
    await submitCall({ kind: 'cancel', tag: 'alice', owner: bob });
    expect((await record())?.pendingOwner).toBeNull();
  });

  it('release rests it: another key gets TagResting, the previous owner registers it again', async () => {
    await submitCall({ kind: 'release', tag: 'alice', owner: bob, receiver: bob.address });
    expect(await record()).toMatchObject({
      owner: bob.address,
      wallet: SYSTEM_PROGRAM_ADDRESS,
      pendingOwner: bob.address,
    });
    await expectRefused(
      instructionTo({ kind: 'register', tag: 'alice', owner: alice, wallet: alice }),
      'TagResting',
      alice,
    );
    await submitCall({ kind: 'register', tag: 'alice', owner: bob, wallet: bob });
    expect(await record()).toMatchObject({ owner: bob.address, wallet: bob.address, pendingOwner: null });
  });
});
