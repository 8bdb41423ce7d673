import { generateKeyPairSigner, type KeyPairSigner, type Signature } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { identities } from '@/lib/db/schema';
import { latestBlockhash, sendCall, type LifecycleCall } from '../lifecycle/calls';
import { stackDatabase } from '../support/database';
import { fundedSigner, reachAll, registration, rpcAt, sendSigned } from '../support/chain';
import { getIdentity, postAuthed } from '../support/http';

/*
 * POST /v1/sync over HTTP for every lifecycle instruction: it answers as GET
 * /v1/identity would after the change, 200 with the identity or the one 404 once the tag is
 * released or blocked; 422 when the transaction failed on chain.
 */

const appUrl = inject('appUrl');
const rpc = rpcAt(inject('rpcUrl'));

async function landed(call: LifecycleCall): Promise<string> {
  const signature = await sendCall(rpc, call, await latestBlockhash(rpc));
  await reachAll(rpc, [signature], 'finalized');
  return signature;
}

/** A register_tag by `owner` sent straight to the cluster, finalized: its signature. */
async function registerDirect(owner: KeyPairSigner, tag: string): Promise<string> {
  const signature = await sendSigned(rpc, [await registration(owner, tag)], owner);
  await reachAll(rpc, [signature], 'finalized');
  return signature;
}

const sync = (signature: string) => postAuthed(`${appUrl}/v1/sync`, null, { signature });
const NOT_FOUND = { error: { code: 'not_found', message: 'No identity with this tag.' } };

describe('POST /v1/sync for lifecycle transactions', () => {
  const database = stackDatabase({ poolSize: 2 });
  let alice: KeyPairSigner;
  let bob: KeyPairSigner;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([fundedSigner(rpc), fundedSigner(rpc)]);
  });

  it('wallet, offer, accept: each sync answers the identity as it is now; the accept clears the profile', async () => {
    const tag = randomTag('sl');
    const registered = await registerDirect(alice, tag);
    expect((await sync(registered)).status).toBe(200);
    await database.db.update(identities).set({ displayName: 'Alice', verified: true }).where(eq(identities.tag, tag));

    const wallet = await generateKeyPairSigner();
    const walletChanged = await sync(await landed({ kind: 'set_wallet', tag, owner: alice, wallet }));
    expect(walletChanged.status).toBe(200);
    expect(walletChanged.json).toMatchObject({
      tag: `@${tag}`,
      owner: alice.address,
      wallet: wallet.address,
      displayName: 'Alice',
      verified: true,
    });

    const offered = await sync(await landed({ kind: 'offer', tag, owner: alice, newOwner: bob.address }));
    expect(offered.status).toBe(200);
    expect(offered.json).toMatchObject({ owner: alice.address, displayName: 'Alice' }); // the identity reads the same
    expect(await (await fetch(`${appUrl}/v1/identity/${tag}/transfer`)).json()).toEqual({
      tag: `@${tag}`,
      owner: alice.address,
      pendingOwner: bob.address,
    });

    const acceptance = await landed({ kind: 'accept', tag, newOwner: bob });
    const accepted = await sync(acceptance);
    expect(accepted.status).toBe(200);
    // No read at or after the transfer's slot returns the old owner's wallet or profile.
    const acceptedSlot = Number(
      (await rpc
        .getTransaction(acceptance as Signature, {
          commitment: 'finalized',
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
        })
        .send())!.slot,
    );
    for (const path of [`/v1/identity/${tag}`, `/v1/resolve/${tag}`]) {
      const read = await fetch(`${appUrl}${path}`);
      expect(Number(read.headers.get('x-indexed-slot'))).toBeGreaterThanOrEqual(acceptedSlot);
      expect(await read.json()).toMatchObject({
        owner: bob.address,
        wallet: bob.address,
        displayName: null,
      });
    }
    expect(accepted.json).toMatchObject({
      owner: bob.address,
      wallet: bob.address,
      displayName: null,
      verified: false,
      merchant: false,
    });
    expect(await (await getIdentity(appUrl, tag)).json()).toEqual(accepted.json);
  });

  it('a blocked tag stays blocked through a transfer: the sync answers 404 and the row keeps its status', async () => {
    const tag = randomTag('sb');
    const registered = await registerDirect(alice, tag);
    await sync(registered);
    await database.db.update(identities).set({ status: 'blocked' }).where(eq(identities.tag, tag));
    await landed({ kind: 'offer', tag, owner: alice, newOwner: bob.address });
    const res = await sync(await landed({ kind: 'accept', tag, newOwner: bob }));
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
    const [row] = await database.db.select().from(identities).where(eq(identities.tag, tag));
    expect(row).toMatchObject({ owner: bob.address, status: 'blocked' });
  });

  it('release: the 404 envelope, the row gone; during the rest only the previous owner registers again, a new identity', async () => {
    const tag = randomTag('sr');
    const registered = await registerDirect(alice, tag);
    await sync(registered);
    await database.db.update(identities).set({ bio: 'old life', merchant: true }).where(eq(identities.tag, tag));
    const released = await sync(await landed({ kind: 'release', tag, owner: alice, receiver: alice.address }));
    expect(released.status).toBe(404);
    expect(released.json).toEqual(NOT_FOUND);
    expect(await database.db.select().from(identities).where(eq(identities.tag, tag))).toEqual([]);
    expect((await getIdentity(appUrl, tag)).status).toBe(404);

    // The record rests: another key's registration fails on chain (TagResting) and changes nothing.
    expect((await sync(await landed({ kind: 'register', tag, owner: bob, wallet: bob }))).status).toBe(422);
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    // Its previous owner may register it again at once: a new identity (here with bob's wallet, bob signing).
    const again = await sync(await landed({ kind: 'register', tag, owner: alice, wallet: bob }));
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      owner: alice.address,
      wallet: bob.address,
      bio: null,
      merchant: false,
    });
  });

  it('422 for a lifecycle call the program refused (cancel with no offer)', async () => {
    const tag = randomTag('sf');
    await registerDirect(alice, tag);
    const failed = await landed({ kind: 'cancel', tag, owner: alice });
    const res = await sync(failed);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      error: { code: 'unprocessable', message: 'The transaction failed on chain: it changed nothing.' },
    });
  });

  it('a late sync of an old transaction answers the state as it is now and changes nothing', async () => {
    const tag = randomTag('so');
    const registered = await registerDirect(alice, tag);
    const payout = await generateKeyPairSigner();
    const walletChange = await landed({ kind: 'set_wallet', tag, owner: alice, wallet: payout });
    expect((await sync(walletChange)).json).toMatchObject({ wallet: payout.address });
    const before = (await database.db.select().from(identities).where(eq(identities.tag, tag)))[0];
    const late = await sync(registered); // the registration, synced after the wallet change
    expect(late.status).toBe(200);
    expect(late.json).toMatchObject({ wallet: payout.address });
    expect((await database.db.select().from(identities).where(eq(identities.tag, tag)))[0]).toEqual(before);
  });
});
