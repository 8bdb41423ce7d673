// A refused call as a standard Anchor client sees it: web3.js's SendTransactionError carries the
// preflight logs, and AnchorError.parse (@coral-xyz/anchor) names the program's error from them.
import { AnchorError } from '@coral-xyz/anchor';
import { Keypair, SendTransactionError, Transaction, type TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWalletInstruction, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { REGISTRY_ERRORS, type RegistryErrorName } from '@/program/tests/idl';
import { airdrop, PROGRAM_ID, startTestNet, type TestNet } from './helpers';
import { ownRegistration } from '../support/chain';

let net: TestNet;
const alice = Keypair.generate();
const mallory = Keypair.generate();
const tag = `anchor_${Date.now().toString(36)}`;

beforeAll(async () => {
  net = await startTestNet();
  await Promise.all([airdrop(net.connection, alice.publicKey), airdrop(net.connection, mallory.publicKey)]);
});
afterAll(() => net?.close());

const register = (owner: Keypair) => ownRegistration(owner, tag);

async function send(ix: TransactionInstruction, signer: Keypair): Promise<string> {
  const latest = await net.connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: signer.publicKey, ...latest }).add(ix);
  tx.sign(signer);
  const signature = await net.connection.sendRawTransaction(tx.serialize());
  await net.connection.confirmTransaction({ signature, ...latest });
  return signature;
}

/** Sends a call the program refuses and answers what AnchorError.parse makes of the refusal. */
async function refusal(ix: TransactionInstruction, signer: Keypair): Promise<AnchorError | null> {
  const error = await send(ix, signer).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(SendTransactionError);
  return AnchorError.parse((error as SendTransactionError).logs ?? []);
}

function expectNamed(parsed: AnchorError | null, name: RegistryErrorName) {
  const { code, msg } = REGISTRY_ERRORS.find((e) => e.name === name)!;
  expect(parsed).not.toBeNull();
  expect(parsed!.error.errorCode).toEqual({ code: name, number: code });
  expect(parsed!.error.errorMessage).toBe(msg);
  expect(parsed!.program.equals(PROGRAM_ID)).toBe(true);
}

describe('AnchorError.parse names the program refusal', () => {
  it('of register_tag: AlreadyRegistered (6012)', async () => {
    await send(register(alice), alice);
    expectNamed(await refusal(register(mallory), mallory), 'AlreadyRegistered');
  });

  it('of a lifecycle call: set_wallet by someone else, NotTagOwner (6015)', async () => {
    const [tagRecord] = findTagRecordAddress(tag, PROGRAM_ID);
    const ix = setWalletInstruction({
      programId: PROGRAM_ID,
      tagRecord,
      owner: mallory.publicKey,
      wallet: mallory.publicKey,
    });
    expectNamed(await refusal(ix, mallory), 'NotTagOwner');
  });
});
