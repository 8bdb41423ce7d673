import {
  address,
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  isSignerRole,
  isWritableRole,
  type KeyPairSigner,
} from '@solana/kit';
import {
  getAcceptTransferInstructionDataEncoder,
  getCancelTransferInstructionDataEncoder,
  getReleaseTagInstructionDataEncoder,
  getSetWalletInstructionDataEncoder,
  parseRegistryInstruction,
  parseTagRecord,
  TagRegistryInstruction,
} from '@/packages/tag-registry/src';
import { isResting } from '@/lib/chain/record-states';
import bs58 from 'bs58';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag, recordAddressOf } from '@/devstack/identities';
import { identities } from '@/lib/db/schema';
import { stackDatabase } from '../support/database';
import { clientHeaders, getIdentity, postAuthed } from '../support/http';
import { afterBudget, signBuilt } from '../support/built-transactions';
import {
  decodeWire,
  fundedParty,
  fundedSigner,
  type Party,
  PROGRAM_ADDRESS,
  reachAll,
  recordAddress,
  registration,
  rpcAt,
  sendSigned,
  sendWire,
} from '../support/chain';

/*
 * The lifecycle builders of /v1 over HTTP against the built app: every builder's
 * statuses in the order, the decoded transactions against the ABI (accounts, signers,
 * data, fee payer), and the caller judged on the record on chain, not on the mirror.
 */

const appUrl = inject('appUrl');
const rpc = rpcAt(inject('rpcUrl'));
const ZERO = '11111111111111111111111111111111';

const party = () => fundedParty(appUrl, rpc);

const url = (tag: string, path: string) => `${appUrl}/v1/identity/${tag}${path}`;
/** A built transaction (base64) as kit reads it: its own instructions after the budget, checked first. */
const own = (tx: string) => afterBudget(decodeWire(tx).message);
const metas = (tx: string) =>
  own(tx)[0]!.accounts!.map((a) => ({
    pubkey: a.address,
    isSigner: isSignerRole(a.role),
    isWritable: isWritableRole(a.role),
  }));
const feePayerOf = (tx: string) => decodeWire(tx).message.feePayer.address;
const signaturesOf = (tx: string) => decodeWire(tx).transaction.signatures;
const requiredSignatures = (tx: string) =>
  getCompiledTransactionMessageDecoder().decode(decodeWire(tx).transaction.messageBytes).header.numSignerAccounts;

/** Signs a built transaction with every signer given (caller first, sponsor last), sends it, waits until final, syncs it. */
async function land(base64: string, ...signers: KeyPairSigner[]): Promise<string> {
  const signature = await sendWire(rpc, await signBuilt(base64, ...signers));
  await reachAll(rpc, [signature], 'finalized');
  const synced = await postAuthed(`${appUrl}/v1/sync`, null, { signature });
  expect([200, 404]).toContain(synced.status);
  return signature;
}

/** Signs a built transaction and sends it, without syncing: the mirror does not hear of it. */
async function send(base64: string, signer: KeyPairSigner): Promise<void> {
  await reachAll(rpc, [await sendWire(rpc, await signBuilt(base64, signer))], 'finalized');
}

/** A tag registered on chain by `owner` and mirrored. */
async function registered(owner: Party, prefix = 'lc'): Promise<string> {
  const tag = randomTag(prefix);
  const signature = await sendSigned(rpc, [await registration(owner.signer, tag)], owner.signer);
  await reachAll(rpc, [signature], 'finalized');
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
    const pda = await recordAddress(tag);
    const payoutKey = await generateKeyPairSigner();
    const payout = payoutKey.address;

    // set_wallet: tag_record (w), owner (s), wallet (s); the owner pays, the new wallet consents by signing.
    const wallet = await postAuthed(url(tag, '/wallet'), alice.token, { wallet: payout });
    expect(wallet.status).toBe(200);
    expect(Object.keys(wallet.json).sort()).toEqual(['lastValidBlockHeight', 'transaction']);
    expect(wallet.json.lastValidBlockHeight).toMatch(/^\d+$/);
    let tx: string = wallet.json.transaction;
    expect(Object.values(signaturesOf(tx)).every((s) => s === null)).toBe(true); // never signed by the service
    expect(feePayerOf(tx)).toBe(alice.key);
    expect(own(tx)).toHaveLength(1);
    expect(own(tx)[0]!.programAddress).toBe(PROGRAM_ADDRESS);
    expect(metas(tx)).toEqual([
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: true }, // also the fee payer
      { pubkey: payout, isSigner: true, isWritable: false },
    ]);
    expect(Buffer.from(own(tx)[0]!.data!)).toEqual(
      Buffer.from(getSetWalletInstructionDataEncoder().encode({ wallet: address(payout) })),
    );
    expect(requiredSignatures(tx)).toBe(2);
    expect(Object.keys(signaturesOf(tx))).toEqual([alice.key, payout]);
    await land(wallet.json.transaction, alice.signer, payoutKey);
    expect(await (await getIdentity(appUrl, tag)).json()).toMatchObject({ owner: alice.key, wallet: payout });

    // offer_transfer: data carries the new owner.
    const offer = await postAuthed(url(tag, '/transfer'), alice.token, { newOwner: bob.key });
    expect(offer.status).toBe(200);
    tx = offer.json.transaction;
    expect(metas(tx)).toEqual([
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: true },
    ]);
    const [offered] = own(tx);
    expect(
      parseRegistryInstruction({
        programAddress: offered!.programAddress,
        accounts: offered!.accounts!.map((a) => a.address),
        data: offered!.data!,
      }),
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
    tx = accept.json.transaction;
    expect(feePayerOf(tx)).toBe(bob.key);
    expect(metas(tx)).toEqual([
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: bob.key, isSigner: true, isWritable: true },
    ]);
    expect(Buffer.from(own(tx)[0]!.data!)).toEqual(Buffer.from(getAcceptTransferInstructionDataEncoder().encode({})));
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
    tx = release.json.transaction;
    expect(metas(tx)).toEqual([
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: bob.key, isSigner: true, isWritable: true },
      { pubkey: bob.key, isSigner: true, isWritable: true },
    ]);
    expect(Buffer.from(own(tx)[0]!.data!)).toEqual(Buffer.from(getReleaseTagInstructionDataEncoder().encode({})));
    await land(release.json.transaction, bob.signer);
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    // The record rests (program/README.md "The resting record"): it stays, marked pending_owner == owner.
    const { value: account } = await rpc.getAccountInfo(pda, { encoding: 'base64', commitment: 'finalized' }).send();
    const resting = parseTagRecord(Buffer.from(account!.data[0], 'base64'))!;
    expect(isResting(resting)).toBe(true);
  });

  it('cancel, a receiver of its own, and the sponsor form: the sponsor pays and signs last', async () => {
    const tag = await registered(alice);
    const pda = await recordAddress(tag);
    const sponsor = await fundedSigner(rpc);
    await land(
      (await postAuthed(url(tag, '/transfer'), alice.token, { newOwner: carol.key })).json.transaction,
      alice.signer,
    );

    const cancel = await postAuthed(url(tag, '/transfer/cancel'), alice.token, {
      feePayer: sponsor.address,
    });
    expect(cancel.status).toBe(200);
    const tx: string = cancel.json.transaction;
    expect(feePayerOf(tx)).toBe(sponsor.address);
    expect(requiredSignatures(tx)).toBe(2);
    expect(metas(tx)).toEqual([
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: false },
    ]);
    expect(Buffer.from(own(tx)[0]!.data!)).toEqual(Buffer.from(getCancelTransferInstructionDataEncoder().encode({})));
    // The caller alone cannot send it: the sponsor's signature is missing.
    await expect(sendWire(rpc, await signBuilt(cancel.json.transaction, alice.signer))).rejects.toThrow();
    await land(cancel.json.transaction, alice.signer, sponsor);
    expect(await (await fetch(url(tag, '/transfer'))).json()).toMatchObject({ pendingOwner: null });

    const receiver = (await generateKeyPairSigner()).address;
    const release = await postAuthed(url(tag, '/release'), alice.token, { receiver });
    expect(metas(release.json.transaction)).toEqual([
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: alice.key, isSigner: true, isWritable: true },
      { pubkey: receiver, isSigner: false, isWritable: true },
    ]);
    await land(release.json.transaction, alice.signer);
    // The record keeps its deposit while it rests; the receiver gets what was above it (nothing here).
    expect((await rpc.getBalance(receiver, { commitment: 'finalized' }).send()).value).toBe(0n);
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
    type Expected = { code: string; message: string | RegExp };
    const invalid = (message: string | RegExp): Expected => ({ code: 'invalid_request', message });
    const notAKey = (field: string) => invalid(`\`${field}\`: must be a base58 Solana public key`);
    const zeroKey = (field: string) => invalid(`\`${field}\`: must not be the zero address`);
    const BAD_TAG: Expected = { code: 'invalid_tag', message: /^The tag must be 3 to 32 characters/ };
    const NOT_JSON = invalid('The request body must be JSON.');
    /** The record cannot receive its own lamports. */
    const SELF_PAYOUT = invalid('`receiver`: must not be the tag record itself');
    const NO_TOKEN: Expected = { code: 'unauthorized', message: 'A valid session token is required.' };
    const NO_OFFER: Expected = { code: 'conflict', message: 'No transfer offer stands for this tag.' };
    const OFFER_TO_SELF: Expected = {
      code: 'conflict',
      message: 'The tag already belongs to this key; offer it to another one.',
    };
    const NOT_OWNER: Expected = { code: 'forbidden', message: 'This tag belongs to another public key.' };
    const NOT_OFFERED: Expected = { code: 'forbidden', message: 'This tag is not offered to this public key.' };
    /** 31 bytes in base58: well-formed, but not a public key. */
    const SHORT_KEY = bs58.encode(new Uint8Array(31).fill(7));
    const MISSING = () => randomTag('nx');
    /**
     * One row per case: who posts (no token for null), to which path of the tag, with what body (a
     * function when it names a party, who exists only once beforeAll ran), the status and error
     * expected, and the tag when it is not the shared one.
     */
    type Case = [
      name: string,
      who: 'alice' | 'bob' | 'carol' | null,
      path: string,
      body: unknown,
      status: number,
      error: Expected,
      tag?: () => string,
    ];
    const CASES: Case[] = [
      ['a malformed tag', 'alice', '/wallet', () => ({ wallet: carol.key }), 400, BAD_TAG, () => 'a-b'],
      ['a wallet that is not a key', 'alice', '/wallet', { wallet: 'nope' }, 400, notAKey('wallet')],
      ['a zero wallet', 'alice', '/wallet', { wallet: ZERO }, 400, zeroKey('wallet')],
      ['no wallet', 'alice', '/wallet', {}, 400, invalid(/^`wallet`: /)],
      ['an owner field', 'alice', '/wallet', () => ({ wallet: carol.key, owner: carol.key }), 400, invalid(/owner/)],
      ['a zero newOwner', 'alice', '/transfer', { newOwner: ZERO }, 400, zeroKey('newOwner')],
      ['a 31-byte newOwner', 'alice', '/transfer', { newOwner: SHORT_KEY }, 400, notAKey('newOwner')],
      ['a bad feePayer', 'bob', '/transfer/accept', { feePayer: 'x'.repeat(44) }, 400, notAKey('feePayer')],
      ['an unknown key on cancel', 'alice', '/transfer/cancel', { memo: 1 }, 400, invalid(/memo/)],
      ['a body that is not JSON', 'alice', '/transfer/cancel', '{"feePayer":', 400, NOT_JSON],
      ['a zero receiver', 'alice', '/release', { receiver: ZERO }, 400, zeroKey('receiver')],
      ['the record as receiver', 'alice', '/release', () => ({ receiver: recordAddressOf(tag) }), 400, SELF_PAYOUT],
      ['400 before 401 (no token, bad body)', null, '/transfer', { newOwner: ZERO }, 400, zeroKey('newOwner')],
      ['no token', null, '/wallet', () => ({ wallet: carol.key }), 401, NO_TOKEN],
      ['a tag never registered', 'alice', '/wallet', () => ({ wallet: carol.key }), 404, NOT_FOUND.error, MISSING],
      ['a reserved tag', 'alice', '/transfer/cancel', {}, 404, NOT_FOUND.error, () => 'admin'],
      ['404 before 403 (a stranger, a missing tag)', 'carol', '/release', {}, 404, NOT_FOUND.error, MISSING],
      ['cancel with no offer', 'alice', '/transfer/cancel', {}, 409, NO_OFFER],
      ['accept with no offer', 'bob', '/transfer/accept', {}, 409, NO_OFFER],
      ['an offer to the owner itself', 'alice', '/transfer', () => ({ newOwner: alice.key }), 409, OFFER_TO_SELF],
      ['409 before 403 (a stranger cancels no offer)', 'carol', '/transfer/cancel', {}, 409, NO_OFFER],
      ['a stranger sets the wallet', 'carol', '/wallet', () => ({ wallet: carol.key }), 403, NOT_OWNER],
      ['a stranger offers it', 'carol', '/transfer', () => ({ newOwner: carol.key }), 403, NOT_OWNER],
      ['a stranger releases it', 'carol', '/release', {}, 403, NOT_OWNER],
      ['a stranger accepts an offer made to another', 'carol', '/transfer/accept', {}, 403, NOT_OFFERED, () => offered],
      ['the owner accepts its own offer', 'alice', '/transfer/accept', {}, 403, NOT_OFFERED, () => offered],
      ['a stranger cancels an offer', 'bob', '/transfer/cancel', {}, 403, NOT_OWNER, () => offered],
    ];

    for (const [name, who, path, body, status, error, tagOf] of CASES) {
      it(name, async () => {
        const sent = typeof body === 'function' ? (body as () => unknown)() : body;
        const token = who === null ? null : { alice, bob, carol }[who].token;
        const res = await postAuthed(url(tagOf?.() ?? tag, path), token, sent);
        expect(res.status).toBe(status);
        expect(Object.keys(res.json)).toEqual(['error']);
        expect(res.json.error.code).toBe(error.code);
        if (typeof error.message === 'string') expect(res.json.error.message).toBe(error.message);
        else expect(res.json.error.message).toMatch(error.message);
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
