import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { PublicKey, SystemProgram, Transaction, ComputeBudgetProgram, TransactionInstruction } from '@solana/web3.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { encodeRegisterTagData, findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { clientHeaders, getIdentity, postAuthed } from '../support/http';
import { newKeypair, type TestKeypair } from '../support/keypair';
import { afterBudget } from '../support/compute-budget';
import { signIn } from '../support/sign-in';
import {
  PROGRAM_ID,
  confirmed,
  connect,
  fund,
  ownRegistration,
  registerDirect,
  sendInstructions,
  web3Keypair,
} from '../support/chain';
import { runCron } from '../indexer/support';

const appUrl = inject('appUrl');
const rpcUrl = inject('rpcUrl');
const connection = connect(rpcUrl);
const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

function register(token: string | null, body: unknown, headers?: Record<string, string>) {
  return postAuthed(`${appUrl}/v1/register`, token, body, headers);
}

function decode(base64: string): Transaction {
  return Transaction.from(Buffer.from(base64, 'base64'));
}

describe('POST /v1/register', () => {
  let token: string;
  let keypair: TestKeypair;
  let owner: ReturnType<typeof web3Keypair>;

  beforeAll(async () => {
    ({ token, keypair } = await signIn(appUrl));
    owner = web3Keypair(keypair);
    await fund(connection, owner.publicKey);
  });

  it('the whole journey: unsigned tx → signed by the owner → landed → mirrored only by the indexer', async () => {
    const tag = randomTag('j');
    const res = await register(token, { tag });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['lastValidBlockHeight', 'pda', 'transaction']);
    expect(res.json.lastValidBlockHeight).toMatch(/^\d+$/);

    const tx = decode(res.json.transaction);
    expect(tx.signatures.every((s) => s.signature === null)).toBe(true); // never signed by the service
    tx.partialSign(owner);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await confirmed(connection, signature);

    // Landed, but the register endpoint never writes the mirror: still 404 until the indexer runs.
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    expect((await runCron(appUrl)).status).toBe('completed');

    const landed = await connection.getTransaction(signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    const identity = await getIdentity(appUrl, tag);
    expect(identity.status).toBe(200);
    expect(await identity.json()).toMatchObject({
      tag: `@${tag}`,
      owner: keypair.publicKey,
      wallet: keypair.publicKey,
      createdAt: new Date(landed!.blockTime! * 1000).toISOString(),
    });

    // Now taken: in the mirror.
    const again = await register(token, { tag });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: { code: 'conflict', message: 'This tag is taken, reserved or blocked.' } });
  });

  it('builds exactly the ABI: accounts, flags, signers, fee payer, data, pda', async () => {
    const tag = randomTag('abi');
    const wallet = newKeypair().publicKey;
    const res = await register(token, { tag, wallet });
    expect(res.status).toBe(200);
    const tx = decode(res.json.transaction);
    const [pda] = findTagRecordAddress(tag, PROGRAM_ID);
    expect(res.json.pda).toBe(pda.toBase58());
    expect(tx.feePayer?.toBase58()).toBe(keypair.publicKey);
    const own = afterBudget(tx);
    expect(own).toHaveLength(1);
    const [ix] = own;
    expect(ix!.programId.toBase58()).toBe(PROGRAM_ID.toBase58());
    expect(
      ix!.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
    ).toEqual([
      { pubkey: pda.toBase58(), isSigner: false, isWritable: true },
      { pubkey: keypair.publicKey, isSigner: true, isWritable: true }, // owner is also the fee payer here
      { pubkey: keypair.publicKey, isSigner: true, isWritable: true },
      { pubkey: SystemProgram.programId.toBase58(), isSigner: false, isWritable: false },
      { pubkey: wallet, isSigner: true, isWritable: false }, // the payout wallet consents by signing
    ]);
    expect(Buffer.from(ix!.data)).toEqual(encodeRegisterTagData(tag, new PublicKey(wallet)));
    const message = tx.compileMessage();
    expect(message.header.numRequiredSignatures).toBe(2);
    expect(message.accountKeys[0]!.toBase58()).toBe(keypair.publicKey);
    expect(tx.signatures.map((s) => s.publicKey.toBase58())).toEqual([keypair.publicKey, wallet]);
  });

  it('lastValidBlockHeight is what the cluster reported for the blockhash', async () => {
    for (let attempt = 0; ; attempt++) {
      const before = await connection.getLatestBlockhash('confirmed');
      const res = await register(token, { tag: randomTag('lv') });
      const after = await connection.getLatestBlockhash('confirmed');
      if (before.blockhash !== after.blockhash && attempt < 10) continue; // another test's block landed in between
      const tx = decode(res.json.transaction);
      expect(tx.recentBlockhash).toBe(after.blockhash);
      expect(res.json.lastValidBlockHeight).toBe(String(after.lastValidBlockHeight));
      return;
    }
  });

  it('sponsor form: needs both signatures; one is refused by the cluster, both land and are indexed', async () => {
    const sponsor = web3Keypair(newKeypair());
    await fund(connection, sponsor.publicKey);
    const tag = randomTag('sp');
    const res = await register(token, { tag, feePayer: sponsor.publicKey.toBase58() });
    expect(res.status).toBe(200);
    const tx = decode(res.json.transaction);
    expect(tx.feePayer?.toBase58()).toBe(sponsor.publicKey.toBase58());
    expect(tx.compileMessage().header.numRequiredSignatures).toBe(2);
    expect(
      afterBudget(tx)[0]!
        .keys.slice(1, 3)
        .map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
    ).toEqual([
      [keypair.publicKey, true, false],
      [sponsor.publicKey.toBase58(), true, true],
    ]);

    const ownerOnly = decode(res.json.transaction);
    ownerOnly.partialSign(owner);
    await expect(connection.sendRawTransaction(ownerOnly.serialize({ requireAllSignatures: false }))).rejects.toThrow();
    const sponsorOnly = decode(res.json.transaction);
    sponsorOnly.partialSign(sponsor);
    await expect(
      connection.sendRawTransaction(sponsorOnly.serialize({ requireAllSignatures: false })),
    ).rejects.toThrow();

    // Owner first, sponsor last (DESIGN "Register").
    tx.partialSign(owner);
    tx.partialSign(sponsor);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await confirmed(connection, signature, 'finalized');
    const synced = await postAuthed(`${appUrl}/v1/sync`, null, { signature });
    expect(synced.status).toBe(200);
    expect(synced.json).toMatchObject({ tag: `@${tag}`, owner: keypair.publicKey, wallet: keypair.publicKey });
  });

  it('409 when the tag is already on chain but not yet mirrored', async () => {
    const tag = randomTag('oc');
    const other = web3Keypair(newKeypair());
    await fund(connection, other.publicKey);
    await confirmed(connection, await registerDirect(connection, other, tag));
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    const res = await register(token, { tag });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ error: { code: 'conflict', message: 'This tag is taken, reserved or blocked.' } });
  });

  it('409 for a reserved tag', async () => {
    const res = await register(token, { tag: 'admin' });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ error: { code: 'conflict', message: 'This tag is taken, reserved or blocked.' } });
  });

  const BAD_BODIES: Record<string, { body: unknown; code: string; message: RegExp }> = {
    'an owner field': {
      body: () => ({ tag: randomTag(), owner: newKeypair().publicKey }),
      code: 'invalid_request',
      message: /owner/,
    },
    'an unknown key': { body: () => ({ tag: randomTag(), memo: 'hi' }), code: 'invalid_request', message: /memo/ },
    'a leading @': {
      body: () => ({ tag: `@${randomTag()}` }),
      code: 'invalid_tag',
      message: /^Send the tag without a leading `@`\.$/,
    },
    'a malformed tag': {
      body: () => ({ tag: 'a-b' }),
      code: 'invalid_tag',
      message: /^The tag must be 3 to 32 characters/,
    },
    'a too-short tag': {
      body: () => ({ tag: 'ab' }),
      code: 'invalid_tag',
      message: /^The tag must be 3 to 32 characters/,
    },
    'a tag that is not a string': { body: () => ({ tag: 42 }), code: 'invalid_request', message: /^`tag`: / },
    'no tag': { body: () => ({}), code: 'invalid_request', message: /^`tag`: / },
    'a bad wallet key': {
      body: () => ({ tag: randomTag(), wallet: 'not-a-key' }),
      code: 'invalid_request',
      message: /^`wallet`: must be a base58 Solana public key$/,
    },
    'a 31-byte wallet key': {
      body: () => ({ tag: randomTag(), wallet: bs58.encode(randomBytes(31)) }),
      code: 'invalid_request',
      message: /^`wallet`: must be a base58 Solana public key$/,
    },
    'a bad feePayer key': {
      body: () => ({ tag: randomTag(), feePayer: 'x'.repeat(44) }),
      code: 'invalid_request',
      message: /^`feePayer`: must be a base58 Solana public key$/,
    },
    'a null wallet': {
      body: () => ({ tag: randomTag(), wallet: null }),
      code: 'invalid_request',
      message: /^`wallet`: /,
    },
    'not JSON': { body: () => '{"tag":', code: 'invalid_request', message: /^The request body must be JSON\.$/ },
    'an array': { body: () => [], code: 'invalid_request', message: /./ },
  };
  for (const [name, c] of Object.entries(BAD_BODIES)) {
    it(`400 for ${name}`, async () => {
      const res = await register(token, (c.body as () => unknown)());
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe(c.code);
      expect(res.json.error.message).toMatch(c.message);
      expect(Object.keys(res.json)).toEqual(['error']);
    });
  }

  it('accepts the older form (no feePayer) and a wallet different from the owner', async () => {
    const wallet = newKeypair().publicKey;
    const res = await register(token, { tag: `  ${randomTag('OLD').toUpperCase()} `, wallet });
    expect(res.status).toBe(200);
    const ix = afterBudget(decode(res.json.transaction))[0]!;
    expect(new PublicKey(ix.data.subarray(ix.data.length - 32)).toBase58()).toBe(wallet);
  });

  it('401 without a token, with the envelope', async () => {
    const res = await register(null, { tag: randomTag() });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: { code: 'unauthorized', message: 'A valid session token is required.' } });
  });

  it('429 past the register rate limit, with Retry-After', async () => {
    const headers = clientHeaders(); // one client address for every call
    let last = await register(null, { tag: randomTag() }, headers);
    for (let i = 0; i < 40 && last.status !== 429; i++) last = await register(null, { tag: randomTag() }, headers);
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('ratelimit-policy')).toMatch(/;w=60$/);
    expect(last.json).toEqual({ error: { code: 'rate_limited', message: 'Too many requests; try again later.' } });
  });

  it('a failed transaction is never mirrored; sync says 422', async () => {
    const tag = randomTag('fl');
    const poor = web3Keypair(newKeypair());
    await fund(connection, poor.publicKey, 1);
    // register_tag, then a transfer the payer cannot afford: the whole transaction fails, fee paid.
    const signature = await sendInstructions(
      connection,
      [
        ownRegistration(poor, tag),
        SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: owner.publicKey, lamports: 50 * 1e9 }),
      ],
      [poor],
      { skipPreflight: true },
    );
    await confirmed(connection, signature, 'finalized');
    const landed = await connection.getTransaction(signature, {
      commitment: 'finalized',
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.meta?.err).not.toBeNull();
    await runCron(appUrl);
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    const synced = await postAuthed(`${appUrl}/v1/sync`, null, { signature });
    expect(synced.status).toBe(422);
    expect(synced.json).toEqual({
      error: { code: 'unprocessable', message: 'The transaction failed on chain: it changed nothing.' },
    });
    // And the tag is still free.
    expect(await fetch(`${appUrl}/v1/availability/${tag}`).then((r) => r.json())).toEqual({
      tag,
      available: true,
      reason: null,
      ...NO_LOOKALIKES,
    });
  });

  it('a registration preceded by compute-budget and memo instructions is mirrored', async () => {
    const tag = randomTag('cb');
    const signature = await sendInstructions(
      connection,
      [
        ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }),
        new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: Buffer.from('hello') }),
        ownRegistration(owner, tag),
      ],
      [owner],
    );
    await confirmed(connection, signature, 'finalized');
    await runCron(appUrl);
    const identity = await getIdentity(appUrl, tag);
    expect(identity.status).toBe(200);
    expect(await identity.json()).toMatchObject({ tag: `@${tag}`, owner: owner.publicKey.toBase58() });
  });
});

/** A tag that looks like no existing tag (lib/core/skeleton.ts). */
const NO_LOOKALIKES = { lookalikes: [], warning: null };

describe('GET /v1/availability/{tag}', () => {
  it.each([
    [
      'a fresh tag',
      () => randomTag('av'),
      (t: string) => ({
        tag: t,
        available: true,
        reason: null,
        lookalikes: expect.any(Array),
        warning: expect.toBeOneOf([expect.any(String), null]),
      }),
    ],
    [
      'a reserved tag',
      () => 'support',
      () => ({ tag: 'support', available: false, reason: 'reserved', ...NO_LOOKALIKES }),
    ],
    [
      'a malformed tag',
      () => 'no-dashes',
      () => ({ tag: null, available: false, reason: 'invalid', ...NO_LOOKALIKES }),
    ],
    [
      'path form with @ and capitals',
      () => '@ALICE_x',
      () => ({
        tag: 'alice_x',
        available: expect.any(Boolean),
        reason: expect.anything(),
        lookalikes: expect.any(Array),
        warning: expect.toBeOneOf([expect.any(String), null]),
      }),
    ],
  ])('%s', async (_name, make, expected) => {
    const tag = make();
    const res = await fetch(`${appUrl}/v1/availability/${encodeURIComponent(tag)}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    if (body.reason === null) expect(body).toEqual({ ...expected(tag), reason: null });
    else expect(body).toEqual(expected(tag));
  });

  it('a tag on chain is taken', async () => {
    const owner = web3Keypair(newKeypair());
    await fund(connection, owner.publicKey);
    const tag = randomTag('tk');
    await confirmed(connection, await registerDirect(connection, owner, tag));
    expect(await fetch(`${appUrl}/v1/availability/${tag}`).then((r) => r.json())).toEqual({
      tag,
      available: false,
      reason: 'taken',
      ...NO_LOOKALIKES,
    });
  });
});
