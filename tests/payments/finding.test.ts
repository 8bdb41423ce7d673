import type { Address } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { paymentReferences } from '@/lib/db/schema';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { KEEP_EXPIRED_MS, pruneExpiredReferences } from '@/lib/features/payments/expiry';
import { findPayments, readPaymentsStatus } from '@/lib/features/payments/find-payments';
import { readReceipt } from '@/lib/features/payments/receipt';
import { REJECTED_LISTED } from '@/lib/features/payments/schemas';
import { reject } from '@/lib/features/payments/settle';
import { ownDatabase } from '../support/database';
import { rpcAt } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { heldInProcessApp } from '../support/in-process';
import { startRpcProxy, type RpcCall } from '../support/rpc-proxy';
import { registeredPayee } from '../support/registered-payee';
import { findingAt, fundedPayer, payWithReference } from './paying';

/*
 * The finding pass on the localnet (DESIGN.md "Payments and receipts", issue "Payments you can
 * trust"): the first valid payment settles a reference and a dust payment before it is only
 * listed; references expire, and unpaid ones are deleted a week later; a run reads each payout
 * account once, so a thousand junk references on a payee cost what one does. RPC calls are
 * counted by a proxy in front of the localnet, not by the pass's own tally.
 */

const rpcUrl = inject('rpcUrl');
const rpc = rpcAt(rpcUrl);
const TTL_MS = 1800 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const database = ownDatabase();
const app = heldInProcessApp({}, { database });
const identity = () => serviceIdentity(app().config.actionIdentitySecret).address;

/** Every JSON-RPC method the pass calls, in order, through a proxy of this file's own. */
const methods: string[] = [];
const proxy = startRpcProxy(rpcUrl, (request) => {
  for (const call of ([] as (RpcCall | undefined)[]).concat(request)) methods.push(call?.method ?? '?');
  return undefined;
});
afterAll(async () => (await proxy).close());

async function pass(now = new Date(), db = database.db) {
  const cluster = findingAt((await proxy).url);
  methods.length = 0;
  const summary = await findPayments({ db, cluster, now, identity: identity() });
  return { summary, methods: [...methods] };
}

/**
 * A tag registered on the localnet (issuing reads its record there) whose payout wallet, its
 * funded owner, holds SOL already: a payment of dust to an empty account would fail for rent.
 */
async function payee(): Promise<{ tag: string; wallet: Address }> {
  const { tag, wallet } = await registeredPayee(database.db, rpc, { row: { tag: randomTag('till_') } });
  return { tag, wallet: wallet.address };
}

async function issue(tag: string, amount: string): Promise<{ reference: string; expiresAt: string; receipt: any }> {
  const res = await app().fetch('/v1/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tag, amount, asset: 'SOL' }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

const receipt = async (reference: string) => (await app().fetch(`/v1/payments/${reference}`)).json();

/** Rows written as an attacker's issues would be: pending references on one payout wallet. */
function junk(wallet: Address, n: number, issuedAt = new Date()) {
  return Array.from({ length: n }, () => ({
    reference: newKeypair().publicKey,
    tag: 'junk',
    recipient: wallet,
    amount: '0.001',
    asset: 'SOL',
    decimals: 9,
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + TTL_MS),
  }));
}

describe('the first valid payment settles a reference', () => {
  it('a dust payment naming a shown reference is listed as rejected, and the right payment after it settles it', async () => {
    const { wallet, tag } = await payee();
    const { reference } = await issue(tag, '0.5');
    const payer = await fundedPayer(rpc);
    const dust = await payWithReference(rpc, payer, { to: wallet, lamports: 5000, reference });

    await pass();
    expect(await receipt(reference)).toMatchObject({
      status: 'pending',
      rejected: [{ signature: dust, reason: 'the recipient received 0.000005 SOL, not the 0.5 asked' }],
    });

    const right = await payWithReference(rpc, payer, { to: wallet, lamports: 500_000_000, reference });
    const { summary } = await pass();
    expect(summary.changed).toEqual([reference]);
    const settled = await receipt(reference);
    expect(settled).toMatchObject({
      status: expect.stringMatching(/^(confirmed|finalized)$/),
      signature: right,
      amount: '0.5',
      payer: payer.address,
      rejected: [{ signature: dust, reason: expect.any(String) }],
    });
    expect(settled).not.toHaveProperty('reason');
  });

  it('dust and the right payment found by one run: the right one settles, whichever came first', async () => {
    const { wallet, tag } = await payee();
    const { reference } = await issue(tag, '0.2');
    const payer = await fundedPayer(rpc);
    const dust = await payWithReference(rpc, payer, { to: wallet, lamports: 1, reference });
    const right = await payWithReference(rpc, payer, { to: wallet, lamports: 200_000_000, reference });
    const late = await payWithReference(rpc, payer, { to: wallet, lamports: 7, reference });
    await pass();
    const settled = await receipt(reference);
    expect(settled).toMatchObject({ signature: right, rejected: [{ signature: dust, reason: expect.any(String) }] });
    expect(JSON.stringify(settled)).not.toContain(late); // after settling, nothing more is judged for it
  });
});

describe('the rejected list is bounded', () => {
  it(`lists each rejected transaction once, the first ${REJECTED_LISTED} only: a flood of dust adds nothing more`, async () => {
    const [row] = junk(newKeypair().publicKey as Address, 1);
    await database.db.insert(paymentReferences).values(row!);
    const signatures = Array.from({ length: REJECTED_LISTED + 5 }, (_, i) => `sig${i}`);
    await reject(database.db, row!.reference, { signature: 'sig0', reason: 'dust' }); // judged twice (two passes)
    for (const signature of signatures) await reject(database.db, row!.reference, { signature, reason: 'dust' });
    const { rejected } = await readReceipt(database.db, row!.reference, new Date());
    expect(rejected).toEqual(signatures.slice(0, REJECTED_LISTED).map((signature) => ({ signature, reason: 'dust' })));
  });
});

describe('references expire', () => {
  it('the issue answer and the receipt say when; past it the receipt is expired and no run reads for it', async () => {
    const { tag } = await payee();
    const issued = await issue(tag, '0.3');
    const issuedAt = Date.parse(issued.receipt.issuedAt);
    expect(Date.parse(issued.expiresAt)).toBe(issuedAt + TTL_MS);
    expect(issued.receipt.expiresAt).toBe(issued.expiresAt);
    expect(await receipt(issued.reference)).toMatchObject({ status: 'pending', expiresAt: issued.expiresAt });

    // Past its expiry (and the minute a payout account is still read for a late listing), as is
    // every reference this file issued before it: no payout account is read at all.
    const later = new Date(issuedAt + TTL_MS + 61_000);
    expect((await readReceipt(database.db, issued.reference, later)).status).toBe('expired');
    const { summary, methods: calls } = await pass(later);
    expect(summary.accounts).toBe(0);
    expect(calls).not.toContain('getSignaturesForAddress');
    expect(calls).not.toContain('getTransaction');
    expect(await readPaymentsStatus(database.db, later)).toMatchObject({ open: 0 });
  });

  it('a payment landing after expiry settles nothing: it is listed as late', async () => {
    const { wallet } = await payee();
    // Expired 20 s ago: its wallet is still read for a minute, in case a payment that landed in time is listed late.
    const [row] = junk(wallet, 1, new Date(Date.now() - TTL_MS - 20_000));
    await database.db.insert(paymentReferences).values(row!);
    const signature = await payWithReference(rpc, await fundedPayer(rpc), {
      to: wallet,
      lamports: 1_000_000,
      reference: row!.reference,
    });
    await pass();
    expect(await receipt(row!.reference)).toMatchObject({
      status: 'expired',
      rejected: [{ signature, reason: 'the payment landed after the reference expired' }],
    });
  });

  it('an unpaid reference is deleted 7 days after it expired; a younger one and a paid one are kept', async () => {
    const wallet = newKeypair().publicKey as Address;
    const now = new Date();
    const longAgo = new Date(now.getTime() - KEEP_EXPIRED_MS - TTL_MS - 1000); // so expired 7 days and a second ago
    const [unpaidOld, paidOld] = junk(wallet, 2, longAgo);
    const [unpaidRecent] = junk(wallet, 1, new Date(now.getTime() - 6 * DAY_MS));
    await database.db
      .insert(paymentReferences)
      .values([unpaidOld!, unpaidRecent!, { ...paidOld!, status: 'finalized' as const }]);
    const kept = async (reference: string) =>
      (await database.db.select().from(paymentReferences).where(eq(paymentReferences.reference, reference))).length;

    // A day after it expired: still answered, `expired`.
    expect(await pruneExpiredReferences(database.db, new Date(longAgo.getTime() + TTL_MS + DAY_MS))).toBe(0);
    expect(await pruneExpiredReferences(database.db, now)).toBe(1);
    expect(await kept(unpaidOld!.reference)).toBe(0);
    expect(await kept(unpaidRecent!.reference)).toBe(1);
    expect(await kept(paidOld!.reference)).toBe(1);
    expect((await app().fetch(`/v1/payments/${unpaidOld!.reference}`)).status).toBe(404);
    expect(await receipt(unpaidRecent!.reference)).toMatchObject({ status: 'expired' });
  });
});

describe('finding costs per payee, not per reference', () => {
  // A database of its own: the runs below read this payee's wallet and nothing else.
  const own = ownDatabase();

  it('1,000 junk references on a payee: each run reads its wallet once, and a real payment is settled by the next run', async () => {
    const wallet = newKeypair().publicKey as Address;
    const rows = junk(wallet, 1001);
    await own.db.insert(paymentReferences).values(rows);
    const real = rows.at(-1)!.reference; // issued last, after all the junk

    const unpaid = await pass(new Date(), own.db);
    expect(unpaid.summary.accounts).toBe(1);
    expect(unpaid.methods).toEqual(['getSignaturesForAddress']);

    const signature = await payWithReference(rpc, await fundedPayer(rpc), {
      to: wallet,
      lamports: 1_000_000,
      reference: real,
    });
    const paid = await pass(new Date(), own.db);
    expect(paid.summary.changed).toEqual([real]);
    expect(paid.methods).toEqual(['getSignaturesForAddress', 'getTransaction']);
    expect(await readReceipt(own.db, real, new Date())).toMatchObject({
      signature,
      status: expect.stringMatching(/^(confirmed|finalized)$/),
    });

    // Nothing new: the cursor holds, and the next run asks one short question again.
    const after = await pass(new Date(), own.db);
    expect(after.methods).toEqual(['getSignaturesForAddress']);
    expect(after.summary.transactions).toBe(0);
  });
});

describe('a provider that refuses JSON-RPC batches', () => {
  it('gets the first pages one by one, and the payment is settled all the same', async () => {
    const refusing = await startRpcProxy(rpcUrl, (request) =>
      Array.isArray(request) ? { status: 400, text: 'batch requests are not allowed on this plan' } : undefined,
    );
    try {
      const { wallet, tag } = await payee();
      const { reference } = await issue(tag, '0.01');
      const signature = await payWithReference(rpc, await fundedPayer(rpc), {
        to: wallet,
        lamports: 10_000_000,
        reference,
      });
      await findPayments({
        db: database.db,
        cluster: findingAt(refusing.url),
        now: new Date(),
        identity: identity(),
      });
      expect(await receipt(reference)).toMatchObject({
        signature,
        status: expect.stringMatching(/confirmed|finalized/),
      });
    } finally {
      await refusing.close();
    }
  });
});
