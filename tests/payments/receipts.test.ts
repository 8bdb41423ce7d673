import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { findPayments } from '@/lib/features/payments/find-payments';
import { TOKEN_PROGRAM_ID, type SplAsset } from '@/lib/features/payments/pay-asset';
import { payInstructions } from '@/lib/features/payments/pay-transaction';
import { serviceIdentity } from '@/lib/features/payments/pay-action-identity';
import { mintAndFund } from '../support/spl-mint';
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
const shared = new Connection(inject('rpcUrl'), 'confirmed');

async function funded(connection: Connection, sol = 2): Promise<Keypair> {
  const payer = Keypair.generate();
  const signature = await connection.requestAirdrop(payer.publicKey, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return payer;
}

/** Pays `lamports` to `to`, the reference a read-only non-signer key of the transfer, as a Solana Pay wallet does. */
async function pay(
  connection: Connection,
  payer: Keypair,
  to: PublicKey,
  lamports: bigint,
  reference: string,
): Promise<string> {
  const transfer = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports });
  transfer.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
  return send(connection, new Transaction().add(transfer), [payer]);
}

async function send(connection: Connection, unsigned: Transaction, signers: Keypair[]): Promise<string> {
  const latest = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: signers[0]!.publicKey, ...latest }).add(...unsigned.instructions);
  tx.sign(...signers);
  const signature = await connection.sendRawTransaction(tx.serialize());
  const { value } = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  expect(value.err).toBeNull();
  return signature;
}

/** A tag registered on the shared localnet whose payout wallet is a fresh key; `preferredToken` when given. */
async function payee(preferredToken?: string): Promise<{ tag: string; wallet: PublicKey }> {
  const { tag, wallet } = await registeredPayee(app().db, shared, {
    wallet: Keypair.generate(),
    row: preferredToken ? { preferredToken } : {},
  });
  return { tag, wallet: wallet.publicKey };
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
 * payer funded on `connection`.
 */
async function paymentAsked(amount = '0.25', connection: Connection = shared) {
  const { tag, wallet } = await payee();
  const { reference } = await issued(tag, amount);
  return { tag, wallet, reference, payer: await funded(connection) };
}

/** The finding pass, as the cron runs it (a limit wide enough for every reference this file issued). */
const pass = (
  connection: Connection = shared,
  IDENTITY = serviceIdentity(app().config.actionIdentitySecret).publicKey,
) => findPayments({ db: app().db, connection, now: new Date(), identity: IDENTITY });

/** The receipt of `reference` after one finding pass over the shared localnet. */
async function receiptAfterPass(reference: string): Promise<Record<string, unknown>> {
  await pass();
  return receipt(reference);
}

describe('POST /v1/payments', () => {
  it('issues a pending reference with its Solana Pay URL, for the payout wallet as it is now', async () => {
    const { tag, wallet } = await payee();
    const { reference, url, receipt: pending } = await issued(tag, '0.25');
    expect(url).toBe(`solana:${wallet.toBase58()}?amount=0.25&reference=${reference}&label=%40${tag}`);
    expect(pending).toEqual({
      reference,
      status: 'pending',
      tag: `@${tag}`,
      recipient: wallet.toBase58(),
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
    [
      'an asset that is no mint',
      (tag) => ({ tag, amount: '1', asset: Keypair.generate().publicKey.toBase58() }),
      400,
      'unsupported_asset',
    ],
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
      body: JSON.stringify({ account: Keypair.generate().publicKey.toBase58() }),
    });
    expect(res.status).toBe(200);
    const { reference } = await res.json();
    expect(await receipt(reference)).toEqual({
      reference,
      status: 'pending',
      tag: `@${tag}`,
      recipient: wallet.toBase58(),
      amount: '0.1',
      asset: 'SOL',
      issuedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
  });
});

describe('GET /v1/payments/{reference}', () => {
  it('an unknown reference is a 404 in the envelope', async () => {
    const res = await app().fetch(`/v1/payments/${Keypair.generate().publicKey.toBase58()}`);
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
      recipient: wallet.toBase58(),
      amount: '0.25',
      asset: 'SOL',
      issuedAt: expect.any(String),
      expiresAt: expect.any(String),
      signature,
      slot: expect.any(Number),
      payer: payer.publicKey.toBase58(),
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
    await pay(shared, payer, Keypair.generate().publicKey, 250_000_000n, reference);
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
      const connection = new Connection(slow.url, 'confirmed');
      const { wallet, reference, payer } = await paymentAsked('0.5', connection);
      const signature = await pay(connection, payer, wallet, 500_000_000n, reference);
      const run = await pass(connection);
      expect(run.changed).toContain(reference);
      expect(await receipt(reference)).toMatchObject({
        status: 'confirmed',
        signature,
        payer: payer.publicKey.toBase58(),
      });
      await new Promise((resolve) => setTimeout(resolve, 1600));
      await pass(connection);
      expect(await receipt(reference)).toMatchObject({ status: 'finalized', signature });
    });
  });
});

describe('token payments', () => {
  /** A mint of 6 decimals the payer holds 100 tokens of. */
  async function mintHeldBy(payer: Keypair): Promise<SplAsset> {
    const mint = Keypair.generate();
    await send(shared, await mintAndFund(shared, payer, mint.publicKey, 6, 100_000_000n), [payer, mint]);
    return { kind: 'spl', symbol: 'TEST', decimals: 6, mint: mint.publicKey, tokenProgram: TOKEN_PROGRAM_ID };
  }

  /** Pays `amount` atoms of `asset` to the wallet's token account, with the reference, as the pay Action builds it. */
  const payToken = (payer: Keypair, wallet: PublicKey, asset: SplAsset, amount: bigint, reference: string) =>
    send(
      shared,
      new Transaction().add(
        ...payInstructions({ payer: payer.publicKey, wallet, asset, amount, reference: new PublicKey(reference) }),
      ),
      [payer],
    );

  it('the right mint and amount is paid', async () => {
    const payer = await funded(shared);
    const asset = await mintHeldBy(payer);
    const { tag, wallet } = await payee(asset.mint.toBase58());
    const { reference, url } = await issued(tag, '2.5', asset.mint.toBase58());
    expect(url).toBe(
      `solana:${wallet.toBase58()}?amount=2.5&spl-token=${asset.mint.toBase58()}&reference=${reference}&label=%40${tag}`,
    );
    const signature = await payToken(payer, wallet, asset, 2_500_000n, reference);
    expect(await receiptAfterPass(reference)).toMatchObject({
      status: 'finalized',
      signature,
      payer: payer.publicKey.toBase58(),
      asset: asset.mint.toBase58(),
    });
  });

  it('another mint settles nothing: it is paid into another token account, and the receipt stays pending', async () => {
    const payer = await funded(shared);
    const [asked, paid] = [await mintHeldBy(payer), await mintHeldBy(payer)];
    const { tag, wallet } = await payee(asked.mint.toBase58());
    const { reference } = await issued(tag, '2.5', asked.mint.toBase58());
    await payToken(payer, wallet, paid, 2_500_000n, reference);
    expect(await receiptAfterPass(reference)).toMatchObject({ status: 'pending' });
  });
});
