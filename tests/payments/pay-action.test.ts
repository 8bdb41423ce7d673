import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import { BlinksURLMapper } from '@dialectlabs/blinks-core';
import { ACTIONS_CORS_HEADERS } from '@solana/actions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { identities } from '@/lib/db/schema';
import { ACTIONS_JSON } from '@/lib/features/payments/actions-json';
import { TOKEN_PROGRAM_ID } from '@/lib/features/payments/pay-asset';
import { associatedTokenAddress } from '@/lib/chain/spl-token';
import { afterBudget } from '../support/compute-budget';
import { mintAndFund } from '../support/spl-mint';
import { clientHeaders, postJson } from '../support/http';
import { appUrl, closeTestDb, requireApp, seedIdentity, testDb } from '../integrations/support';
import { registeredPayee } from '../support/registered-payee';

/*
 * The "pay @tag" Solana Action: metadata, the transaction it builds, the headers the Actions
 * spec asks for, and the transaction landing on the localnet, signed by the payer alone.
 */

beforeAll(requireApp);
afterAll(closeTestDb);

const connection = new Connection(inject('rpcUrl'), 'confirmed');

const INVISIBLE_AMOUNT =
  '`amount`: must be written with the digits 0-9 and a decimal point only (no spaces or invisible characters)';

/**
 * The CORS headers @solana/actions prescribes (its Content-Type is not a preflight's), and the
 * version; of its methods only those the Action answers (it answers PUT 405), and X-Indexed-Slot
 * exposed beside its own, since the GET sends it.
 */
const SPEC_HEADERS = {
  'access-control-allow-origin': ACTIONS_CORS_HEADERS['Access-Control-Allow-Origin'],
  'access-control-allow-methods': 'GET,POST,OPTIONS',
  'access-control-allow-headers': ACTIONS_CORS_HEADERS['Access-Control-Allow-Headers'],
  'access-control-expose-headers': `${ACTIONS_CORS_HEADERS['Access-Control-Expose-Headers']}, X-Indexed-Slot`,
  'x-action-version': '2.4',
};

async function expectSpecHeaders(headers: Headers): Promise<void> {
  const specMethods = ACTIONS_CORS_HEADERS['Access-Control-Allow-Methods'].split(',');
  for (const method of SPEC_HEADERS['access-control-allow-methods'].split(',')) expect(specMethods).toContain(method);
  for (const [name, value] of Object.entries(SPEC_HEADERS)) expect(headers.get(name), name).toBe(value);
  expect(headers.get('x-blockchain-ids')).toBe(`solana:${(await connection.getGenesisHash()).slice(0, 32)}`);
}

async function funded(sol = 5): Promise<Keypair> {
  const payer = Keypair.generate();
  const signature = await connection.requestAirdrop(payer.publicKey, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return payer;
}

/** A tag registered on the localnet (the Action's POST reads its record there), its payout wallet `wallet`'s. */
async function payee(row: { preferredToken?: string } = {}, wallet = Keypair.generate()) {
  return (await registeredPayee((await testDb()).db, connection, { wallet, row })).row;
}

async function payAction(tag: string, query: string, account: string) {
  return postJson(`${appUrl}/api/actions/pay/${tag}?${query}`, { account });
}

/** Signs the Action's transaction with the payer's key alone and sends it through the localnet. */
async function signAndSend(base64: string, payer: Keypair): Promise<string> {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  tx.sign(payer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  const latest = await connection.getLatestBlockhash();
  const { value } = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  expect(value.err).toBeNull();
  return signature;
}

describe('pay @tag, a Solana Action', () => {
  it('GET answers the metadata with the spec’s headers', async () => {
    const row = await seedIdentity({ displayName: 'Alice Pay' });
    const res = await fetch(`${appUrl}/api/actions/pay/@${row.tag}`);
    expect(res.status).toBe(200);
    await expectSpecHeaders(res.headers);
    const body = await res.json();
    const path = `/api/actions/pay/${row.tag}`;
    expect(body).toEqual({
      type: 'action',
      icon: `${appUrl}/profile/${row.tag}/opengraph-image`,
      title: `Pay Alice Pay (@${row.tag})`,
      description: `Send SOL straight to the payout wallet of @${row.tag} (${row.wallet}).`,
      label: `Pay @${row.tag}`,
      links: {
        actions: [
          { type: 'transaction', label: 'Send 0.1 SOL', href: `${path}?amount=0.1` },
          { type: 'transaction', label: 'Send 0.5 SOL', href: `${path}?amount=0.5` },
          { type: 'transaction', label: 'Send 1 SOL', href: `${path}?amount=1` },
          {
            type: 'transaction',
            label: 'Send SOL',
            href: `${path}?amount={amount}`,
            parameters: [{ type: 'number', name: 'amount', label: 'Amount in SOL', required: true, min: 1e-9 }],
          },
        ],
      },
    });
    const icon = await fetch(body.icon);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('POST { account } answers a transfer to the payout wallet carrying a reference key, which lands on the localnet', async () => {
    const payer = await funded();
    const payout = Keypair.generate();
    const wallet = payout.publicKey.toBase58();
    const row = await payee({}, payout);
    const res = await payAction(row.tag, 'amount=0.25', payer.publicKey.toBase58());
    expect(res.status, res.text).toBe(200);
    await expectSpecHeaders(res.headers);
    const body = res.json as { type: string; transaction: string; message: string; reference: string };
    expect(body.type).toBe('transaction');
    expect(body.message).toBe(`Pay 0.25 SOL to @${row.tag}`);

    const tx = Transaction.from(Buffer.from(body.transaction, 'base64'));
    expect(tx.feePayer?.toBase58()).toBe(payer.publicKey.toBase58());
    expect(tx.signatures.every((s) => s.signature === null)).toBe(true);
    const own = afterBudget(tx);
    expect(own).toHaveLength(2);
    const [transfer, memo] = own as [TransactionInstruction, TransactionInstruction];
    // The Action Identity memo (docs/integrators.md; tests/payments/attribution.test.ts checks it).
    expect(memo.programId.toBase58()).toBe('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
    expect(memo.data.toString('utf8')).toMatch(new RegExp(`^solana-action:[1-9A-HJ-NP-Za-km-z]+:${body.reference}:`));
    expect(SystemInstruction.decodeInstructionType(transfer)).toBe('Transfer');
    const decoded = SystemInstruction.decodeTransfer(transfer);
    expect([decoded.fromPubkey.toBase58(), decoded.toPubkey.toBase58(), decoded.lamports]).toEqual([
      payer.publicKey.toBase58(),
      wallet,
      BigInt(LAMPORTS_PER_SOL / 4),
    ]);
    expect(transfer.keys.at(-2)).toEqual({ pubkey: new PublicKey(body.reference), isSigner: false, isWritable: false });

    const signature = await signAndSend(body.transaction, payer);
    expect(await connection.getBalance(new PublicKey(wallet))).toBe(LAMPORTS_PER_SOL / 4);
    const found = await connection.getSignaturesForAddress(new PublicKey(body.reference));
    expect(found.map((s) => s.signature)).toEqual([signature]);
  });

  it('pays in the preferred token where it has a mint on the cluster (created here), with a reference the payer chose', async () => {
    const payer = await funded();
    const mint = Keypair.generate();
    await signAndSendAll(await createMintAndFund(payer, mint.publicKey, 6, 10_000_000n), [payer, mint]);
    const payout = Keypair.generate();
    const wallet = payout.publicKey;
    const row = await payee({ preferredToken: mint.publicKey.toBase58() }, payout);
    const reference = Keypair.generate().publicKey.toBase58();

    const metadata = await (await fetch(`${appUrl}/api/actions/pay/${row.tag}`)).json();
    const symbol = `${mint.publicKey.toBase58().slice(0, 4)}…${mint.publicKey.toBase58().slice(-4)}`;
    expect(metadata.label).toBe(`Pay @${row.tag}`);
    expect(metadata.links.actions.at(-1).parameters[0]).toMatchObject({ label: `Amount in ${symbol}`, min: 1e-6 });

    const res = await payAction(row.tag, `amount=2.5&reference=${reference}`, payer.publicKey.toBase58());
    expect(res.status, res.text).toBe(200);
    const body = res.json as { transaction: string; reference: string; message: string };
    expect(body.reference).toBe(reference);
    expect(body.message).toBe(`Pay 2.5 ${symbol} to @${row.tag}`);
    await signAndSend(body.transaction, payer);
    // A token account: mint (32), owner (32), amount (u64 LE).
    const account = await connection.getAccountInfo(associatedTokenAddress(wallet, mint.publicKey, TOKEN_PROGRAM_ID));
    expect(account?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(account!.data.readBigUInt64LE(64)).toBe(2_500_000n);
    expect((await connection.getSignaturesForAddress(new PublicKey(reference))).length).toBe(1);
  });

  it('falls back to SOL, and says so, when the preferred token has no mint on the cluster', async () => {
    const row = await seedIdentity({ preferredToken: 'USDC' });
    const body = await (await fetch(`${appUrl}/api/actions/pay/${row.tag}`)).json();
    expect(body.description).toBe(
      `Send SOL straight to the payout wallet of @${row.tag} (${row.wallet}). @${row.tag} prefers USDC, which has no mint on this cluster.`,
    );
    expect(body.links.actions[0].label).toBe('Send 0.1 SOL');
  });

  interface Failure {
    path: (tag: string) => string;
    body?: unknown;
    status: number;
    code: string;
    message: string;
  }
  /** A POST to `path` that the Action refuses with 400 `invalid_request` and `message`. */
  const invalidPost = (path: (tag: string) => string, body: unknown, message: string): Failure => ({
    path,
    body,
    status: 400,
    code: 'invalid_request',
    message,
  });
  const anyAccount = () => ({ account: Keypair.generate().publicKey.toBase58() });
  const NOT_A_SOL_AMOUNT = '`amount`: must be a positive number of SOL with at most 9 decimal places';

  const FAILURES: Record<string, Failure> = {
    'a tag nobody has (GET)': {
      path: () => 'zz_nobody_pays_here',
      status: 404,
      code: 'not_found',
      message: 'No identity with this tag.',
    },
    'no amount': invalidPost((t) => t, anyAccount(), '`amount`: is required'),
    'an amount of 0': invalidPost((t) => `${t}?amount=0`, anyAccount(), NOT_A_SOL_AMOUNT),
    'ten decimals of SOL': invalidPost((t) => `${t}?amount=0.0000000001`, anyAccount(), NOT_A_SOL_AMOUNT),
    'no account': invalidPost(
      (t) => `${t}?amount=1`,
      {},
      '`account`: Invalid input: expected string, received undefined',
    ),
    'an account that is no key': invalidPost(
      (t) => `${t}?amount=1`,
      { account: 'not-a-key' },
      '`account`: must be a base58 Solana public key',
    ),
    // refused, never trimmed and echoed: what the wallet shows must be what is paid
    ...Object.fromEntries(
      Object.entries({
        'a BOM': '%EF%BB%BF1',
        'a zero-width space': '1%E2%80%8B',
        'a zero-width joiner': '0.%E2%80%8D5',
        'a soft hyphen': '1%C2%AD',
        'a leading space': '%201',
        'a no-break space': '1%C2%A0',
      }).map(([name, amount]) => [
        `an amount with ${name}`,
        invalidPost((t) => `${t}?amount=${amount}`, anyAccount(), INVISIBLE_AMOUNT),
      ]),
    ),
  };
  for (const [name, c] of Object.entries(FAILURES)) {
    it(`${c.status} for ${name}, in the envelope and the spec's { message }`, async () => {
      const row = await payee();
      const url = `${appUrl}/api/actions/pay/${c.path(row.tag)}`;
      const res =
        c.body === undefined
          ? await fetch(url)
          : await fetch(url, { method: 'POST', headers: clientHeaders(), body: JSON.stringify(c.body) });
      expect(res.status).toBe(c.status);
      expect(await res.json()).toEqual({ message: c.message, error: { code: c.code, message: c.message } });
      await expectSpecHeaders(res.headers);
    });
  }

  it('a path with a bad percent-escape: 400 with the Action’s headers and `message`, GET and POST', async () => {
    const message = 'The path has an invalid percent-encoding.';
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${appUrl}/api/actions/pay/ali%FFce?amount=1`, {
        method,
        ...(method === 'POST'
          ? { headers: clientHeaders(), body: JSON.stringify({ account: Keypair.generate().publicKey.toBase58() }) }
          : {}),
      });
      expect(res.status, method).toBe(400);
      expect(await res.json()).toEqual({ message, error: { code: 'invalid_request', message } });
      await expectSpecHeaders(res.headers);
    }
  });

  it('an uninitialized SPL Token account named as the preferred mint is no mint: SOL, and says so', async () => {
    const payer = await funded();
    const account = Keypair.generate();
    const rent = await connection.getMinimumBalanceForRentExemption(MINT_SIZE);
    await signAndSendAll(
      new Transaction().add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: account.publicKey,
          lamports: rent,
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
      ),
      [payer, account],
    );
    const row = await seedIdentity({ preferredToken: account.publicKey.toBase58() });
    const body = await (await fetch(`${appUrl}/api/actions/pay/${row.tag}`)).json();
    expect(body.description).toContain('which has no mint on this cluster.');
    expect(body.links.actions[0].label).toBe('Send 0.1 SOL');
  });

  it('a token account (165 bytes, owned by the token program) named as the preferred mint is no mint either', async () => {
    const payer = await funded();
    const mint = Keypair.generate();
    await signAndSendAll(await createMintAndFund(payer, mint.publicKey, 6, 1n), [payer, mint]);
    const tokenAccount = associatedTokenAddress(payer.publicKey, mint.publicKey, TOKEN_PROGRAM_ID);
    const row = await seedIdentity({ preferredToken: tokenAccount.toBase58() });
    const body = await (await fetch(`${appUrl}/api/actions/pay/${row.tag}`)).json();
    expect(body.description).toContain('which has no mint on this cluster.');
  });

  it('a blocked tag answers the same 404 as a missing one', async () => {
    const row = await seedIdentity();
    const { db } = await testDb();
    await db.update(identities).set({ status: 'blocked' }).where(eq(identities.tag, row.tag));
    const res = await fetch(`${appUrl}/api/actions/pay/${row.tag}`);
    expect([res.status, await res.json()]).toEqual([
      404,
      { message: 'No identity with this tag.', error: { code: 'not_found', message: 'No identity with this tag.' } },
    ]);
  });

  it('OPTIONS answers the preflight with the same headers', async () => {
    const res = await fetch(`${appUrl}/api/actions/pay/alice`, {
      method: 'OPTIONS',
      headers: { origin: 'https://dial.example' },
    });
    expect(res.status).toBe(204);
    await expectSpecHeaders(res.headers);
  });

  it('a preflight asking for the request headers blink clients send is allowed', async () => {
    const res = await fetch(`${appUrl}/api/actions/pay/alice`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dial.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-accept-action-version, x-accept-blockchain-ids',
      },
    });
    expect(res.status).toBe(204);
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['x-accept-action-version', 'x-accept-blockchain-ids']));
  });

  it('/actions.json maps /@tag to the Action (blinks-core’s URL mapper), with the CORS headers', async () => {
    let served: unknown;
    for (const method of ['GET', 'OPTIONS']) {
      const res = await fetch(`${appUrl}/actions.json`, { method });
      await expectSpecHeaders(res.headers);
      if (method === 'GET') served = await res.json();
    }
    expect(served).toEqual(ACTIONS_JSON);
    const mapper = new BlinksURLMapper(served as ConstructorParameters<typeof BlinksURLMapper>[0]);
    const origin = new URL(appUrl).origin;
    expect(mapper.mapUrl(`${appUrl}/@alice`)).toBe(`${origin}/api/actions/pay/@alice`);
    expect(mapper.mapUrl(`${appUrl}/profile/alice`)).toBe(`${origin}/api/actions/pay/alice`);
    expect(mapper.mapUrl(`${appUrl}/api/actions/pay/alice?amount=1`)).toBe(`${origin}/api/actions/pay/alice?amount=1`);
  });
});

// --- An SPL mint on the localnet, made with the token program's own instructions -------------

const MINT_SIZE = 82;

/** The mint helper of tests/support/spl-mint.ts on this file's connection. */
const createMintAndFund = (payer: Keypair, mint: PublicKey, decimals: number, amount: bigint) =>
  mintAndFund(connection, payer, mint, decimals, amount);

async function signAndSendAll(tx: Transaction, signers: Keypair[]): Promise<void> {
  const latest = await connection.getLatestBlockhash();
  tx.recentBlockhash = latest.blockhash;
  tx.feePayer = signers[0]!.publicKey;
  tx.sign(...signers);
  const signature = await connection.sendRawTransaction(tx.serialize());
  const { value } = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  expect(value.err).toBeNull();
}
