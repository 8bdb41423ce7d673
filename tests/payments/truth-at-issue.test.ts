import { fetchEncodedAccount, type KeyPairSigner } from '@solana/kit';
import { getAssignInstruction } from '@solana-program/system';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { paymentReferences } from '@/lib/db/schema';
import { MEMO_PROGRAM_ID } from '@/lib/features/payments/pay-action-identity';
import { findTagRecordPda, getSetWalletInstruction } from '@/packages/tag-registry/src';
import { appUrl, closeTestDb, requireApp, testDb, viewProfile } from '../integrations/support';
import { airdrop, newSigner, PROGRAM_ADDRESS, reachAll, rpcAt, sendSigned } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { clientHeaders } from '../support/http';
import { registeredPayee, type RegisteredPayee } from '../support/registered-payee';

/*
 * Truth at issue time (DESIGN.md "Payments and receipts"), end to end on the production build,
 * the shared PostgreSQL and the shared localnet: every route that hands out a payment request
 * reads the tag's record and payout account on chain, pays the wallet the chain holds now,
 * refuses a payout a key handed to a program after the fact, and writes that back so /@tag and
 * resolve warn. HEAD and crawlers issue nothing.
 */

afterAll(closeTestDb);

const rpc = rpcAt(inject('rpcUrl'));

async function payee(): Promise<RegisteredPayee> {
  requireApp();
  return registeredPayee((await testDb()).db, rpc, { wallet: (await newSigner()).signer });
}

/** The owner moves the tag's payout wallet to `wallet` (which signs, as the program asks), straight on the cluster. */
async function setWalletOnChain(tag: string, owner: KeyPairSigner, wallet: KeyPairSigner): Promise<string> {
  const [tagRecord] = await findTagRecordPda({ tag }, { programAddress: PROGRAM_ADDRESS });
  const setWallet = getSetWalletInstruction(
    { tagRecord, owner, wallet, walletArg: wallet.address },
    { programAddress: PROGRAM_ADDRESS },
  );
  return sendSigned(rpc, [setWallet], owner);
}

/** The three ways a payer is handed a request: POST /v1/payments, the pay link, the Action's POST. */
const ROUTES: [name: string, ask: (tag: string) => Promise<Response>][] = [
  [
    'POST /v1/payments',
    (tag) =>
      fetch(`${appUrl}/v1/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...clientHeaders() },
        body: JSON.stringify({ tag, amount: '0.5', asset: 'SOL' }),
      }),
  ],
  ['GET /pay/{tag}', (tag) => fetch(`${appUrl}/pay/${tag}`, { redirect: 'manual', headers: clientHeaders() })],
  [
    'POST /api/actions/pay/{tag}',
    (tag) =>
      fetch(`${appUrl}/api/actions/pay/${tag}?amount=0.5`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...clientHeaders() },
        body: JSON.stringify({ account: newKeypair().publicKey }),
      }),
  ],
];

/** The payout key hands its own account to the Memo program (it signs once; lamports sent there can never move). */
async function assignToMemo(wallet: KeyPairSigner): Promise<void> {
  await airdrop(rpc, wallet.address, 1);
  const assign = getAssignInstruction({ account: wallet, programAddress: MEMO_PROGRAM_ID });
  await reachAll(rpc, [await sendSigned(rpc, [assign], wallet)], 'confirmed', 30_000, { refuseFailed: true });
  const account = await fetchEncodedAccount(rpc, wallet.address, { commitment: 'confirmed' });
  expect(account.exists && account.programAddress).toBe(MEMO_PROGRAM_ID);
}

/** Asks until the answer is a 400 (the per-tag read is kept a second or two), at most `withinMs`. */
async function refusedWithin(ask: () => Promise<Response>, withinMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const res = await ask();
    if (res.status === 400) return (await res.json()).error;
    await res.body?.cancel();
    if (Date.now() > deadline) throw new Error(`still ${res.status} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a payout key that assigns its account to the Memo program', () => {
  for (const [name, ask] of ROUTES) {
    it(`${name}: 400 unsafe_payout within a few seconds, where it answered before`, async () => {
      const { tag, wallet } = await payee();
      const before = await ask(tag);
      expect(before.status, await before.clone().text()).toBe(name === 'GET /pay/{tag}' ? 303 : 200);
      await assignToMemo(wallet);
      const error = await refusedWithin(() => ask(tag), 5_000);
      expect(error).toEqual({ code: 'unsafe_payout', message: expect.any(String), reason: 'not_system_owned' });
    });
  }

  it('what was found is written back: resolve and the signals warn, and /@tag shows no pay link or QR code', async () => {
    const { tag, wallet } = await payee();
    expect((await viewProfile(`@${tag}`)).html).toContain(`href="/pay/${tag}" rel="nofollow"`);
    await assignToMemo(wallet);
    await refusedWithin(() => ROUTES[0]![1](tag), 5_000);
    const resolved = await (await fetch(`${appUrl}/v1/resolve/${tag}`)).json();
    expect(resolved.warnings).toEqual([{ code: 'unsafe_payout', message: expect.any(String) }]);
    const signals = await (await fetch(`${appUrl}/v1/identity/${tag}/signals`)).json();
    expect(signals.warnings.map((w: { code: string }) => w.code)).toContain('unsafe_payout');
    const page = (await viewProfile(`@${tag}`)).html;
    expect(page).not.toContain(`/pay/${tag}`);
    expect(page).not.toContain('class="qr"');
    expect(page).toContain('was handed to a program and is no longer a wallet');
  });

  it('the warning stands only while that wallet does: a new wallet, once mirrored, is payable again', async () => {
    const { tag, owner, wallet } = await payee();
    await assignToMemo(wallet);
    await refusedWithin(() => ROUTES[0]![1](tag), 5_000);
    const fresh = (await newSigner()).signer;
    const signature = await setWalletOnChain(tag, owner, fresh);
    await reachAll(rpc, [signature], 'finalized', 60_000, { refuseFailed: true });
    const synced = await fetch(`${appUrl}/v1/sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...clientHeaders() },
      body: JSON.stringify({ signature }),
    });
    expect(synced.status, await synced.clone().text()).toBe(200);
    const resolved = await (await fetch(`${appUrl}/v1/resolve/${tag}`)).json();
    expect(resolved).toMatchObject({ wallet: fresh.address });
    expect(resolved).not.toHaveProperty('warnings');
    expect((await viewProfile(`@${tag}`)).html).toContain(`href="/pay/${tag}" rel="nofollow"`);
    // The read is kept per mirrored wallet too (lib/chain/payee-on-chain.ts): the new one is read at once.
    expect((await ROUTES[0]![1](tag)).status).toBe(200);
  });
});

describe('during mirror lag', () => {
  it('POST /v1/payments pays the wallet the chain holds now, and says the mirror’s slot', async () => {
    const registered = await payee();
    const moved = (await newSigner()).signer;
    const signature = await setWalletOnChain(registered.tag, registered.owner, moved);
    await reachAll(rpc, [signature], 'confirmed', 30_000, { refuseFailed: true });
    // The mirror still names the old wallet: nothing indexed the change.
    const res = await ROUTES[0]![1](registered.tag);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-indexed-slot')).toMatch(/^\d+$/);
    const body = await res.json();
    expect(body.url).toMatch(new RegExp(`^solana:${moved.address}\\?`));
    expect(body.receipt.recipient).toBe(moved.address);
  });

  it('a tag with no live record on chain is a 404 on every route, whatever the mirror says', async () => {
    requireApp();
    const { db } = await testDb();
    const { tag } = await insertIdentity(db); // a row with no record behind it (a release the mirror has not seen)
    for (const [name, ask] of ROUTES) {
      const res = await ask(tag);
      expect(res.status, name).toBe(404);
      await res.body?.cancel();
    }
  });
});

describe('only references the Action issues itself', () => {
  const actionWith = (tag: string, reference: string, account: string) =>
    fetch(`${appUrl}/api/actions/pay/${tag}?amount=0.5&reference=${reference}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...clientHeaders() },
      body: JSON.stringify({ account }),
    });

  it('a reference already issued (by POST /v1/payments, or by the Action before) is refused', async () => {
    const { tag } = await payee();
    const issued = await (await ROUTES[0]![1](tag)).json();
    const payer = newKeypair().publicKey;
    const copied = await actionWith(tag, issued.reference, payer);
    expect(copied.status).toBe(400);
    expect((await copied.json()).error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('was issued before'),
    });
    const chosen = newKeypair().publicKey;
    const first = await actionWith(tag, chosen, payer);
    expect(first.status).toBe(200);
    expect((await first.json()).reference).toBe(chosen);
    const again = await actionWith(tag, chosen, payer);
    expect(again.status).toBe(400);
    expect((await again.json()).error.message).toContain('was issued before');
  });
});

describe('HEAD and crawlers issue nothing', () => {
  const referencesOf = async (tag: string) =>
    (await testDb()).db.select().from(paymentReferences).where(eq(paymentReferences.tag, tag));

  it('HEAD /pay/{tag} answers without a reference; GET issues one', async () => {
    const { tag } = await payee();
    const head = await fetch(`${appUrl}/pay/${tag}`, { method: 'HEAD', redirect: 'manual', headers: clientHeaders() });
    expect(head.status).toBe(200);
    expect(head.headers.get('location')).toBeNull();
    expect(await referencesOf(tag)).toEqual([]);
    const get = await ROUTES[1]![1](tag);
    expect(get.status).toBe(303);
    expect(get.headers.get('location')).toMatch(/^solana:/);
    expect(await referencesOf(tag)).toHaveLength(1);
  });

  it('robots.txt keeps crawlers off /pay/', async () => {
    requireApp();
    const res = await fetch(`${appUrl}/robots.txt`);
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\n').map((line) => line.trim());
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Disallow: /pay/');
  });
});
