import bs58 from 'bs58';
import { generateKeyPairSigner, lamports, type KeyPairSigner, type Signature } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { NO_PROFILE } from '../support/identity';
import { fundedSigner, reachAll, registration, rpcAt, sendSigned } from '../support/chain';
import { getIdentity, postAuthed } from '../support/http';

const appUrl = inject('appUrl');
const rpcUrl = inject('rpcUrl');
const rpc = rpcAt(rpcUrl);

function sync(body: unknown) {
  return postAuthed(`${appUrl}/v1/sync`, null, body);
}

describe('POST /v1/sync', () => {
  let owner: KeyPairSigner;
  beforeAll(async () => {
    owner = await fundedSigner(rpc);
  });

  it('200 with the identity for a finalized register_tag, and again (idempotent)', async () => {
    const tag = randomTag('sy');
    const signature = await sendSigned(rpc, [await registration(owner, tag)], owner);
    await reachAll(rpc, [signature], 'finalized');
    expect((await getIdentity(appUrl, tag)).status).toBe(404);
    const first = await sync({ signature });
    expect(first.status).toBe(200);
    const landed = await rpc
      .getTransaction(signature as Signature, {
        commitment: 'finalized',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(first.json).toEqual({
      tag: `@${tag}`,
      owner: owner.address,
      wallet: owner.address,
      ...NO_PROFILE,
      createdAt: new Date(Number(landed!.blockTime!) * 1000).toISOString(),
    });
    expect((await sync({ signature })).json).toEqual(first.json);
    expect((await getIdentity(appUrl, tag)).status).toBe(200);
  });

  it('422 for a transaction that is not a register_tag (a transfer)', async () => {
    const destination = (await generateKeyPairSigner()).address;
    const signature = await sendSigned(
      rpc,
      [getTransferSolInstruction({ source: owner, destination, amount: lamports(1_000_000n) })],
      owner,
    );
    await reachAll(rpc, [signature], 'finalized');
    const res = await sync({ signature });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      error: { code: 'unprocessable', message: 'The transaction has no instruction of the tag registry.' },
    });
  });

  it('404 for a signature the cluster does not know', async () => {
    const res = await sync({ signature: bs58.encode(randomBytes(64)) });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      error: { code: 'not_found', message: 'The cluster knows no transaction with this signature (yet).' },
    });
  });

  it('a blocked (reserved) tag that landed answers the same 404 as GET', async () => {
    const taken = await fetch(`${appUrl}/v1/availability/root`).then((r) => r.json());
    expect(taken.reason).toBe('reserved');
    const squatter = await fundedSigner(rpc);
    const signature = await sendSigned(rpc, [await registration(squatter, 'root')], squatter);
    await reachAll(rpc, [signature], 'finalized');
    const res = await sync({ signature });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: { code: 'not_found', message: 'No identity with this tag.' } });
  });

  it.each([
    ['no signature', {}],
    ['not base58', { signature: '0OIl'.repeat(22) }],
    ['32 bytes, not 64', { signature: bs58.encode(randomBytes(32)) }],
    ['an unknown key', { signature: bs58.encode(randomBytes(64)), tag: 'x' }],
  ])('400 for %s', async (_name, body) => {
    const res = await sync(body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
  });

  it('carries the sync rate-limit headers', async () => {
    const res = await sync({ signature: bs58.encode(randomBytes(64)) });
    expect(res.headers.get('ratelimit-limit')).toBe('1000000');
  });
});
