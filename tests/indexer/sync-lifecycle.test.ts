import { Keypair } from '@solana/web3.js';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { identities } from '@/lib/db/schema';
import { sendCall, type LifecycleCall } from '../lifecycle/support';
import { stackDatabase } from '../support/database';
import { confirmed, connect, fund, registerDirect } from '../support/chain';
import { getIdentity, postAuthed } from '../support/http';

/*
 * POST /v1/sync over HTTP for every lifecycle instruction: it answers as GET
 * /v1/identity would after the change, 200 with the identity or the one 404 once the tag is
 * released or blocked; 422 when the transaction failed on chain.
 */

const appUrl = inject('appUrl');
const connection = connect(inject('rpcUrl'));

async function landed(call: LifecycleCall): Promise<string> {
  const signature = await sendCall(connection, call, await connection.getLatestBlockhash('confirmed'));
  await confirmed(connection, signature, 'finalized');
  return signature;
}

const sync = (signature: string) => postAuthed(`${appUrl}/v1/sync`, null, { signature });
const NOT_FOUND = { error: { code: 'not_found', message: 'No identity with this tag.' } };

describe('POST /v1/sync for lifecycle transactions', () => {
  const database = stackDatabase({ poolSize: 2 });
  const alice = Keypair.generate();
  const bob = Keypair.generate();

  beforeAll(async () => {
    await Promise.all([fund(connection, alice.publicKey), fund(connection, bob.publicKey)]);
  });

  it('wallet, offer, accept: each sync answers the identity as it is now; the accept clears the profile', async () => {
    const tag = randomTag('sl');
    const registered = await registerDirect(connection, alice, tag);
    await confirmed(connection, registered, 'finalized');
    expect((await sync(registered)).status).toBe(200);
    await database.db.update(identities).set({ displayName: 'Alice', verified: true }).where(eq(identities.tag, tag));

    const wallet = Keypair.generate();
    const walletChanged = await sync(await landed({ kind: 'set_wallet', tag, owner: alice, wallet }));
    expect(walletChanged.status).toBe(200);
    expect(walletChanged.json).toMatchObject({
      tag: `@${tag}`,
      owner: alice.publicKey.toBase58(),
      wallet: wallet.publicKey.toBase58(),
      displayName: 'Alice',
      verified: true,
    });

    const offered = await sync(await landed({ kind: 'offer', tag, owner: alice, newOwner: bob.publicKey }));
    expect(offered.status).toBe(200);
    expect(offered.json).toMatchObject({ owner: alice.publicKey.toBase58(), displayName: 'Alice' }); // the identity reads the same
    expect(await (await fetch(`${appUrl}/v1/identity/${tag}/transfer`)).json()).toEqual({
      tag: `@${tag}`,
      owner: alice.publicKey.toBase58(),
      pendingOwner: bob.publicKey.toBase58(),
    });

    const acceptance = await landed({ kind: 'accept', tag, newOwner: bob });
    const accepted = await sync(acceptance);
    expect(accepted.status).toBe(200);
    // No read at or after the transfer's slot returns the old owner's wallet or profile.
    const acceptedSlot = (await connection.getTransaction(acceptance, {
      commitment: 'finalized',
      maxSupportedTransactionVersion: 0,
    }))!.slot;
    for (const path of [`/v1/identity/${tag}`, `/v1/resolve/${tag}`]) {
      const read = await fetch(`${appUrl}${path}`);
      expect(Number(read.headers.get('x-indexed-slot'))).toBeGreaterThanOrEqual(acceptedSlot);
      expect(await read.json()).toMatchObject({
        owner: bob.publicKey.toBase58(),
        wallet: bob.publicKey.toBase58(),
        displayName: null,
      });
    }
    expect(accepted.json).toMatchObject({
      owner: bob.publicKey.toBase58(),
      wallet: bob.publicKey.toBase58(),
      displayName: null,
      verified: false,
      merchant: false,
    });
    expect(await (await getIdentity(appUrl, tag)).json()).toEqual(accepted.json);
  });

  it('a blocked tag stays blocked through a transfer: the sync answers 404 and the row keeps its status', async () => {
    const tag = randomTag('sb');
    const registered = await registerDirect(connection, alice, tag);
    await confirmed(connection, registered, 'finalized');
    await sync(registered);
    await database.db.update(identities).set({ status: 'blocked' }).where(eq(identities.tag, tag));
    await landed({ kind: 'offer', tag, owner: alice, newOwner: bob.publicKey });
    const res = await sync(await landed({ kind: 'accept', tag, newOwner: bob }));
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
    const [row] = await database.db.select().from(identities).where(eq(identities.tag, tag));
    expect(row).toMatchObject({ owner: bob.publicKey.toBase58(), status: 'blocked' });
  });

  it('release: the 404 envelope, the row gone; during the rest only the previous owner registers again, a new identity', async () => {
    const tag = randomTag('sr');
    const registered = await registerDirect(connection, alice, tag);
    await confirmed(connection, registered, 'finalized');
    await sync(registered);
    await database.db.update(identities).set({ bio: 'old life', merchant: true }).where(eq(identities.tag, tag));
    const released = await sync(await landed({ kind: 'release', tag, owner: alice, receiver: alice.publicKey }));
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
      owner: alice.publicKey.toBase58(),
      wallet: bob.publicKey.toBase58(),
      bio: null,
      merchant: false,
    });
  });

  it('422 for a lifecycle call the program refused (cancel with no offer)', async () => {
    const tag = randomTag('sf');
    const registered = await registerDirect(connection, alice, tag);
    await confirmed(connection, registered, 'finalized');
    const failed = await landed({ kind: 'cancel', tag, owner: alice });
    const res = await sync(failed);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      error: { code: 'unprocessable', message: 'The transaction failed on chain: it changed nothing.' },
    });
  });

  it('a late sync of an old transaction answers the state as it is now and changes nothing', async () => {
    const tag = randomTag('so');
    const registered = await registerDirect(connection, alice, tag);
    await confirmed(connection, registered, 'finalized');
    const payout = Keypair.generate();
    const walletChange = await landed({ kind: 'set_wallet', tag, owner: alice, wallet: payout });
    expect((await sync(walletChange)).json).toMatchObject({ wallet: payout.publicKey.toBase58() });
    const before = (await database.db.select().from(identities).where(eq(identities.tag, tag)))[0];
    const late = await sync(registered); // the registration, synced after the wallet change
    expect(late.status).toBe(200);
    expect(late.json).toMatchObject({ wallet: payout.publicKey.toBase58() });
    expect((await database.db.select().from(identities).where(eq(identities.tag, tag)))[0]).toEqual(before);
  });
});
