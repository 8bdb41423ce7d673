import {
  decodeTagRecord,
  findTagRecordAddress,
  parseWeb3RegistryInstruction,
} from '@/packages/tag-registry/src/web3js';
import { address } from '@solana/kit';
import {
  getAcceptTransferInstructionDataEncoder,
  getCancelTransferInstructionDataEncoder,
  getReleaseTagInstructionDataEncoder,
  getSetWalletInstructionDataEncoder,
  TagRegistryInstruction,
} from '@/packages/tag-registry/src';
import { isResting } from '@/lib/chain/record-states';
import bs58 from 'bs58';
import { Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag, recordAddressOf } from '@/devstack/identities';
import { identities } from '@/lib/db/schema';
import { stackDatabase } from '../support/database';
import { clientHeaders, getIdentity, postAuthed } from '../support/http';
import { afterBudget } from '../support/compute-budget';
import { PROGRAM_ID, confirmed, connect, fund, registerDirect, fundedParty, type Party } from '../support/chain';

/*
 * The lifecycle builders of /v1 over HTTP against the built app: every builder's
 * statuses in the order, the decoded transactions against the ABI (accounts, signers,
 * data, fee payer), and the caller judged on the record on chain, not on the mirror.
 */

const appUrl = inject('appUrl');
const connection = connect(inject('rpcUrl'));
const ZERO = new PublicKey(new Uint8Array(32)).toBase58();

const party = () => fundedParty(appUrl, connection);

const url = (tag: string, path: string) => `${appUrl}/v1/identity/${tag}${path}`;
const decode = (base64: string) => Transaction.from(Buffer.from(base64, 'base64'));
const metas = (tx: Transaction) =>
  afterBudget(tx)[0]!.keys.map((k) => ({
    pubkey: k.pubkey.toBase58(),
    isSigner: k.isSigner,
    isWritable: k.isWritable,
  }));

/** Signs a built transaction with every signer given (caller first, sponsor last), sends it, waits until final, syncs it. */
async function land(base64: string, ...signers: Keypair[]): Promise<string> {
  const tx = decode(base64);
  for (const signer of signers) tx.partialSign(signer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await confirmed(connection, signature, 'finalized');
  const synced = await postAuthed(`${appUrl}/v1/sync`, null, { signature });
  expect([200, 404]).toContain(synced.status);
  return signature;
}

/** Signs a built transaction and sends it, without syncing: the mirror does not hear of it. */
async function send(base64: string, signer: Keypair): Promise<void> {
  const tx = decode(base64);
  tx.partialSign(signer);
  await confirmed(connection, await connection.sendRawTransaction(tx.serialize()), 'finalized');
}

/** A tag registered on chain by `owner` and mirrored. */
async function registered(owner: Party, prefix = 'lc'): Promise<string> {
  const tag = randomTag(prefix);
  const signature = await registerDirect(connection, owner.signer, tag);
  await confirmed(connection, signature, 'finalized');
  expect((await postAuthed(`${appUrl}/v1/sync`, null, { signature })).status).toBe(200);
  return tag;
}

describe('lifecycle builders', () => {
  const database = stackDatabase({ poolSize: 2 });
  let alice: Party;
  let bob: Party;
  let carol: Party;

  beforeAll(async () => {
    [alice, bob, carol] = await Promise.all([party(), party(), party()]);
  });

  it('the whole lifecycle through /v1: wallet, offer, GET transfer, accept, release; every transaction exactly the ABI', async () => {
    const tag = await registered(alice);
    const [pda] = findTagRecordAddress(tag, PROGRAM_ID);
    const payoutKey = Keypair.generate();
    const payout = payoutKey.publicKey.toBase58();

    // set_wallet: tag_record (w), owner (s), wallet (s); the owner pays, the new wallet consents by signing.
    const wallet = await postAuthed(url(tag, '/wallet'), alice.token, { wallet: payout });
    expect(wallet.status).toBe(200);
    expect(Object.keys(wallet.json).sort()).toEqual(['lastValidBlockHeight', 'transaction']);
    expect(wallet.json.lastValidBlockHeight).toMatch(/^\d+$/);
    let tx = decode(wallet.json.transaction);
    expect(tx.signatures.every((s) => s.signature === null)).toBe(true); // never signed by the service
    expect(tx.feePayer?.toBase58()).toBe(alice.key);
    expect(afterBudget(tx)).toHaveLength(1);
    expect(afterBudget(tx)[0]!.programId.toBase58()).toBe(PROGRAM_ID.toBase58());
    expect(metas(tx)).toEqual([
      { pubkey: pda.toBase58(), isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: true }, // also the fee payer
      { pubkey: payout, isSigner: true, isWritable: false },
    ]);
    expect(Buffer.from(afterBudget(tx)[0]!.data)).toEqual(
      Buffer.from(getSetWalletInstructionDataEncoder().encode({ wallet: address(payout) })),
    );
    expect(tx.compileMessage().header.numRequiredSignatures).toBe(2);
    expect(tx.signatures.map((s) => s.publicKey.toBase58())).toEqual([alice.key, payout]);
    await land(wallet.json.transaction, alice.signer, payoutKey);
    expect(await (await getIdentity(appUrl, tag)).json()).toMatchObject({ owner: alice.key, wallet: payout });

    // offer_transfer: data carries the new owner.
    const offer = await postAuthed(url(tag, '/transfer'), alice.token, { newOwner: bob.key });
    expect(offer.status).toBe(200);
    tx = decode(offer.json.transaction);
    expect(metas(tx)).toEqual([
      { pubkey: pda.toBase58(), isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: true },
    ]);
    expect(
      parseWeb3RegistryInstruction(
        PROGRAM_ID,
        afterBudget(tx)[0]!.data,
        afterBudget(tx)[0]!.keys.map((k) => k.pubkey),
      ),
    ).toMatchObject({
      instructionType: TagRegistryInstruction.OfferTransfer,
      data: { newOwner: bob.key },
    });
    await land(offer.json.transaction, alice.signer);
    const state = await fetch(url(tag, '/transfer'));
    expect(state.status).toBe(200);
    expect(state.headers.get('cache-control')).toMatch(/s-maxage=/);
    expect(await state.json()).toEqual({ tag: `@${tag}`, owner: alice.key, pendingOwner: bob.key });

    // accept_transfer: signed by the pending owner, who pays; no body at all.
    const accept = await postAuthed(url(tag, '/transfer/accept'), bob.token, '');
    expect(accept.status).toBe(200);
    tx = decode(accept.json.transaction);
    expect(tx.feePayer?.toBase58()).toBe(bob.key);
    expect(metas(tx)).toEqual([
      { pubkey: pda.toBase58(), isSigner: false, isWritable: true },
      { pubkey: bob.key, isSigner: true, isWritable: true },
    ]);
    expect(Buffer.from(afterBudget(tx)[0]!.data)).toEqual(
      Buffer.from(getAcceptTransferInstructionDataEncoder().encode({})),
    );
    await land(accept.json.transaction, bob.signer);
    expect(await (await fetch(url(tag, '/transfer'))).json()).toEqual({
      tag: `@${tag}`,
      owner: bob.key,
      pendingOwner: null,
    });
    expect(await (await getIdentity(appUrl, tag)).json()).toMatchObject({ owner: bob.key, wallet: bob.key }); // accept pays the new owner

    // release_tag: receiver defaults to the owner (one account, signer and writable).
    const release = await postAuthed(url(tag, '/release'), bob.token, {});
    expect(release.status).toBe(200);
    tx = decode(release.json.transaction);
    expect(metas(tx)).toEqual([
      { pubkey: pda.toBase58(), isSigner: false, isWritable: true },
      { pubkey: bob.key, isSigner: true, isWritable: true },
      { pubkey: bob.key, isSigner: true, isWritable: true },
    ]);
    expect(Buffer.from(afterBudget(tx)[0]!.data)).toEqual(
      Buffer.from(getReleaseTagInstructionDataEncoder().encode({})),
    );
    await land(release.json.transaction, bob.signer);
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    // The record rests (program/README.md "The resting record"): it stays, marked pending_owner == owner.
    const resting = decodeTagRecord((await connection.getAccountInfo(pda, 'finalized'))!.data)!;
    expect(isResting(resting)).toBe(true);
  });

  it('cancel, a receiver of its own, and the sponsor form: the sponsor pays and signs last', async () => {
    const tag = await registered(alice);
    const [pda] = findTagRecordAddress(tag, PROGRAM_ID);
    const sponsor = Keypair.generate();
    await fund(connection, sponsor.publicKey);
    await land(
      (await postAuthed(url(tag, '/transfer'), alice.token, { newOwner: carol.key })).json.transaction,
      alice.signer,
    );

    const cancel = await postAuthed(url(tag, '/transfer/cancel'), alice.token, {
      feePayer: sponsor.publicKey.toBase58(),
    });
    expect(cancel.status).toBe(200);
    const tx = decode(cancel.json.transaction);
    expect(tx.feePayer?.toBase58()).toBe(sponsor.publicKey.toBase58());
    expect(tx.compileMessage().header.numRequiredSignatures).toBe(2);
    expect(metas(tx)).toEqual([
      { pubkey: pda.toBase58(), isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: false },
    ]);
    expect(Buffer.from(afterBudget(tx)[0]!.data)).toEqual(
      Buffer.from(getCancelTransferInstructionDataEncoder().encode({})),
    );
    // The caller alone cannot send it: the sponsor's signature is missing.
    const callerOnly = decode(cancel.json.transaction);
    callerOnly.partialSign(alice.signer);
    await expect(
      connection.sendRawTransaction(callerOnly.serialize({ requireAllSignatures: false })),
    ).rejects.toThrow();
    await land(cancel.json.transaction, alice.signer, sponsor);
    expect(await (await fetch(url(tag, '/transfer'))).json()).toMatchObject({ pendingOwner: null });

    const receiver = Keypair.generate().publicKey.toBase58();
    const release = await postAuthed(url(tag, '/release'), alice.token, { receiver });
    expect(metas(decode(release.json.transaction))).toEqual([
      { pubkey: pda.toBase58(), isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: true },
      { pubkey: receiver, isSigner: false, isWritable: true },
    ]);
    await land(release.json.transaction, alice.signer);
    // The record keeps its deposit while it rests; the receiver gets what was above it (nothing here).
    expect(await connection.getBalance(new PublicKey(receiver), 'finalized')).toBe(0);
  });

  it('the caller is judged on the chain: a stale mirror row neither grants nor refuses', async () => {
    const tag = await registered(alice, 'st');
    const mirrorSays = (values: Partial<typeof identities.$inferInsert>) =>
      database.db.update(identities).set(values).where(eq(identities.tag, tag));
    // The mirror claims carol owns it (stale, or tampered): the chain says alice.
    await mirrorSays({ owner: carol.key, wallet: carol.key });
    const byCarol = await postAuthed(url(tag, '/wallet'), carol.token, { wallet: carol.key });
    expect(byCarol.status).toBe(403);
    expect(byCarol.json).toEqual({ error: { code: 'forbidden', message: 'This tag belongs to another public key.' } });
    expect((await postAuthed(url(tag, '/wallet'), alice.token, { wallet: carol.key })).status).toBe(200);

    // An offer to bob on chain, while the mirror names carol as the pending owner.
    await send(
      (await postAuthed(url(tag, '/transfer'), alice.token, { newOwner: bob.key })).json.transaction,
      alice.signer,
    );
    await mirrorSays({ owner: alice.key, pendingOwner: carol.key });
    const byMirrorsPending = await postAuthed(url(tag, '/transfer/accept'), carol.token, {});
    expect(byMirrorsPending.status).toBe(403);
    expect(byMirrorsPending.json).toEqual({
      error: { code: 'forbidden', message: 'This tag is not offered to this public key.' },
    });
    expect((await postAuthed(url(tag, '/transfer/accept'), bob.token, {})).status).toBe(200);

    // Released on chain while the mirror still shows an active row: 404.
    await send((await postAuthed(url(tag, '/release'), alice.token, {})).json.transaction, alice.signer);
    await database.db
      .insert(identities)
      .values({
        tag,
        pda: recordAddressOf(tag),
        owner: alice.key,
        wallet: alice.key,
        createdAt: new Date(),
        signature: 'stale',
        slot: 0n,
      })
      .onConflictDoUpdate({ target: identities.tag, set: { owner: alice.key, status: 'active' } });
    const after = await postAuthed(url(tag, '/wallet'), alice.token, { wallet: carol.key });
    expect(after.status).toBe(404);
    expect(after.json).toEqual({ error: { code: 'not_found', message: 'No identity with this tag.' } });
  });

  describe('statuses, in order: 400, 401, 404, 409, 403', () => {
    let tag: string;
    let offered: string;
    beforeAll(async () => {
      tag = await registered(alice, 'ss');
      offered = await registered(alice, 'so');
      await land(
        (await postAuthed(url(offered, '/transfer'), alice.token, { newOwner: bob.key })).json.transaction,
        alice.signer,
      );
    });

    const NOT_FOUND = { error: { code: 'not_found', message: 'No identity with this tag.' } };
    type Case = {
      path: string;
      who: () => Party | null;
      body: unknown;
      tag?: () => string;
      status: number;
      error: { code: string; message: string | RegExp };
    };
    const CASES: [string, () => Case][] = [
      [
        'a malformed tag',
        () => ({
          path: '/wallet',
          who: () => alice,
          body: { wallet: carol.key },
          tag: () => 'a-b',
          status: 400,
          error: { code: 'invalid_tag', message: /^The tag must be 3 to 32 characters/ },
        }),
      ],
      [
        'a wallet that is not a key',
        () => ({
          path: '/wallet',
          who: () => alice,
          body: { wallet: 'nope' },
          status: 400,
          error: { code: 'invalid_request', message: '`wallet`: must be a base58 Solana public key' },
        }),
      ],
      [
        'a zero wallet',
        () => ({
          path: '/wallet',
          who: () => alice,
          body: { wallet: ZERO },
          status: 400,
          error: { code: 'invalid_request', message: '`wallet`: must not be the zero address' },
        }),
      ],
      [
        'no wallet',
        () => ({
          path: '/wallet',
          who: () => alice,
          body: {},
          status: 400,
          error: { code: 'invalid_request', message: /^`wallet`: / },
        }),
      ],
      [
        'an owner field',
        () => ({
          path: '/wallet',
          who: () => alice,
          body: { wallet: carol.key, owner: carol.key },
          status: 400,
          error: { code: 'invalid_request', message: /owner/ },
        }),
      ],
      [
        'a zero newOwner',
        () => ({
          path: '/transfer',
          who: () => alice,
          body: { newOwner: ZERO },
          status: 400,
          error: { code: 'invalid_request', message: '`newOwner`: must not be the zero address' },
        }),
      ],
      [
        'a 31-byte newOwner',
        () => ({
          path: '/transfer',
          who: () => alice,
          body: { newOwner: bs58.encode(new Uint8Array(31).fill(7)) },
          status: 400,
          error: { code: 'invalid_request', message: '`newOwner`: must be a base58 Solana public key' },
        }),
      ],
      [
        'a bad feePayer',
        () => ({
          path: '/transfer/accept',
          who: () => bob,
          body: { feePayer: 'x'.repeat(44) },
          status: 400,
          error: { code: 'invalid_request', message: '`feePayer`: must be a base58 Solana public key' },
        }),
      ],
      [
        'an unknown key on cancel',
        () => ({
          path: '/transfer/cancel',
          who: () => alice,
          body: { memo: 1 },
          status: 400,
          error: { code: 'invalid_request', message: /memo/ },
        }),
      ],
      [
        'a body that is not JSON',
        () => ({
          path: '/transfer/cancel',
          who: () => alice,
          body: '{"feePayer":',
          status: 400,
          error: { code: 'invalid_request', message: 'The request body must be JSON.' },
        }),
      ],
      [
        'a zero receiver',
        () => ({
          path: '/release',
          who: () => alice,
          body: { receiver: ZERO },
          status: 400,
          error: { code: 'invalid_request', message: '`receiver`: must not be the zero address' },
        }),
      ],
      [
        'the record as receiver',
        () => ({
          path: '/release',
          who: () => alice,
          body: () => ({ receiver: findTagRecordAddress(tag, PROGRAM_ID)[0].toBase58() }),
          status: 400,
          error: { code: 'invalid_request', message: '`receiver`: must not be the tag record itself' },
        }),
      ],
      [
        '400 before 401 (no token, bad body)',
        () => ({
          path: '/transfer',
          who: () => null,
          body: { newOwner: ZERO },
          status: 400,
          error: { code: 'invalid_request', message: '`newOwner`: must not be the zero address' },
        }),
      ],
      [
        'no token',
        () => ({
          path: '/wallet',
          who: () => null,
          body: { wallet: carol.key },
          status: 401,
          error: { code: 'unauthorized', message: 'A valid session token is required.' },
        }),
      ],
      [
        'a tag never registered',
        () => ({
          path: '/wallet',
          who: () => alice,
          body: { wallet: carol.key },
          tag: () => randomTag('nx'),
          status: 404,
          error: NOT_FOUND.error,
        }),
      ],
      [
        'a reserved tag',
        () => ({
          path: '/transfer/cancel',
          who: () => alice,
          body: {},
          tag: () => 'admin',
          status: 404,
          error: NOT_FOUND.error,
        }),
      ],
      [
        '404 before 403 (a stranger, a missing tag)',
        () => ({
          path: '/release',
          who: () => carol,
          body: {},
          tag: () => randomTag('nx'),
          status: 404,
          error: NOT_FOUND.error,
        }),
      ],
      [
        'cancel with no offer',
        () => ({
          path: '/transfer/cancel',
          who: () => alice,
          body: {},
          status: 409,
          error: { code: 'conflict', message: 'No transfer offer stands for this tag.' },
        }),
      ],
      [
        'accept with no offer',
        () => ({
          path: '/transfer/accept',
          who: () => bob,
          body: {},
          status: 409,
          error: { code: 'conflict', message: 'No transfer offer stands for this tag.' },
        }),
      ],
      [
        'an offer to the owner itself',
        () => ({
          path: '/transfer',
          who: () => alice,
          body: () => ({ newOwner: alice.key }),
          status: 409,
          error: { code: 'conflict', message: 'The tag already belongs to this key; offer it to another one.' },
        }),
      ],
      [
        '409 before 403 (a stranger cancels no offer)',
        () => ({
          path: '/transfer/cancel',
          who: () => carol,
          body: {},
          status: 409,
          error: { code: 'conflict', message: 'No transfer offer stands for this tag.' },
        }),
      ],
      [
        'a stranger sets the wallet',
        () => ({
          path: '/wallet',
          who: () => carol,
          body: { wallet: carol.key },
          status: 403,
          error: { code: 'forbidden', message: 'This tag belongs to another public key.' },
        }),
      ],
      [
        'a stranger offers it',
        () => ({
          path: '/transfer',
          who: () => carol,
          body: { newOwner: carol.key },
          status: 403,
          error: { code: 'forbidden', message: 'This tag belongs to another public key.' },
        }),
      ],
      [
        'a stranger releases it',
        () => ({
          path: '/release',
          who: () => carol,
          body: {},
          status: 403,
          error: { code: 'forbidden', message: 'This tag belongs to another public key.' },
        }),
      ],
      [
        'a stranger accepts an offer made to another',
        () => ({
          path: '/transfer/accept',
          who: () => carol,
          body: {},
          tag: () => offered,
          status: 403,
          error: { code: 'forbidden', message: 'This tag is not offered to this public key.' },
        }),
      ],
      [
        'the owner accepts its own offer',
        () => ({
          path: '/transfer/accept',
          who: () => alice,
          body: {},
          tag: () => offered,
          status: 403,
          error: { code: 'forbidden', message: 'This tag is not offered to this public key.' },
        }),
      ],
      [
        'a stranger cancels an offer',
        () => ({
          path: '/transfer/cancel',
          who: () => bob,
          body: {},
          tag: () => offered,
          status: 403,
          error: { code: 'forbidden', message: 'This tag belongs to another public key.' },
        }),
      ],
    ];

    for (const [name, make] of CASES) {
      it(name, async () => {
        const c = make();
        const body = typeof c.body === 'function' ? (c.body as () => unknown)() : c.body;
        const res = await postAuthed(url(c.tag?.() ?? tag, c.path), c.who()?.token ?? null, body);
        expect(res.status).toBe(c.status);
        expect(Object.keys(res.json)).toEqual(['error']);
        expect(res.json.error.code).toBe(c.error.code);
        if (typeof c.error.message === 'string') expect(res.json.error.message).toBe(c.error.message);
        else expect(res.json.error.message).toMatch(c.error.message);
      });
    }

    it('a blocked tag is 404 to its owner too, and GET transfer answers 404 for it', async () => {
      const blocked = await registered(alice, 'bl');
      await database.db.update(identities).set({ status: 'blocked' }).where(eq(identities.tag, blocked));
      const res = await postAuthed(url(blocked, '/wallet'), alice.token, { wallet: carol.key });
      expect(res.status).toBe(404);
      expect(res.json).toEqual(NOT_FOUND);
      const state = await fetch(url(blocked, '/transfer'));
      expect(state.status).toBe(404);
      expect(await state.json()).toEqual(NOT_FOUND);
    });

    it('GET transfer: path forms, 400 malformed, 404 missing', async () => {
      expect(await (await fetch(url(`%40${tag.toUpperCase()}`, '/transfer'))).json()).toEqual({
        tag: `@${tag}`,
        owner: alice.key,
        pendingOwner: null,
      });
      const malformed = await fetch(url('no-dashes', '/transfer'));
      expect(malformed.status).toBe(400);
      expect((await malformed.json()).error.code).toBe('invalid_tag');
      const missing = await fetch(url(randomTag('nx'), '/transfer'));
      expect(missing.status).toBe(404);
    });

    it('429 past the rate limit, with Retry-After, before anything else', async () => {
      const headers = clientHeaders(); // one client address for every call
      let last = await postAuthed(url(tag, '/wallet'), null, { wallet: carol.key }, headers);
      for (let i = 0; i < 40 && last.status !== 429; i++)
        last = await postAuthed(url(tag, '/wallet'), null, { wallet: carol.key }, headers);
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last.json).toEqual({ error: { code: 'rate_limited', message: 'Too many requests; try again later.' } });
    });
  });
});
