import { Keypair } from '@solana/web3.js';
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { createTagClient, keypairSigner, TagServiceError, walletSigner } from '@/packages/client/src';
import { heldInProcessApp } from '../support/in-process';
import { connect, fund } from '../support/chain';

// The typed client (packages/client) against the real app, as an integrator runs it: an app of
// its own in `npm start`'s shape (direct client address), the shared localnet.
const rpcUrl = inject('rpcUrl');
const app = heldInProcessApp();

describe('packages/client against the app', () => {
  it('signs in, registers, edits, changes the wallet, transfers, follows the feed and releases', async () => {
    const alice = Keypair.generate();
    const bob = Keypair.generate();
    const connection = connect(rpcUrl);
    await Promise.all([fund(connection, alice.publicKey), fund(connection, bob.publicKey)]);
    const asAlice = createTagClient({ baseUrl: app().url, rpcUrl, signer: keypairSigner(alice) });
    const asBob = createTagClient({ baseUrl: app().url, rpcUrl, signer: keypairSigner(bob) });
    const follower = asAlice.follower();
    await follower.catchUp();
    const tag = randomTag('cl');

    const session = await asAlice.signIn();
    expect(session.publicKey).toBe(alice.publicKey.toBase58());
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const registered = await asAlice.register(tag);
    expect(registered.identity).toMatchObject({
      tag: `@${tag}`,
      owner: alice.publicKey.toBase58(),
      wallet: alice.publicKey.toBase58(),
    });
    expect(await asAlice.availability(tag)).toMatchObject({ available: false });

    const edited = await asAlice.updateProfile(tag, { displayName: 'Alice', bio: 'hello' });
    expect(edited).toMatchObject({ displayName: 'Alice', bio: 'hello' });

    // The payout wallet consents by signing too (program/README.md): a cosigner after the owner.
    const payoutKey = Keypair.generate();
    const payout = payoutKey.publicKey.toBase58();
    expect((await asAlice.setWallet(tag, payout, { cosigners: [keypairSigner(payoutKey)] })).identity).toMatchObject({
      wallet: payout,
    });
    expect(await asAlice.resolve(tag)).toMatchObject({ wallet: payout });

    await asAlice.offerTransfer(tag, bob.publicKey.toBase58());
    const accepted = await asBob.acceptTransfer(tag);
    expect(accepted.identity).toMatchObject({
      owner: bob.publicKey.toBase58(),
      wallet: bob.publicKey.toBase58(),
      displayName: null,
    });
    expect(await asBob.reverse(bob.publicKey.toBase58())).toEqual({
      address: bob.publicKey.toBase58(),
      tag: `@${tag}`,
    });

    // The follower, resumed from its cursor, holds exactly what GET answers.
    await follower.catchUp();
    expect(follower.replica.identities.get(`@${tag}`)).toEqual(await asBob.identity(tag));

    const released = await asBob.release(tag);
    expect(released.identity).toBeNull();
    await follower.catchUp();
    expect(follower.replica.identities.has(`@${tag}`)).toBe(false);
    await expect(asBob.identity(tag)).rejects.toMatchObject({
      name: 'TagServiceError',
      status: 404,
      code: 'not_found',
    });
  });

  it('a sponsor pays: the owner signs first, the sponsor last, and the transaction lands', async () => {
    const owner = Keypair.generate();
    const sponsor = Keypair.generate();
    await fund(connect(rpcUrl), sponsor.publicKey);
    const client = createTagClient({ baseUrl: app().url, rpcUrl, signer: keypairSigner(owner) });
    const tag = randomTag('cs');
    const landed = await client.register(tag, {
      feePayer: sponsor.publicKey.toBase58(),
      cosigners: [keypairSigner(sponsor)],
    });
    expect(landed.identity).toMatchObject({ tag: `@${tag}`, owner: owner.publicKey.toBase58() });
  });

  it("signs in through a wallet's solana:signIn, which writes the challenge's text back from its fields", async () => {
    const key = Keypair.generate();
    const signer = keypairSigner(key);
    const { createSignInMessage } = await import('@solana/wallet-standard-util');
    const wallet = walletSigner({
      publicKey: key.publicKey,
      signIn: async (input) => {
        const signedMessage = createSignInMessage({ ...input!, domain: input!.domain!, address: input!.address! });
        return { signedMessage, signature: await signer.signMessage(signedMessage) };
      },
    });
    const session = await createTagClient({ baseUrl: app().url, rpcUrl, signer: wallet }).signIn();
    expect(session.publicKey).toBe(key.publicKey.toBase58());
  });

  it('answers errors as TagServiceError with the envelope code', async () => {
    const client = createTagClient({ baseUrl: app().url, rpcUrl });
    const err = await client.identity('no').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TagServiceError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_tag' });
    await expect(client.register('abc')).rejects.toThrow('This client has no signer');
  });
});
