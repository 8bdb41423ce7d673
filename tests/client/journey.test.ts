import { generateKeyPairSigner } from '@solana/kit';
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { createTagClient, kitSigner, TagServiceError, walletSigner } from '@/packages/client/src';
import { heldInProcessApp } from '../support/in-process';
import { airdrop, rpcAt } from '../support/chain';
import { untilVisible } from '../support/until-visible';

// The typed client (packages/client) against the real app, as an integrator runs it: an app of
// its own in `npm start`'s shape (direct client address), the shared localnet.
const rpcUrl = inject('rpcUrl');
const app = heldInProcessApp();

describe('packages/client against the app', () => {
  it('signs in, registers, edits, changes the wallet, transfers, follows the feed and releases', async () => {
    const [alice, bob] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const rpc = rpcAt(rpcUrl);
    await Promise.all([airdrop(rpc, alice.address), airdrop(rpc, bob.address)]);
    const asAlice = createTagClient({ baseUrl: app().url, rpcUrl, signer: kitSigner(alice) });
    const asBob = createTagClient({ baseUrl: app().url, rpcUrl, signer: kitSigner(bob) });
    const follower = asAlice.follower();
    await follower.catchUp();
    const tag = randomTag('cl');

    const session = await asAlice.signIn();
    expect(session.publicKey).toBe(alice.address);
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const registered = await asAlice.register(tag);
    expect(registered.identity).toMatchObject({
      tag: `@${tag}`,
      owner: alice.address,
      wallet: alice.address,
    });
    expect(await asAlice.availability(tag)).toMatchObject({ available: false });

    const edited = await asAlice.updateProfile(tag, { displayName: 'Alice', bio: 'hello' });
    expect(edited).toMatchObject({ displayName: 'Alice', bio: 'hello' });

    // The payout wallet consents by signing too (program/README.md): a cosigner after the owner.
    const payoutKey = await generateKeyPairSigner();
    const payout = payoutKey.address;
    expect((await asAlice.setWallet(tag, payout, { cosigners: [kitSigner(payoutKey)] })).identity).toMatchObject({
      wallet: payout,
    });
    expect(await asAlice.resolve(tag)).toMatchObject({ wallet: payout });

    await asAlice.offerTransfer(tag, bob.address);
    const accepted = await asBob.acceptTransfer(tag);
    expect(accepted.identity).toMatchObject({
      owner: bob.address,
      wallet: bob.address,
      displayName: null,
    });
    expect(await asBob.reverse(bob.address)).toEqual({
      address: bob.address,
      tag: `@${tag}`,
    });

    // The follower, resumed from its cursor, holds exactly what GET answers (a feed event is
    // served once no older transaction is open in the PostgreSQL cluster: another file's may be).
    const current = await asBob.identity(tag);
    await untilVisible(
      () => follower.catchUp(),
      () => follower.replica.identities.get(`@${tag}`)?.owner === bob.address,
    );
    expect(follower.replica.identities.get(`@${tag}`)).toEqual(current);

    const released = await asBob.release(tag);
    expect(released.identity).toBeNull();
    await untilVisible(
      () => follower.catchUp(),
      () => !follower.replica.identities.has(`@${tag}`),
    );
    expect(follower.replica.identities.has(`@${tag}`)).toBe(false);
    await expect(asBob.identity(tag)).rejects.toMatchObject({
      name: 'TagServiceError',
      status: 404,
      code: 'not_found',
    });
  });

  it('a sponsor pays: the owner signs first, the sponsor last, and the transaction lands', async () => {
    const [owner, sponsor] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    await airdrop(rpcAt(rpcUrl), sponsor.address);
    const client = createTagClient({ baseUrl: app().url, rpcUrl, signer: kitSigner(owner) });
    const tag = randomTag('cs');
    const landed = await client.register(tag, { feePayer: sponsor.address, cosigners: [kitSigner(sponsor)] });
    expect(landed.identity).toMatchObject({ tag: `@${tag}`, owner: owner.address });
  });

  it("signs in through a wallet's solana:signIn, which writes the challenge's text back from its fields", async () => {
    const key = await generateKeyPairSigner();
    const signer = kitSigner(key);
    const { createSignInMessage } = await import('@solana/wallet-standard-util');
    const wallet = walletSigner({
      address: key.address,
      signIn: async (input) => {
        const signedMessage = createSignInMessage({ ...input!, domain: input!.domain!, address: input!.address! });
        return { signedMessage, signature: await signer.signMessage(signedMessage) };
      },
    });
    const session = await createTagClient({ baseUrl: app().url, rpcUrl, signer: wallet }).signIn();
    expect(session.publicKey).toBe(key.address);
  });

  it('answers errors as TagServiceError with the envelope code', async () => {
    const client = createTagClient({ baseUrl: app().url, rpcUrl });
    const err = await client.identity('no').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TagServiceError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_tag' });
    await expect(client.register('abc')).rejects.toThrow('This client has no signer');
  });
});
