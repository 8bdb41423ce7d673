import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import {
  address,
  getAddressDecoder,
  getCompiledTransactionMessageDecoder,
  isSignerRole,
  isWritableRole,
  lamports,
  type Address,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { getRegisterTagInstructionDataEncoder } from '@/packages/tag-registry/src';
import { clientHeaders, getIdentity, postAuthed } from '../support/http';
import { newKeypair, type TestKeypair } from '../support/keypair';
import { afterBudget, signBuilt } from '../support/built-transactions';
import { signIn } from '../support/sign-in';
import {
  airdrop,
  decodeWire,
  fundedSigner,
  PROGRAM_ADDRESS,
  reachAll,
  recordAddress,
  registration,
  rpcAt,
  sendSigned,
  sendWire,
  signerOf,
} from '../support/chain';
import { runCron } from '../indexer/support';

const appUrl = inject('appUrl');
const rpcUrl = inject('rpcUrl');
const rpc = rpcAt(rpcUrl);
const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

function register(token: string | null, body: unknown, headers?: Record<string, string>) {
  return postAuthed(`${appUrl}/v1/register`, token, body, headers);
}

const decode = (base64: string) => decodeWire(base64);

/** An instruction's accounts as the message says them: address, signer, writable. */
const keysOf = (ix: { accounts?: readonly { address: Address; role: number }[] }) =>
  (ix.accounts ?? []).map((a) => ({
    pubkey: a.address,
    isSigner: isSignerRole(a.role),
    isWritable: isWritableRole(a.role),
  }));

/** The signer slots a transaction carries, in order. */
const signersOf = (base64: string) => Object.keys(decode(base64).transaction.signatures);

const send = (wire: Awaited<ReturnType<typeof signBuilt>>) => sendWire(rpc, wire);

/** A register_tag sent straight to the cluster (not through the API), confirmed. */
async function registerDirect(owner: KeyPairSigner, tag: string): Promise<void> {
  await reachAll(rpc, [await sendSigned(rpc, [await registration(owner, tag)], owner)], 'confirmed');
}

describe('POST /v1/register', () => {
  let token: string;
  let keypair: TestKeypair;
  let owner: KeyPairSigner;

  beforeAll(async () => {
    ({ token, keypair } = await signIn(appUrl));
    owner = await signerOf(keypair);
    await airdrop(rpc, owner.address);
  });

  it('the whole journey: unsigned tx → signed by the owner → landed → mirrored only by the indexer', async () => {
    const tag = randomTag('j');
    const res = await register(token, { tag });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['lastValidBlockHeight', 'pda', 'transaction']);
    expect(res.json.lastValidBlockHeight).toMatch(/^\d+$/);

    const { transaction } = decode(res.json.transaction);
    expect(Object.values(transaction.signatures).every((s) => s === null)).toBe(true); // never signed by the service
    const signature = await send(await signBuilt(res.json.transaction, owner));
    await reachAll(rpc, [signature], 'confirmed');

    // Landed, but the register endpoint never writes the mirror: still 404 until the indexer runs.
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    expect((await runCron(appUrl)).status).toBe('completed');

    const landed = await rpc
      .getTransaction(signature, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send();
    const identity = await getIdentity(appUrl, tag);
    expect(identity.status).toBe(200);
    expect(await identity.json()).toMatchObject({
      tag: `@${tag}`,
      owner: keypair.publicKey,
      wallet: keypair.publicKey,
      createdAt: new Date(Number(landed!.blockTime!) * 1000).toISOString(),
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
    const { transaction, message } = decode(res.json.transaction);
    const pda = await recordAddress(tag);
    expect(res.json.pda).toBe(pda);
    expect(message.feePayer.address).toBe(keypair.publicKey);
    const own = afterBudget(message);
    expect(own).toHaveLength(1);
    const [ix] = own;
    expect(ix!.programAddress).toBe(PROGRAM_ADDRESS);
    expect(keysOf(ix!)).toEqual([
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: keypair.publicKey, isSigner: true, isWritable: true }, // owner is also the fee payer here
      { pubkey: keypair.publicKey, isSigner: true, isWritable: true },
      { pubkey: SYSTEM_PROGRAM, isSigner: false, isWritable: false },
      { pubkey: wallet, isSigner: true, isWritable: false }, // the payout wallet consents by signing
    ]);
    expect(Buffer.from(ix!.data!)).toEqual(
      Buffer.from(getRegisterTagInstructionDataEncoder().encode({ tag, wallet: address(wallet) })),
    );
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    expect(compiled.header.numSignerAccounts).toBe(2);
    expect(compiled.staticAccounts[0]).toBe(keypair.publicKey);
    expect(signersOf(res.json.transaction)).toEqual([keypair.publicKey, wallet]);
  });

  it('lastValidBlockHeight is what the cluster reported for the blockhash', async () => {
    for (let attempt = 0; ; attempt++) {
      const { value: before } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
      const res = await register(token, { tag: randomTag('lv') });
      const { value: after } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
      if (before.blockhash !== after.blockhash && attempt < 10) continue; // another test's block landed in between
      const { message } = decode(res.json.transaction);
      expect(message.lifetimeConstraint).toMatchObject({ blockhash: after.blockhash });
      expect(res.json.lastValidBlockHeight).toBe(String(after.lastValidBlockHeight));
      return;
    }
  });

  it('sponsor form: needs both signatures; one is refused by the cluster, both land and are indexed', async () => {
    const sponsor = await fundedSigner(rpc);
    const tag = randomTag('sp');
    const res = await register(token, { tag, feePayer: sponsor.address });
    expect(res.status).toBe(200);
    const { transaction, message } = decode(res.json.transaction);
    expect(message.feePayer.address).toBe(sponsor.address);
    expect(getCompiledTransactionMessageDecoder().decode(transaction.messageBytes).header.numSignerAccounts).toBe(2);
    expect(
      keysOf(afterBudget(message)[0]!)
        .slice(1, 3)
        .map((k) => [k.pubkey, k.isSigner, k.isWritable]),
    ).toEqual([
      [keypair.publicKey, true, false],
      [sponsor.address, true, true],
    ]);

    await expect(send(await signBuilt(res.json.transaction, owner))).rejects.toThrow();
    await expect(send(await signBuilt(res.json.transaction, sponsor))).rejects.toThrow();

    // Owner first, sponsor last (DESIGN "Register").
    const signature = await send(await signBuilt(res.json.transaction, owner, sponsor));
    await reachAll(rpc, [signature], 'finalized');
    const synced = await postAuthed(`${appUrl}/v1/sync`, null, { signature });
    expect(synced.status).toBe(200);
    expect(synced.json).toMatchObject({ tag: `@${tag}`, owner: keypair.publicKey, wallet: keypair.publicKey });
  });

  it('409 when the tag is already on chain but not yet mirrored', async () => {
    const tag = randomTag('oc');
    await registerDirect(await fundedSigner(rpc), tag);
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
    const ix = afterBudget(decode(res.json.transaction).message)[0]!;
    expect(getAddressDecoder().decode(ix.data!.subarray(ix.data!.length - 32))).toBe(wallet);
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
    const poor = await fundedSigner(rpc, 1);
    // register_tag, then a transfer the payer cannot afford: the whole transaction fails, fee paid.
    const signature = await sendSigned(
      rpc,
      [
        await registration(poor, tag),
        getTransferSolInstruction({ source: poor, destination: owner.address, amount: lamports(50_000_000_000n) }),
      ],
      poor,
      { skipPreflight: true },
    );
    await reachAll(rpc, [signature], 'finalized');
    const landed = await rpc
      .getTransaction(signature as Signature, {
        commitment: 'finalized',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
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
    const signature = await sendSigned(
      rpc,
      [
        getSetComputeUnitLimitInstruction({ units: 200_000 }),
        getSetComputeUnitPriceInstruction({ microLamports: 1 }),
        { programAddress: MEMO_PROGRAM_ADDRESS, data: new TextEncoder().encode('hello') },
        await registration(owner, tag),
      ],
      owner,
    );
    await reachAll(rpc, [signature], 'finalized');
    await runCron(appUrl);
    const identity = await getIdentity(appUrl, tag);
    expect(identity.status).toBe(200);
    expect(await identity.json()).toMatchObject({ tag: `@${tag}`, owner: owner.address });
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
    const tag = randomTag('tk');
    await registerDirect(await fundedSigner(rpc), tag);
    expect(await fetch(`${appUrl}/v1/availability/${tag}`).then((r) => r.json())).toEqual({
      tag,
      available: false,
      reason: 'taken',
      ...NO_LOOKALIKES,
    });
  });
});
