import type { Address, Instruction, KeyPairSigner } from '@solana/kit';
import { describe, expect, inject, it } from 'vitest';
import { refusedExtension } from '@/lib/chain/mint-account';
import { airdrop, fundedSigner, newSigner, reachAll, rpcAt, sendSigned, signerOf } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { heldInProcessApp } from '../support/in-process';
import { registeredPayee } from '../support/registered-payee';
import { signIn } from '../support/sign-in';
import { landedMint, token2022MintWithPermanentDelegate } from '../support/spl-mint';

/*
 * Only assets the payee can keep (DESIGN.md "Payments and receipts", "Assets"): SOL, the
 * cluster's well-known stablecoins and the payee's own preferredToken; a stranger's mint is
 * 400 `unsupported_asset`, and so is a Token-2022 mint with a permanent delegate, as an asset
 * and as a preferredToken, the extension named. Real mints on the shared localnet.
 */

const rpc = rpcAt(inject('rpcUrl'));
const app = heldInProcessApp();

/** Sends `instructions`, `payer` paying, and waits until they are confirmed. */
async function send(instructions: Instruction[], payer: KeyPairSigner): Promise<void> {
  await reachAll(rpc, [await sendSigned(rpc, instructions, payer)], 'confirmed', 30_000, { refuseFailed: true });
}

/** A plain SPL Token mint of the funded `creator`'s own. */
const plainMint = (creator: KeyPairSigner): Promise<Address> => landedMint(rpc, creator, 6, 1_000_000n);

/** A Token-2022 mint whose permanent delegate is a key of the creator's. */
async function delegatedMint(creator: KeyPairSigner): Promise<Address> {
  const mint = (await newSigner()).signer;
  const delegate = newKeypair().publicKey as Address;
  await send(await token2022MintWithPermanentDelegate(rpc, creator, mint, delegate, 6), creator);
  return mint.address;
}

const funded = (): Promise<KeyPairSigner> => fundedSigner(rpc, 1);

const issue = (tag: string, asset: string) =>
  app().fetch('/v1/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tag, amount: '1.5', asset }),
  });

describe('POST /v1/payments: the asset', () => {
  it('a mint of a stranger’s own is refused: 400 unsupported_asset', async () => {
    const [stranger, { tag }] = await Promise.all([funded(), registeredPayee(app().db, rpc)]);
    const res = await issue(tag, await plainMint(stranger));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'unsupported_asset', message: expect.any(String) } });
  });

  it('the payee’s own preferredToken is accepted, and the request asks for it', async () => {
    const mint = await plainMint(await funded());
    const { tag, wallet } = await registeredPayee(app().db, rpc, { row: { preferredToken: mint } });
    const res = await issue(tag, mint);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.url).toContain(`solana:${wallet.address}?amount=1.5&spl-token=${mint}&`);
    expect(body.receipt).toMatchObject({ asset: mint, status: 'pending' });
  });

  it('a Token-2022 mint with a permanent delegate is refused even as the payee’s own, naming the extension', async () => {
    const mint = await delegatedMint(await funded());
    const { tag } = await registeredPayee(app().db, rpc, { row: { preferredToken: mint } });
    const res = await issue(tag, mint);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toEqual({ code: 'unsupported_asset', message: expect.any(String), reason: 'permanent_delegate' });
    expect(error.message).toContain('permanent_delegate');
  });

  it('the pay Action refuses it too, for a profile that named it before the rule', async () => {
    const mint = await delegatedMint(await funded());
    const { tag } = await registeredPayee(app().db, rpc, { row: { preferredToken: mint } });
    const res = await app().fetch(`/api/actions/pay/${tag}?amount=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: newKeypair().publicKey }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'unsupported_asset', reason: 'permanent_delegate' });
    // Its metadata shows the Action disabled, with why.
    const metadata = await (await app().fetch(`/api/actions/pay/${tag}`)).json();
    expect(metadata).toMatchObject({
      disabled: true,
      error: { message: expect.stringContaining('permanent_delegate') },
    });
  });
});

describe('PATCH /v1/identity/{tag}: preferredToken', () => {
  async function ownerSignedIn() {
    const { token, keypair } = await signIn(app().url);
    const owner = await signerOf(keypair);
    await airdrop(rpc, owner.address, 1);
    const { tag } = await registeredPayee(app().db, rpc, { owner });
    const patch = (preferredToken: string) =>
      app().fetch(`/v1/identity/${tag}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ preferredToken }),
      });
    return { patch };
  }

  it('refuses a Token-2022 mint with a permanent delegate, naming the extension; a plain mint is taken', async () => {
    const { patch } = await ownerSignedIn();
    const creator = await funded();
    const refused = await patch(await delegatedMint(creator));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toEqual({
      code: 'unsupported_asset',
      message: expect.stringContaining('permanent_delegate'),
      reason: 'permanent_delegate',
    });
    const plain = await plainMint(creator);
    const taken = await patch(plain);
    expect(taken.status).toBe(200);
    expect((await taken.json()).preferredToken).toBe(plain);
  });
});

describe('refusedExtension: each extension that can take, withhold or freeze a payment', () => {
  /** A Token-2022 mint's data: 165 bytes, the account type (1, a mint), then one extension of `type` with `value`. */
  function mintData(type: number, value: number[]): Uint8Array {
    const data = new Uint8Array(166 + 4 + value.length);
    data[165] = 1;
    new DataView(data.buffer).setUint16(166, type, true);
    new DataView(data.buffer).setUint16(168, value.length, true);
    data.set(value, 170);
    return data;
  }
  const CASES: [name: string, type: number, value: number[], refused: string | null][] = [
    ['transfer fee config', 1, new Array(108).fill(0), 'transfer_fee'],
    ['default account state frozen', 6, [2], 'default_account_state_frozen'],
    ['default account state initialized', 6, [1], null],
    ['non-transferable', 9, [], 'non_transferable'],
    ['permanent delegate', 12, new Array(32).fill(7), 'permanent_delegate'],
    ['permanent delegate, none (all zero)', 12, new Array(32).fill(0), null],
    ['transfer hook', 14, new Array(64).fill(0), 'transfer_hook'],
    ['pausable', 26, new Array(33).fill(0), 'pausable'],
    ['metadata pointer', 18, new Array(64).fill(1), null],
  ];
  for (const [name, type, value, refused] of CASES) {
    it(`${name}: ${refused ?? 'accepted'}`, () => {
      expect(refusedExtension(mintData(type, value))).toBe(refused);
    });
  }
});
