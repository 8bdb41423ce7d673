import { jwtVerify } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { SIGN_IN_STATEMENT } from '@/lib/features/auth/sign-in-message';
import { isBase58 } from '@/lib/core/keys';
import { TEST_AUTH_SECRET } from '@/devstack/app';
import { postJson } from '../support/http';
import { newKeypair, signText } from '../support/keypair';
import { requestChallenge, signIn, verifySigned } from '../support/sign-in';

const appUrl = inject('appUrl');
const host = new URL(appUrl || 'http://x').host;

describe('sign-in over HTTP (SPEC 4.1, 4.2, 5)', () => {
  it('challenge → sign with tweetnacl → verify gives a JWT whose sub is the public key', async () => {
    const { token, keypair } = await signIn(appUrl);
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(TEST_AUTH_SECRET), {
      algorithms: ['HS256'],
      issuer: appUrl,
      audience: `${appUrl}/v1`,
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe(keypair.publicKey);
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(typeof payload.jti).toBe('string');
    const session = await fetch(`${appUrl}/v1/auth/session`, { headers: { authorization: `Bearer ${token}` } });
    expect(session.status).toBe(200);
    expect((await session.json()).pubkey).toBe(keypair.publicKey);
  });

  it('the challenge text matches SPEC 2.2 line by line', async () => {
    const kp = newKeypair();
    const before = Date.now();
    const message = await requestChallenge(appUrl, kp);
    const lines = message.split('\n');
    expect(lines).toHaveLength(8);
    expect(message.endsWith('\n')).toBe(false);
    expect(lines[0]).toBe(`${host} wants you to sign in with your Solana account:`);
    expect(lines[1]).toBe(kp.publicKey);
    expect(lines[2]).toBe('');
    expect(lines[3]).toBe(SIGN_IN_STATEMENT);
    expect(lines[3]).toMatch(/sign in/i);
    expect(lines[3]).toMatch(/not trigger a blockchain transaction/);
    expect(lines[3]).toMatch(/fees/);
    expect(lines[4]).toBe('');
    const nonce = /^Nonce: (\S+)$/.exec(lines[5])![1];
    expect(isBase58(nonce, 64)).toBe(true);
    expect(nonce.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base58
    const issued = /^Issued At: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)$/.exec(lines[6])![1];
    const expires = /^Expiration Time: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)$/.exec(lines[7])![1];
    expect(Date.parse(issued)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(expires) - Date.parse(issued)).toBe(5 * 60 * 1000);
    const second = await requestChallenge(appUrl, kp);
    expect(second.split('\n')[5]).not.toBe(lines[5]);
  });

  it('a verify with a bad signature consumes the nonce: the right signature then fails', async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    const bad = await verifySigned(appUrl, kp, message, message + 'x');
    expect(bad.status).toBe(401);
    const good = await verifySigned(appUrl, kp, message);
    expect(good.status).toBe(401);
    expect(good.text).toBe(bad.text);
  });

  it('replay race: 20 concurrent verifies of one signed message give exactly one 200', async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    const body = { pubkey: kp.publicKey, message, signature: signText(kp, message) };
    const results = await Promise.all(Array.from({ length: 20 }, () => postJson(`${appUrl}/v1/auth/verify`, body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(19);
  });

  it('accepts a base64 signature too', async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    const { default: bs58 } = await import('bs58');
    const b64 = Buffer.from(bs58.decode(signText(kp, message))).toString('base64');
    const res = await postJson(`${appUrl}/v1/auth/verify`, { pubkey: kp.publicKey, message, signature: b64 });
    expect(res.status).toBe(200);
  });
});
