import { AccountRole, fetchEncodedAccount, type Address, type KeyPairSigner } from '@solana/kit';
import {
  getCreateAccountInstruction,
  identifySystemInstruction,
  parseTransferSolInstruction,
  SystemInstruction,
} from '@solana-program/system';
import { BlinksURLMapper } from '@dialectlabs/blinks-core';
import { ACTIONS_CORS_HEADERS } from '@solana/actions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { identities } from '@/lib/db/schema';
import { ACTIONS_JSON } from '@/lib/features/payments/actions-json';
import { TOKEN_PROGRAM_ID } from '@/lib/features/payments/pay-asset';
import { associatedTokenAddress } from '@/lib/chain/spl-token';
import { decodeWire, fundedSigner, newSigner, reachAll, rpcAt, sendSigned } from '../support/chain';
import { newKeypair } from '../support/keypair';
import { afterBudget, landBuilt } from '../support/built-transactions';
import { landedMint } from '../support/spl-mint';
import { clientHeaders, postJson } from '../support/http';
import { appUrl, closeTestDb, requireApp, seedIdentity, testDb } from '../integrations/support';
import { registeredPayee } from '../support/registered-payee';

/*
 * The "pay @tag" Solana Action: metadata, the transaction it builds, the headers the Actions
 * spec asks for, and the transaction landing on the localnet, signed by the payer alone.
 */

beforeAll(requireApp);
afterAll(closeTestDb);

const rpc = rpcAt(inject('rpcUrl'));
const LAMPORTS_PER_SOL = 1_000_000_000n;

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
  expect(headers.get('x-blockchain-ids')).toBe(`solana:${(await rpc.getGenesisHash().send()).slice(0, 32)}`);
}

const funded = (sol = 5): Promise<KeyPairSigner> => fundedSigner(rpc, sol);

/** A tag registered on the localnet (the Action's POST reads its record there), its payout wallet `wallet`'s. */
async function payee(row: { preferredToken?: string } = {}, wallet?: KeyPairSigner) {
  const payout = wallet ?? (await newSigner()).signer;
  return (await registeredPayee((await testDb()).db, rpc, { wallet: payout, row })).row;
}

async function payAction(tag: string, query: string, account: string) {
  return postJson(`${appUrl}/api/actions/pay/${tag}?${query}`, { account });
}

/** Signs the Action's transaction with the payer's key alone and sends it through the localnet. */
const signAndSend = async (base64: string, payer: KeyPairSigner) => (await landBuilt(rpc, base64, payer)).signature;

/** The signatures listed for `key` at `confirmed`. */
const signaturesOf = async (key: string) =>
  (await rpc.getSignaturesForAddress(key as Address, { commitment: 'confirmed' }).send()).map((s) => s.signature);

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
    const payout = (await newSigner()).signer;
    const wallet = payout.address;
    const row = await payee({}, payout);
    const res = await payAction(row.tag, 'amount=0.25', payer.address);
    expect(res.status, res.text).toBe(200);
    await expectSpecHeaders(res.headers);
    const body = res.json as { type: string; transaction: string; message: string; reference: string };
    expect(body.type).toBe('transaction');
    expect(body.message).toBe(`Pay 0.25 SOL to @${row.tag}`);

    const { transaction, compiled, message } = decodeWire(body.transaction);
    expect(compiled.staticAccounts[0]).toBe(payer.address);
    expect(Object.values(transaction.signatures).every((s) => s === null)).toBe(true);
    const own = afterBudget(message);
    expect(own).toHaveLength(2);
    const [transfer, memo] = own as [(typeof own)[number], (typeof own)[number]];
    // The Action Identity memo (docs/integrators.md; tests/payments/attribution.test.ts checks it).
    expect(memo.programAddress).toBe('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
    expect(Buffer.from(memo.data!).toString('utf8')).toMatch(
      new RegExp(`^solana-action:[1-9A-HJ-NP-Za-km-z]+:${body.reference}:`),
    );
    expect(identifySystemInstruction(transfer.data!)).toBe(SystemInstruction.TransferSol);
    const decoded = parseTransferSolInstruction({ ...transfer, accounts: transfer.accounts!, data: transfer.data! });
    expect([decoded.accounts.source.address, decoded.accounts.destination.address, decoded.data.amount]).toEqual([
      payer.address,
      wallet,
      LAMPORTS_PER_SOL / 4n,
    ]);
    expect(transfer.accounts!.at(-2)).toEqual({ address: body.reference, role: AccountRole.READONLY });

    const signature = await signAndSend(body.transaction, payer);
    expect((await rpc.getBalance(wallet, { commitment: 'confirmed' }).send()).value).toBe(LAMPORTS_PER_SOL / 4n);
    expect(await signaturesOf(body.reference)).toEqual([signature]);
  });

  it('pays in the preferred token where it has a mint on the cluster (created here), with a reference the payer chose', async () => {
    const payer = await funded();
    const mint = await landedMint(rpc, payer, 6, 10_000_000n);
    const payout = (await newSigner()).signer;
    const wallet = payout.address;
    const row = await payee({ preferredToken: mint }, payout);
    const reference = newKeypair().publicKey;

    const metadata = await (await fetch(`${appUrl}/api/actions/pay/${row.tag}`)).json();
    const symbol = `${mint.slice(0, 4)}…${mint.slice(-4)}`;
    expect(metadata.label).toBe(`Pay @${row.tag}`);
    expect(metadata.links.actions.at(-1).parameters[0]).toMatchObject({ label: `Amount in ${symbol}`, min: 1e-6 });

    const res = await payAction(row.tag, `amount=2.5&reference=${reference}`, payer.address);
    expect(res.status, res.text).toBe(200);
    const body = res.json as { transaction: string; reference: string; message: string };
    expect(body.reference).toBe(reference);
    expect(body.message).toBe(`Pay 2.5 ${symbol} to @${row.tag}`);
    await signAndSend(body.transaction, payer);
    // A token account: mint (32), owner (32), amount (u64 LE).
    const account = await fetchEncodedAccount(rpc, await associatedTokenAddress(wallet, mint, TOKEN_PROGRAM_ID), {
      commitment: 'confirmed',
    });
    expect(account.exists && account.programAddress).toBe(TOKEN_PROGRAM_ID);
    expect(account.exists && Buffer.from(account.data).readBigUInt64LE(64)).toBe(2_500_000n);
    expect(await signaturesOf(reference)).toHaveLength(1);
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
  const anyAccount = () => ({ account: newKeypair().publicKey });
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
          ? { headers: clientHeaders(), body: JSON.stringify({ account: newKeypair().publicKey }) }
          : {}),
      });
      expect(res.status, method).toBe(400);
      expect(await res.json()).toEqual({ message, error: { code: 'invalid_request', message } });
      await expectSpecHeaders(res.headers);
    }
  });

  it('an uninitialized SPL Token account named as the preferred mint is no mint: SOL, and says so', async () => {
    const payer = await funded();
    const account = (await newSigner()).signer;
    const rent = await rpc.getMinimumBalanceForRentExemption(MINT_SIZE).send();
    const create = getCreateAccountInstruction({
      payer,
      newAccount: account,
      lamports: rent,
      space: MINT_SIZE,
      programAddress: TOKEN_PROGRAM_ID,
    });
    await reachAll(rpc, [await sendSigned(rpc, [create], payer)], 'confirmed', 30_000, { refuseFailed: true });
    const row = await seedIdentity({ preferredToken: account.address });
    const body = await (await fetch(`${appUrl}/api/actions/pay/${row.tag}`)).json();
    expect(body.description).toContain('which has no mint on this cluster.');
    expect(body.links.actions[0].label).toBe('Send 0.1 SOL');
  });

  it('a token account (165 bytes, owned by the token program) named as the preferred mint is no mint either', async () => {
    const payer = await funded();
    const mint = await landedMint(rpc, payer, 6, 1n);
    const tokenAccount = await associatedTokenAddress(payer.address, mint, TOKEN_PROGRAM_ID);
    const row = await seedIdentity({ preferredToken: tokenAccount });
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

/** An SPL mint account's size (tests/support/spl-mint.ts makes whole mints). */
const MINT_SIZE = 82n;
