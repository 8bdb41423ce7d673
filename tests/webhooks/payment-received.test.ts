import type { Address } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { liftedRateLimits } from '@/devstack/rate-limits';
import { identities } from '@/lib/db/schema';
import { findPayments } from '@/lib/features/payments/find-payments';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { deliverWebhooks } from '@/lib/features/webhooks/deliver';
import { airdrop, newSigner, rpcAt, signerOf } from '../support/chain';
import { ownDatabase } from '../support/database';
import { registeredPayee } from '../support/registered-payee';
import { clientHeaders, readResponse, type ApiResponse } from '../support/http';
import { heldInProcessApp } from '../support/in-process';
import { newKeypair } from '../support/keypair';
import { ownLocalnet } from '../support/localnet';
import { signIn } from '../support/sign-in';
import { passUntil, WebhookReceiver } from '../support/webhook-receiver';
import { findingAt, fundedPayer, payWithReference } from '../payments/paying';

/*
 * `payment.received` end to end (DESIGN.md "Payments and receipts", "Webhooks"): a reference
 * issued by POST /v1/payments, paid on a localnet of its own (finality 3 s behind, so the
 * receipt is `confirmed` first) by a real key, found by the finding pass, and delivered by the
 * delivery pass to a receiver that verifies every request with the `standardwebhooks` package.
 * A database of its own: the subscriptions here are the only ones any pass sees.
 */

const FINALITY_DELAY_MS = 3000;
/** A localnet: its URL and kit's RPC on it. */
const clusterAt = (url: string) => ({ url, rpc: rpcAt(url) });
type Cluster = ReturnType<typeof clusterAt>;
const shared = clusterAt(inject('rpcUrl'));

describe('payment.received webhooks', () => {
  const database = ownDatabase();
  const localnet = ownLocalnet({ finalityDelayMs: FINALITY_DELAY_MS });
  const app = heldInProcessApp(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', RATE_LIMITS: liftedRateLimits(['auth', 'webhooks', 'payments']) },
    { database },
  );

  const call = async (method: string, path: string, token: string | null, body?: unknown): Promise<ApiResponse> =>
    readResponse(
      await app().fetch(path, {
        method,
        headers: { ...clientHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );

  const deliver = () =>
    deliverWebhooks({
      db: database.db,
      config: { allowPrivateTargets: true },
      clock: () => new Date(),
      timeoutMs: 2000,
      budgetMs: 3000,
    });

  const deliverUntil = (arrived: () => boolean) => passUntil(deliver, arrived);

  const find = (cluster: Cluster) =>
    findPayments({
      db: database.db,
      cluster: findingAt(cluster.url),
      now: new Date(),
      identity: serviceIdentity(app().config.actionIdentitySecret).address,
    });

  async function subscribe(token: string, events?: string[]) {
    const receiver = new WebhookReceiver();
    await receiver.start();
    const res = await call('POST', '/v1/webhooks', token, { url: receiver.url, ...(events ? { events } : {}) });
    expect(res.status, res.text).toBe(201);
    const created = res.json as { id: string; secret: string; events: string[]; cursor: string };
    receiver.secrets = [created.secret];
    return { receiver, created };
  }

  /**
   * A signed-in owner with a tag whose payout wallet is a fresh key, registered on the app's
   * cluster (the shared localnet: issuing reads the record there), paid on the file's own.
   */
  async function owner() {
    const session = await signIn(app().url, newKeypair());
    const ownerKey = await signerOf(session.keypair);
    await airdrop(shared.rpc, ownerKey.address, 1);
    const { tag, wallet } = await registeredPayee(database.db, shared.rpc, {
      owner: ownerKey,
      wallet: (await newSigner()).signer,
      row: { tag: randomTag('pay_') },
    });
    return { ...session, tag, wallet: wallet.address };
  }

  async function issue(tag: string, amount: string): Promise<string> {
    const res = await call('POST', '/v1/payments', null, { tag, amount, asset: 'SOL' });
    expect(res.status, res.text).toBe(200);
    return (res.json as { reference: string }).reference;
  }

  /** Pays with a real key, the reference a read-only key of the transfer as a Solana Pay wallet adds it. */
  const pay = async (cluster: Cluster, to: Address, lamports: bigint, reference: string) =>
    payWithReference(cluster.rpc, await fundedPayer(cluster.rpc), { to, lamports, reference });

  type Delivered = { id: number; type: string; tag: string; receipt: Record<string, unknown>; at: string };
  const payments = (receiver: WebhookReceiver) =>
    (receiver.arrivals as unknown as Delivered[]).filter((e) => e.type === 'payment.received');

  it('tells the owner’s subscriptions that chose it, at confirmed and at finalized, signed; no one else; replayed from a cursor', async () => {
    const cluster = clusterAt(localnet.url);
    const shop = await owner();
    const stranger = await owner();

    const both = await subscribe(shop.token, ['identity.changed', 'payment.received']);
    const identityOnly = await subscribe(shop.token); // created before the choice existed: identity.changed
    const strangers = await subscribe(stranger.token, ['payment.received']);
    expect(both.created.events).toEqual(['identity.changed', 'payment.received']);
    expect(identityOnly.created.events).toEqual(['identity.changed']);

    const reference = await issue(shop.tag, '0.05');
    const signature = await pay(cluster, shop.wallet, 50_000_000n, reference);
    expect((await find(cluster)).changed).toContain(reference);
    await deliverUntil(() => payments(both.receiver).length > 0);

    const [confirmed] = payments(both.receiver);
    expect(both.receiver.refused).toEqual([]);
    expect(confirmed).toEqual({
      id: expect.any(Number),
      type: 'payment.received',
      tag: `@${shop.tag}`,
      receipt: expect.objectContaining({
        reference,
        status: 'confirmed',
        recipient: shop.wallet,
        amount: '0.05',
        asset: 'SOL',
        signature,
        payer: expect.any(String),
      }),
      at: expect.any(String),
    });
    // The webhook-id header is the event's id, and the receiver verified it with the library.
    expect(both.receiver.headers.map((h) => h['webhook-id'])).toContain(String(confirmed!.id));

    await new Promise((resolve) => setTimeout(resolve, FINALITY_DELAY_MS + 200));
    await find(cluster);
    await deliverUntil(() => payments(both.receiver).length > 1);
    const delivered = payments(both.receiver);
    expect(delivered.map((e) => e.receipt.status)).toEqual(['confirmed', 'finalized']);
    expect(delivered[1]!.id).toBeGreaterThan(confirmed!.id);

    expect(payments(identityOnly.receiver)).toEqual([]);
    expect(identityOnly.receiver.headers).toEqual([]);
    expect(strangers.receiver.headers).toEqual([]);

    // Replay from the cursor the subscription was created at: both events again, same ids, in order.
    const replay = await call('POST', `/v1/webhooks/${both.created.id}/replay`, shop.token, {
      after: both.created.cursor,
    });
    expect(replay.status, replay.text).toBe(200);
    await deliverUntil(() => payments(both.receiver).length > 3);
    expect(payments(both.receiver).map((e) => e.id)).toEqual([
      ...delivered.map((e) => e.id),
      ...delivered.map((e) => e.id),
    ]);

    for (const r of [both, identityOnly, strangers]) await r.receiver.stop();
  });

  it('goes to the owner the reference was issued under, not to whoever owns the tag when it is paid', async () => {
    const cluster = clusterAt(localnet.url);
    const seller = await owner();
    const buyer = await signIn(app().url, newKeypair());
    const sellers = await subscribe(seller.token, ['payment.received']);
    const buyers = await subscribe(buyer.token, ['payment.received']);

    const reference = await issue(seller.tag, '0.01');
    // The tag changes hands before the payment lands; the money still goes to the wallet it was issued for.
    await database.db.update(identities).set({ owner: buyer.keypair.publicKey }).where(eq(identities.tag, seller.tag));
    await pay(cluster, seller.wallet, 10_000_000n, reference);
    await find(cluster);
    await deliverUntil(() => payments(sellers.receiver).length > 0);

    expect(payments(sellers.receiver).map((e) => e.receipt.reference)).toEqual([reference]);
    expect(buyers.receiver.headers).toEqual([]);
    for (const r of [sellers, buyers]) await r.receiver.stop();
  });

  it('refuses an unknown event type and a type named twice: 400 invalid_request', async () => {
    const shop = await owner();
    for (const events of [['payment.sent'], ['payment.received', 'payment.received'], []]) {
      const res = await call('POST', '/v1/webhooks', shop.token, { url: 'https://hooks.example.org/x', events });
      expect(res.status, JSON.stringify(events)).toBe(400);
      expect((res.json as { error: { code: string } }).error.code).toBe('invalid_request');
    }
  });
});
