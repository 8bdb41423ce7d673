import { Keypair, PublicKey, SystemProgram, TransactionInstruction, type Connection } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { startLocalnet, type Localnet } from '@/localnet';
import { TOKEN_PROGRAM_ID as TOKEN_PROGRAM_ADDRESS } from '@/lib/chain/spl-token';
import { findTagRecordAddress, registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { REST_SECONDS } from '@/lib/chain/record-states';
import { sendCall } from '../lifecycle/support';
import { clientHeaders, postAuthed } from '../support/http';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { confirmed, connect, fund, fundedParty, PROGRAM_ID, sendInstructions, type Party } from '../support/chain';

/*
 * The payout rules at the API (DESIGN "Payout rules"): a payout wallet SOL sent to would be
 * lost is refused before anything is built, 400 `unsafe_payout` with its `reason`, by
 * register, set wallet and availability alike, each account made for real on the localnet; a
 * released tag rests 30 days: 409 `quarantined` with `until` for anyone but its previous
 * owner, `quarantined` on GET /v1/availability, and, on the chain's clock, free after the rest.
 */

const appUrl = inject('appUrl');
const connection = connect(inject('rpcUrl'));
const TOKEN_PROGRAM_ID = new PublicKey(TOKEN_PROGRAM_ADDRESS);
const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;

async function landed(signature: Promise<string>, on: Connection = connection): Promise<void> {
  await confirmed(on, await signature, 'finalized');
}

/** A new account of `space` bytes owned by `owner`, `payer` paying; then `init` on it, if any. */
async function createAccount(
  payer: Keypair,
  owner: PublicKey,
  space: number,
  init?: (account: PublicKey) => TransactionInstruction,
): Promise<PublicKey> {
  const account = Keypair.generate();
  const lamports = await connection.getMinimumBalanceForRentExemption(space);
  const create = SystemProgram.createAccount({
    fromPubkey: payer.publicKey,
    newAccountPubkey: account.publicKey,
    lamports,
    space,
    programId: owner,
  });
  await landed(sendInstructions(connection, init ? [create, init(account.publicKey)] : [create], [payer, account]));
  return account.publicKey;
}

/** SPL Token InitializeMint2 (20): decimals, mint authority, no freeze authority. */
const initializeMint = (authority: PublicKey) => (mint: PublicKey) =>
  new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
    data: Buffer.concat([Buffer.from([20, 6]), authority.toBuffer(), Buffer.from([0])]),
  });

/** SPL Token InitializeAccount3 (18): the account, its mint; the owner in the data. */
const initializeTokenAccount = (mint: PublicKey, owner: PublicKey) => (account: PublicKey) =>
  new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([18]), owner.toBuffer()]),
  });

describe('unsafe_payout: refused before building, with its reason', () => {
  let alice: Party;
  let tag: string;
  const unsafe: Record<string, PublicKey> = {};

  beforeAll(async () => {
    alice = await fundedParty(appUrl, connection);
    const mint = await createAccount(alice.signer, TOKEN_PROGRAM_ID, MINT_SIZE, initializeMint(alice.signer.publicKey));
    unsafe.mint = mint;
    unsafe.token_account = await createAccount(
      alice.signer,
      TOKEN_PROGRAM_ID,
      TOKEN_ACCOUNT_SIZE,
      initializeTokenAccount(mint, alice.signer.publicKey),
    );
    unsafe.program = PROGRAM_ID;
    unsafe.off_curve = findTagRecordAddress(randomTag('pda'), PROGRAM_ID)[0]; // a PDA
    unsafe.not_system_owned = await createAccount(alice.signer, PROGRAM_ID, 0); // a key's account handed to a program
    tag = randomTag('ps');
    await landed(
      sendCall(
        connection,
        { kind: 'register', tag, owner: alice.signer, wallet: alice.signer },
        await connection.getLatestBlockhash('confirmed'),
      ),
    );
    expect(
      (
        await postAuthed(`${appUrl}/v1/sync`, null, {
          signature: (
            await connection.getSignaturesForAddress(findTagRecordAddress(tag, PROGRAM_ID)[0], { limit: 1 })
          )[0]!.signature,
        })
      ).status,
    ).toBe(200);
  });

  const reasons = ['off_curve', 'token_account', 'mint', 'program', 'not_system_owned'] as const;

  for (const reason of reasons) {
    it(`${reason}: POST /v1/register, POST /v1/identity/{tag}/wallet and GET /v1/availability?wallet= answer 400 unsafe_payout`, async () => {
      const wallet = unsafe[reason]!.toBase58();
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
    for (const wallet of [Keypair.generate().publicKey.toBase58(), alice.key]) {
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
    const [alice, bob] = await Promise.all([fundedParty(appUrl, connection), fundedParty(appUrl, connection)]);
    const tag = randomTag('rq');
    const blockhash = () => connection.getLatestBlockhash('confirmed');
    await landed(
      sendCall(connection, { kind: 'register', tag, owner: alice.signer, wallet: alice.signer }, await blockhash()),
    );
    const release = await sendCall(
      connection,
      { kind: 'release', tag, owner: alice.signer, receiver: alice.signer.publicKey },
      await blockhash(),
    );
    await landed(Promise.resolve(release));
    const releasedAt = (await connection.getTransaction(release, {
      commitment: 'finalized',
      maxSupportedTransactionVersion: 0,
    }))!.blockTime!;
    const until = new Date((releasedAt + Number(REST_SECONDS)) * 1000).toISOString();
    expect((await postAuthed(`${appUrl}/v1/sync`, null, { signature: release })).status).toBe(404);

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
    const chain = connect(localnet.url);
    const [alice, bob] = [Keypair.generate(), Keypair.generate()];
    await Promise.all([fund(chain, alice.publicKey), fund(chain, bob.publicKey)]);
    const tag = randomTag('rd');
    const blockhash = () => chain.getLatestBlockhash('confirmed');
    await landed(sendCall(chain, { kind: 'register', tag, owner: alice, wallet: alice }, await blockhash()), chain);
    await landed(
      sendCall(chain, { kind: 'release', tag, owner: alice, receiver: alice.publicKey }, await blockhash()),
      chain,
    );
    const availability = async () => (await app.fetch(`/v1/availability/${tag}`, { headers: clientHeaders() })).json();
    expect(await availability()).toMatchObject({ available: false, reason: 'quarantined' });

    offsetMs = (Number(REST_SECONDS) - 60) * 1000; // a minute before the end
    await fund(chain, bob.publicKey, 1); // a block at the new time: the Clock moves
    expect(await availability()).toMatchObject({ available: false, reason: 'quarantined' });

    offsetMs = (Number(REST_SECONDS) + 5) * 1000;
    await fund(chain, bob.publicKey, 1);
    expect(await availability()).toMatchObject({ available: true, reason: null });
    // The chain agrees: another key's register_tag lands.
    const register = registerTagInstruction({
      programId: PROGRAM_ID,
      tag,
      owner: bob.publicKey,
      wallet: bob.publicKey,
      feePayer: bob.publicKey,
    });
    await landed(sendInstructions(chain, [register], [bob]), chain);
  });
});
