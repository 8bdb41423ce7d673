import {
  getProgramDerivedAddress,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { getInitializeAccount3Instruction, getInitializeMint2Instruction } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { startLocalnet, type Localnet } from '@/localnet';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';
import { REST_SECONDS } from '@/lib/chain/record-states';
import { findTagRecordPda, getReleaseTagInstruction } from '@/packages/tag-registry/src';
import { clientHeaders, postAuthed } from '../support/http';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { newKeypair } from '../support/keypair';
import {
  airdrop,
  fundedSigner,
  newSigner,
  PROGRAM_ADDRESS,
  reachAll,
  registration,
  rpcAt,
  sendSigned,
  signerOf,
} from '../support/chain';
import { signIn } from '../support/sign-in';

/*
 * The payout rules at the API (DESIGN "Payout rules"): a payout wallet SOL sent to would be
 * lost is refused before anything is built, 400 `unsafe_payout` with its `reason`, by
 * register, set wallet and availability alike, each account made for real on the localnet; a
 * released tag rests 30 days: 409 `quarantined` with `until` for anyone but its previous
 * owner, `quarantined` on GET /v1/availability, and, on the chain's clock, free after the rest.
 */

const appUrl = inject('appUrl');
const rpc = rpcAt(inject('rpcUrl'));
const MINT_SIZE = 82n;
const TOKEN_ACCOUNT_SIZE = 165n;

async function landed(signature: Promise<string>, on: SolanaRpc = rpc): Promise<string> {
  const sig = await signature;
  await reachAll(on, [sig], 'finalized', 60_000, { refuseFailed: true });
  return sig;
}

/** A register_tag sent straight to the cluster, the owner its payout wallet; not waited for. */
const register = async (on: SolanaRpc, owner: KeyPairSigner, tag: string) =>
  sendSigned(on, [await registration(owner, tag)], owner);

/** A release_tag of the owner's, the rent back to the owner; not waited for. */
async function release(on: SolanaRpc, owner: KeyPairSigner, tag: string): Promise<Signature> {
  const [tagRecord] = await findTagRecordPda({ tag }, { programAddress: PROGRAM_ADDRESS });
  const ix = getReleaseTagInstruction(
    { tagRecord, owner, receiver: owner.address },
    { programAddress: PROGRAM_ADDRESS },
  );
  return sendSigned(on, [ix], owner);
}

/** A new account of `space` bytes owned by `owner`, `payer` paying; then `init` on it, if any. */
async function createAccount(
  payer: KeyPairSigner,
  owner: Address,
  space: bigint,
  init?: (account: Address) => Instruction,
): Promise<Address> {
  const { signer: account } = await newSigner();
  const lamports = await rpc.getMinimumBalanceForRentExemption(space).send();
  const create = getCreateAccountInstruction({ payer, newAccount: account, lamports, space, programAddress: owner });
  await landed(sendSigned(rpc, init ? [create, init(account.address)] : [create], payer));
  return account.address;
}

/** SPL Token InitializeMint2: 6 decimals, the mint authority, no freeze authority. */
const initializeMint = (authority: Address) => (mint: Address) =>
  getInitializeMint2Instruction({ mint, decimals: 6, mintAuthority: authority });

/** SPL Token InitializeAccount3: the account, its mint and its owner. */
const initializeTokenAccount = (mint: Address, owner: Address) => (account: Address) =>
  getInitializeAccount3Instruction({ account, mint, owner });

describe('unsafe_payout: refused before building, with its reason', () => {
  let alice: { token: string; signer: KeyPairSigner; key: string };
  let tag: string;
  const unsafe: Record<string, Address> = {};

  beforeAll(async () => {
    const { token, keypair } = await signIn(appUrl, newKeypair());
    const signer = await signerOf(keypair);
    await airdrop(rpc, signer.address);
    alice = { token, signer, key: signer.address };
    const mint = await createAccount(alice.signer, TOKEN_PROGRAM_ID, MINT_SIZE, initializeMint(alice.signer.address));
    unsafe.mint = mint;
    unsafe.token_account = await createAccount(
      alice.signer,
      TOKEN_PROGRAM_ID,
      TOKEN_ACCOUNT_SIZE,
      initializeTokenAccount(mint, alice.signer.address),
    );
    unsafe.program = PROGRAM_ADDRESS;
    unsafe.off_curve = (
      await getProgramDerivedAddress({ programAddress: PROGRAM_ADDRESS, seeds: ['tag', randomTag('pda')] })
    )[0]; // a PDA
    unsafe.not_system_owned = await createAccount(alice.signer, PROGRAM_ADDRESS, 0n); // a key's account handed to a program
    tag = randomTag('ps');
    const registered = await landed(register(rpc, alice.signer, tag));
    expect((await postAuthed(`${appUrl}/v1/sync`, null, { signature: registered })).status).toBe(200);
  });

  const reasons = ['off_curve', 'token_account', 'mint', 'program', 'not_system_owned'] as const;

  for (const reason of reasons) {
    it(`${reason}: POST /v1/register, POST /v1/identity/{tag}/wallet and GET /v1/availability?wallet= answer 400 unsafe_payout`, async () => {
      const wallet = unsafe[reason]!;
      const expected = { error: { code: 'unsafe_payout', message: expect.stringContaining(wallet), reason } };
      const register = await postAuthed(`${appUrl}/v1/register`, alice.token, { tag: randomTag('pr'), wallet });
      expect({ status: register.status, json: register.json }).toEqual({ status: 400, json: expected });
      const setWallet = await postAuthed(`${appUrl}/v1/identity/${tag}/wallet`, alice.token, { wallet });
      expect({ status: setWallet.status, json: setWallet.json }).toEqual({ status: 400, json: expected });
      const availability = await fetch(`${appUrl}/v1/availability/${randomTag('pa')}?wallet=${wallet}`, {
        headers: clientHeaders(),
      });
      expect({ status: availability.status, json: await availability.json() }).toEqual({ status: 400, json: expected });
    });
  }

  it('a wallet with no account yet, and a System-owned one, are fine', async () => {
    for (const wallet of [newKeypair().publicKey, alice.key]) {
      expect((await postAuthed(`${appUrl}/v1/register`, alice.token, { tag: randomTag('pk'), wallet })).status).toBe(
        200,
      );
      expect((await postAuthed(`${appUrl}/v1/identity/${tag}/wallet`, alice.token, { wallet })).status).toBe(200);
      const availability = await fetch(`${appUrl}/v1/availability/${randomTag('pa')}?wallet=${wallet}`, {
        headers: clientHeaders(),
      });
      expect(availability.status).toBe(200);
    }
  });
});

describe('a released tag rests: quarantined for everyone but its previous owner', () => {
  it('409 quarantined with until for another key, available:false on availability, 404 on the identity; the previous owner registers again', async () => {
    const party = async () => {
      const { token, keypair } = await signIn(appUrl, newKeypair());
      const signer = await signerOf(keypair);
      await airdrop(rpc, signer.address);
      return { token, signer };
    };
    const [alice, bob] = await Promise.all([party(), party()]);
    const tag = randomTag('rq');
    await landed(register(rpc, alice.signer, tag));
    const released = await landed(release(rpc, alice.signer, tag));
    const { blockTime } = (await rpc
      .getTransaction(released as Signature, {
        commitment: 'finalized',
        maxSupportedTransactionVersion: 0,
        encoding: 'json',
      })
      .send())!;
    const until = new Date((Number(blockTime!) + Number(REST_SECONDS)) * 1000).toISOString();
    expect((await postAuthed(`${appUrl}/v1/sync`, null, { signature: released })).status).toBe(404);

    const byBob = await postAuthed(`${appUrl}/v1/register`, bob.token, { tag });
    expect({ status: byBob.status, json: byBob.json }).toEqual({
      status: 409,
      json: { error: { code: 'quarantined', message: expect.stringContaining(until), until } },
    });
    const availability = await fetch(`${appUrl}/v1/availability/${tag}`, { headers: clientHeaders() });
    expect(await availability.json()).toMatchObject({ tag, available: false, reason: 'quarantined', until });
    expect((await fetch(`${appUrl}/v1/identity/${tag}`)).status).toBe(404);

    const byAlice = await postAuthed(`${appUrl}/v1/register`, alice.token, { tag });
    expect(byAlice.status).toBe(200);
  });
});

describe('after the 30 days, on the chain clock, anyone may register the tag', () => {
  let localnet: Localnet;
  let app: InProcessApp;
  let offsetMs = 0;

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, dataDir: null, now: () => Date.now() + offsetMs });
    app = await inProcessApp({ SOLANA_RPC_URL: localnet.url });
  });
  afterAll(async () => {
    await app?.close();
    await localnet?.close();
  });

  it('quarantined until registered_at + 2,592,000 s, available to anyone from then, and a stranger registers it', async () => {
    const chain = rpcAt(localnet.url);
    const [alice, bob] = await Promise.all([fundedSigner(chain), fundedSigner(chain)]);
    const tag = randomTag('rd');
    await landed(register(chain, alice, tag), chain);
    await landed(release(chain, alice, tag), chain);
    const availability = async () => (await app.fetch(`/v1/availability/${tag}`, { headers: clientHeaders() })).json();
    expect(await availability()).toMatchObject({ available: false, reason: 'quarantined' });

    offsetMs = (Number(REST_SECONDS) - 60) * 1000; // a minute before the end
    await airdrop(chain, bob.address, 1); // a block at the new time: the Clock moves
    expect(await availability()).toMatchObject({ available: false, reason: 'quarantined' });

    offsetMs = (Number(REST_SECONDS) + 5) * 1000;
    await airdrop(chain, bob.address, 1);
    expect(await availability()).toMatchObject({ available: true, reason: null });
    // The chain agrees: another key's register_tag lands.
    await landed(register(chain, bob, tag), chain);
  });
});
