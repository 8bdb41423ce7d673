// A refused call as a standard Anchor client sees it: kit's preflight failure carries the
// simulation's logs, and AnchorError.parse (@coral-xyz/anchor) names the program's error from them.
import { AnchorError } from '@coral-xyz/anchor';
import {
  generateKeyPairSigner,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  type KeyPairSigner,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSetWalletInstruction } from '@/packages/tag-registry/src';
import { findTagRecordAddress } from '@/program/pda';
import { REGISTRY_ERRORS, type RegistryErrorName } from '@/program/tests/idl';
import {
  airdrop,
  PROGRAM_ID,
  reached,
  registerTransaction,
  sendWire,
  signed,
  startTestNet,
  type TestNet,
  type WireTransaction,
} from './helpers';

let net: TestNet;
let alice: KeyPairSigner;
let mallory: KeyPairSigner;
const tag = `anchor_${Date.now().toString(36)}`;

beforeAll(async () => {
  net = await startTestNet();
  [alice, mallory] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
  await Promise.all([airdrop(net.rpc, alice.address), airdrop(net.rpc, mallory.address)]);
});
afterAll(() => net?.close());

/** `owner` registers the tag for itself, paying. */
const register = (owner: KeyPairSigner) => registerTransaction(net.rpc, { tag, owner, sponsor: owner });

async function send(tx: WireTransaction): Promise<string> {
  const signature = await sendWire(net.rpc, tx);
  await reached(net.rpc, signature);
  return signature;
}

/** Sends a call the program refuses and answers what AnchorError.parse makes of the refusal. */
async function refusal(tx: WireTransaction): Promise<AnchorError | null> {
  const error = await send(tx).then(
    () => null,
    (err: unknown) => err,
  );
  if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE))
    throw new Error('expected a preflight failure', { cause: error });
  return AnchorError.parse([...(error.context.logs ?? [])]);
}

function expectNamed(parsed: AnchorError | null, name: RegistryErrorName) {
  const { code, msg } = REGISTRY_ERRORS.find((e) => e.name === name)!;
  expect(parsed).not.toBeNull();
  expect(parsed!.error.errorCode).toEqual({ code: name, number: code });
  expect(parsed!.error.errorMessage).toBe(msg);
  expect(parsed!.program.toBase58()).toBe(PROGRAM_ID);
}

describe('AnchorError.parse names the program refusal', () => {
  it('of register_tag: AlreadyRegistered (6012)', async () => {
    await send(await register(alice));
    expectNamed(await refusal(await register(mallory)), 'AlreadyRegistered');
  });

  it('of a lifecycle call: set_wallet by someone else, NotTagOwner (6015)', async () => {
    const [tagRecord] = findTagRecordAddress(tag, PROGRAM_ID);
    const ix = getSetWalletInstruction(
      { tagRecord, owner: mallory, wallet: mallory, walletArg: mallory.address },
      { programAddress: PROGRAM_ID },
    );
    expectNamed(await refusal(await signed(net.rpc, mallory, [ix])), 'NotTagOwner');
  });
});
