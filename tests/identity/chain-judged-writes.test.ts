import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { ownDatabase } from '../support/database';
import { inProcessApp, type InProcessApp } from '../support/in-process';
import { newKeypair } from '../support/keypair';
import { signIn } from '../support/sign-in';
import { fundedSigner, reachAll, rpcAt, signerOf, airdrop } from '../support/chain';
import { latestBlockhash, sendCall, type LifecycleCall } from '../lifecycle/calls';

/*
 * PATCH /v1/identity/{tag} and PUT /v1/primary are judged on the chain while the mirror shows
 * a transfer offer standing: the acceptance may have landed before the mirror follows
 * (finality plus the indexer's interval), and then the old owner must not edit the tag. The
 * mirror here is written by hand as the indexer would have left it after register + offer.
 */

const database = ownDatabase();
let app: InProcessApp;
const rpc = rpcAt(inject('rpcUrl'));

beforeAll(async () => {
  app = await inProcessApp({ DATABASE_URL: database.url });
});
afterAll(() => app?.close());

async function send(call: LifecycleCall): Promise<void> {
  const signature = await sendCall(rpc, call, await latestBlockhash(rpc));
  await reachAll(rpc, [signature], 'confirmed');
}

const FORBIDDEN = { error: { code: 'forbidden', message: 'This tag belongs to another public key.' } };

async function patch(tag: string, token: string) {
  const res = await fetch(`${app.url}/v1/identity/${tag}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ bio: 'still mine?' }),
  });
  return { status: res.status, body: await res.json() };
}

async function choosePrimary(tag: string, token: string) {
  const res = await fetch(`${app.url}/v1/primary`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ tag }),
  });
  return { status: res.status, body: await res.json() };
}

describe('writes judged on the chain while the mirror shows a transfer offer', () => {
  it('the old owner may edit until the acceptance lands, and is refused (403) after it, before the mirror follows', async () => {
    const oldOwner = newKeypair();
    const seller = await signerOf(oldOwner);
    const [newOwner] = await Promise.all([fundedSigner(rpc), airdrop(rpc, seller.address)]);
    const tag = randomTag('xfer_');
    await send({ kind: 'register', tag, owner: seller, wallet: seller });
    await send({ kind: 'offer', tag, owner: seller, newOwner: newOwner.address });
    // what the indexer would hold after the register and the offer
    await insertIdentity(database.db, {
      tag,
      owner: oldOwner.publicKey,
      wallet: oldOwner.publicKey,
      pendingOwner: newOwner.address,
    });
    const { token } = await signIn(app.url, oldOwner);

    expect((await patch(tag, token)).status).toBe(200); // the offer stands: still the owner on chain
    expect((await choosePrimary(tag, token)).status).toBe(200);

    await send({ kind: 'accept', tag, newOwner });
    // the mirror still says oldOwner owns it (nothing indexed the acceptance)
    expect(await patch(tag, token)).toEqual({ status: 403, body: FORBIDDEN });
    expect(await choosePrimary(tag, token)).toEqual({ status: 403, body: FORBIDDEN });
  });

  it('a tag the mirror shows with an offer but the chain no longer has (released): 404', async () => {
    const owner = newKeypair();
    const { tag } = await insertIdentity(database.db, {
      owner: owner.publicKey,
      pendingOwner: (await generateKeyPairSigner()).address,
    });
    const { token } = await signIn(app.url, owner);
    const NOT_FOUND = { error: { code: 'not_found', message: 'No identity with this tag.' } };
    expect(await patch(tag, token)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await choosePrimary(tag, token)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('without an offer the mirror decides alone (no record on chain needed)', async () => {
    const owner = newKeypair();
    const { tag } = await insertIdentity(database.db, { owner: owner.publicKey });
    const { token } = await signIn(app.url, owner);
    expect((await patch(tag, token)).status).toBe(200);
  });
});
