import type { Address, KeyPairSigner } from '@solana/kit';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { findPayments } from '@/lib/features/payments/find-payments';
import { TOKEN_PROGRAM_ID, type SplAsset } from '@/lib/features/payments/pay-asset';
import { payInstructions } from '@/lib/features/payments/pay-transaction';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { landedMint } from '../support/spl-mint';
import { fundedSigner, newSigner, reachAll, rpcAt, sendSigned } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { findingAt, payWithReference, withSigner } from './paying';
import { randomTag } from '@/devstack/identities';
import { closeTestDb } from '../identity/helpers';
import { registeredPayee } from '../support/registered-payee';
import { clientHeaders } from '../support/http';
import { heldInProcessApp } from '../support/in-process';
import { ownLocalnet } from '../support/localnet';

/*
 * Payment receipts end to end (DESIGN.md "Payments and receipts"): a reference issued by
 * POST /v1/payments, paid on the localnet by a real key with the reference as a read-only
 * account of a System transfer, found by the finding pass, answered by GET /v1/payments/{reference}.
 */

afterAll(closeTestDb);

const app = heldInProcessApp();
/** A localnet: its URL and kit's RPC on it. */
const clusterAt = (url: string) => ({ url, rpc: rpcAt(url) });
type Cluster = ReturnType<typeof clusterAt>;
const shared = clusterAt(inject('rpcUrl'));

const funded = (cluster: Cluster, sol = 2): Promise<KeyPairSigner> => fundedSigner(cluster.rpc, sol);

/** Pays `lamports` to `to`, the reference a read-only non-signer key of the transfer, as a Solana Pay wallet does. */
const pay = (cluster: Cluster, payer: KeyPairSigner, to: Address, lamports: bigint, reference: string) =>
  payWithReference(cluster.rpc, payer, { to, lamports, reference });

/** A key nobody holds an account of. */
const anyKey = () => newKeypair().publicKey as Address;

/** A tag registered on the shared localnet whose payout wallet is a fresh key; `preferredToken` when given. */
async function payee(preferredToken?: string): Promise<{ tag: string; wallet: Address }> {
  const { tag, wallet } = await registeredPayee(app().db, shared.rpc, {
    wallet: (await newSigner()).signer,
    row: preferredToken ? { preferredToken } : {},
  });
  return { tag, wallet: wallet.address };
}

async function issue(body: unknown): Promise<Response> {
  return app().fetch('/v1/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function issued(
  tag: string,
  amount: string,
  asset = 'SOL',
): Promise<{ reference: string; url: string; receipt: Record<string, unknown> }> {
  const res = await issue({ tag, amount, asset });
  expect(res.status).toBe(200);
  return res.json();
}

async function receipt(reference: string): Promise<Record<string, unknown>> {
  const res = await app().fetch(`/v1/payments/${reference}`);
  expect(res.status).toBe(200);
  return res.json();
}

/**
 * What a finding test starts from: a payee, a reference issued to it for `amount` SOL, and a
 * payer funded on `cluster`.
 */
async function paymentAsked(amount = '0.25', cluster: Cluster = shared) {
  const { tag, wallet } = await payee();
  const { reference } = await issued(tag, amount);
  return { tag, wallet, reference, payer: await funded(cluster) };
}

/** The finding pass, as the cron runs it (a limit wide enough for every reference this file issued). */
const pass = (cluster: Cluster = shared, IDENTITY = serviceIdentity(app().config.actionIdentitySecret).address) =>
  findPayments({ db: app().db, cluster: findingAt(cluster.url), now: new Date(), identity: IDENTITY });

/** The receipt of `reference` after one finding pass over the shared localnet. */
async function receiptAfterPass(reference: string): Promise<Record<string, unknown>> {
  await pass();
  return receipt(reference);
}

describe('POST /v1/payments', () => {
  it('issues a pending reference with its Solana Pay URL, for the payout wallet as it is now', async () => {
    const { tag, wallet } = await payee();
    const { reference, url, receipt: pending } = await issued(tag, '0.25');
    expect(url).toBe(`solana:${wallet}?amount=0.25&reference=${reference}&label=%40${tag}`);
    expect(pending).toEqual({
      reference,
      status: 'pending',
      tag: `@${tag}`,
      recipient: wallet,
      amount: '0.25',
      asset: 'SOL',
      issuedAt: expect.any(String),
      expiresAt: new Date(Date.parse(pending.issuedAt as string) + 1800 * 1000).toISOString(),
    });
    expect(await receipt(reference)).toEqual(pending);
  });

  const REFUSED: [name: string, body: (tag: string) => unknown, status: number, code: string][] = [
    ['an unknown tag', () => ({ tag: randomTag('nobody_'), amount: '1', asset: 'SOL' }), 404, 'not_found'],
    ['more decimals than SOL has', (tag) => ({ tag, amount: '0.0000000001', asset: 'SOL' }), 400, 'invalid_request'],
    ['a zero amount', (tag) => ({ tag, amount: '0', asset: 'SOL' }), 400, 'invalid_request'],
    ['an asset that is no mint', (tag) => ({ tag, amount: '1', asset: anyKey() }), 400, 'unsupported_asset'],
    ['an asset that is neither SOL nor a key', (tag) => ({ tag, amount: '1', asset: 'USDC' }), 400, 'invalid_request'],
  ];
  for (const [name, body, status, code] of REFUSED) {
    it(`refuses ${name}: ${status} ${code}`, async () => {
      const { tag } = await payee();
      const res = await issue(body(tag));
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: { code, message: expect.any(String) } });
    });
  }
});

describe('the pay Action', () => {
  it('keeps the reference of each transfer it builds: its receipt answers, pending, for the amount and the wallet', async () => {
    const appUrl = inject('appUrl');
    expect(appUrl, 'no production build: run `npx next build` first').not.toBe('');
    const { tag, wallet } = await payee();
    const res = await fetch(`${appUrl}/api/actions/pay/${tag}?amount=0.1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...clientHeaders() },
      body: JSON.stringify({ account: anyKey() }),
    });
    expect(res.status).toBe(200);
    const { reference } = await res.json();
    expect(await receipt(reference)).toEqual({
      reference,
      status: 'pending',
      tag: `@${tag}`,
      recipient: wallet,
      amount: '0.1',
      asset: 'SOL',
      issuedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
  });
});

describe('GET /v1/payments/{reference}', () => {
  it('an unknown reference is a 404 in the envelope', async () => {
    const res = await app().fetch(`/v1/payments/${anyKey()}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'No payment reference issued by this service has this key' },
    });
  });

  it('a malformed reference is a 400', async () => {
    const res = await app().fetch('/v1/payments/not-a-key');
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_request');
  });

  it('answers with an ETag, CORS, and 304 when the ETag is sent back', async () => {
    const { tag } = await payee();
    const { reference } = await issued(tag, '1');
    const first = await app().fetch(`/v1/payments/${reference}`);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await app().fetch(`/v1/payments/${reference}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('the finding pass', () => {
  it('finds a payment by its reference: the receipt names the payer, the signature, the slot and the time', async () => {
    const { tag, wallet, reference, payer } = await paymentAsked();
    const signature = await pay(shared, payer, wallet, 250_000_000n, reference);
    const paid = await receiptAfterPass(reference);
    expect(paid).toEqual({
      reference,
      status: 'finalized', // the shared localnet finalizes at once; the confirmed step is shown below
      tag: `@${tag}`,
      recipient: wallet,
      amount: '0.25',
      asset: 'SOL',
      issuedAt: expect.any(String),
      expiresAt: expect.any(String),
      signature,
      slot: expect.any(Number),
      payer: payer.address,
      paidAt: expect.any(String),
      attributed: false, // a wallet's own transfer: no Action Identity memo (tests/payments/attribution.test.ts)
    });
  });

  it('a wrong amount settles nothing: it is listed as rejected, with why, and the receipt stays pending', async () => {
    const { wallet, reference, payer } = await paymentAsked();
    const signature = await pay(shared, payer, wallet, 200_000_000n, reference);
    const found = await receiptAfterPass(reference);
    expect(found).toMatchObject({
      status: 'pending',
      rejected: [{ signature, reason: 'the recipient received 0.2 SOL, not the 0.25 asked' }],
    });
    expect(found).not.toHaveProperty('signature');
  });

  it('a payment to another wallet settles nothing: the payout wallet never saw it, the receipt stays pending', async () => {
    const { reference, payer } = await paymentAsked();
    await pay(shared, payer, anyKey(), 250_000_000n, reference);
    expect(await receiptAfterPass(reference)).toMatchObject({ status: 'pending' });
  });

  it('a reused reference changes nothing: the first payment decides', async () => {
    const { wallet, reference, payer } = await paymentAsked();
    const first = await pay(shared, payer, wallet, 250_000_000n, reference);
    const settled = await receiptAfterPass(reference);
    expect(settled).toMatchObject({ status: 'finalized', signature: first });
    await pay(shared, payer, wallet, 100_000_000n, reference);
    expect(await receiptAfterPass(reference)).toEqual(settled);
  });

  it('a reference with nothing paid stays pending', async () => {
    const { tag } = await payee();
    const { reference } = await issued(tag, '0.25');
    expect(await receiptAfterPass(reference)).toMatchObject({ status: 'pending' });
  });

  describe('on a cluster that takes time to finalize', () => {
    const slow = ownLocalnet({ finalityDelayMs: 1500 });

    it('is confirmed when found, then finalized by a later run', async () => {
      const cluster = clusterAt(slow.url);
      const { wallet, reference, payer } = await paymentAsked('0.5', cluster);
      const signature = await pay(cluster, payer, wallet, 500_000_000n, reference);
      const run = await pass(cluster);
      expect(run.changed).toContain(reference);
      expect(await receipt(reference)).toMatchObject({
        status: 'confirmed',
        signature,
        payer: payer.address,
      });
      await new Promise((resolve) => setTimeout(resolve, 1600));
      await pass(cluster);
      expect(await receipt(reference)).toMatchObject({ status: 'finalized', signature });
    });
  });
});

describe('token payments', () => {
  /** A mint of 6 decimals the payer holds 100 tokens of. */
  async function mintHeldBy(payer: KeyPairSigner): Promise<SplAsset> {
    const mint = await landedMint(shared.rpc, payer, 6, 100_000_000n);
    return { kind: 'spl', symbol: 'TEST', decimals: 6, mint, tokenProgram: TOKEN_PROGRAM_ID };
  }

  /** Pays `amount` atoms of `asset` to the wallet's token account, with the reference, as the pay Action builds it. */
  async function payToken(
    payer: KeyPairSigner,
    wallet: Address,
    asset: SplAsset,
    amount: bigint,
    reference: string,
  ): Promise<string> {
    const payment = { payer: payer.address, wallet, asset, amount, reference: reference as Address };
    // The builder's instructions name the payer as a no-op signer: the payer's own key signs instead.
    const instructions = (await payInstructions(payment)).map((ix) => withSigner(ix, payer));
    const signature = await sendSigned(shared.rpc, instructions, payer);
    await reachAll(shared.rpc, [signature], 'confirmed', 30_000, { refuseFailed: true });
    return signature;
  }

  it('the right mint and amount is paid', async () => {
    const payer = await funded(shared);
    const asset = await mintHeldBy(payer);
    const { tag, wallet } = await payee(asset.mint);
    const { reference, url } = await issued(tag, '2.5', asset.mint);
    expect(url).toBe(`solana:${wallet}?amount=2.5&spl-token=${asset.mint}&reference=${reference}&label=%40${tag}`);
    const signature = await payToken(payer, wallet, asset, 2_500_000n, reference);
    expect(await receiptAfterPass(reference)).toMatchObject({
      status: 'finalized',
      signature,
      payer: payer.address,
      asset: asset.mint,
    });
  });

  it('another mint settles nothing: it is paid into another token account, and the receipt stays pending', async () => {
    const payer = await funded(shared);
    const [asked, paid] = [await mintHeldBy(payer), await mintHeldBy(payer)];
    const { tag, wallet } = await payee(asked.mint);
    const { reference } = await issued(tag, '2.5', asked.mint);
    await payToken(payer, wallet, paid, 2_500_000n, reference);
    expect(await receiptAfterPass(reference)).toMatchObject({ status: 'pending' });
  });
});
