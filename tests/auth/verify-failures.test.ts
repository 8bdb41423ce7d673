import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDb, type DbHandle } from '@/lib/db/client';
import { storeNonce } from '@/lib/auth/nonce-store';
import { formatSignInMessage } from '@/lib/auth/sign-in-message';
import { postJson } from '../support/http';
import { newKeypair, signText, type TestKeypair } from '../support/keypair';
import { requestChallenge } from '../support/sign-in';
import { testCounter } from './counters';

const appUrl = inject('appUrl');
const host = new URL(appUrl).host;
let handle: DbHandle;

beforeAll(async () => {
  handle = await openDb({ driver: 'node-postgres', url: inject('databaseUrl') });
});
afterAll(() => handle?.close());

/** A message stored in the nonce table as if the service had issued it, with chosen fields. */
async function storedMessage(kp: TestKeypair, o: { domain?: string; issuedAt?: Date; ttlMs?: number; store?: boolean }) {
  const issuedAt = o.issuedAt ?? new Date();
  const expiresAt = new Date(issuedAt.getTime() + (o.ttlMs ?? 300_000));
  const nonce = bs58.encode(randomBytes(18));
  const message = formatSignInMessage({ domain: o.domain ?? host, pubkey: kp.publicKey, nonce, issuedAt, expiresAt });
  if (o.store !== false) await storeNonce(handle.db, { nonce, pubkey: kp.publicKey, message, issuedAt, expiresAt }, testCounter());
  return message;
}

type Attempt = { pubkey: string; message: string; signature: string };

const FAILURES: Record<string, () => Promise<Attempt>> = {
  'malformed message': async () => {
    const kp = newKeypair();
    return { pubkey: kp.publicKey, message: 'hello', signature: signText(kp, 'hello') };
  },
  'public key mismatch': async () => {
    const a = newKeypair();
    const b = newKeypair();
    const message = await requestChallenge(appUrl, a);
    return { pubkey: b.publicKey, message, signature: signText(b, message) };
  },
  'expired message': async () => {
    const kp = newKeypair();
    const message = await storedMessage(kp, { issuedAt: new Date(Date.now() - 10 * 60_000) });
    return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
  },
  'already-used nonce': async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    const attempt = { pubkey: kp.publicKey, message, signature: signText(kp, message) };
    const first = await postJson(`${appUrl}/v1/auth/verify`, attempt);
    expect(first.status).toBe(200);
    return attempt;
  },
  'bad signature': async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    return { pubkey: kp.publicKey, message, signature: signText(newKeypair(), message) };
  },
  'message naming another domain': async () => {
    const kp = newKeypair();
    const message = await storedMessage(kp, { domain: 'evil.example' });
    return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
  },
  'nonce never issued': async () => {
    const kp = newKeypair();
    const message = await storedMessage(kp, { store: false });
    return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
  },
  'edited message with a valid-looking signature': async () => {
    const kp = newKeypair();
    const issued = await requestChallenge(appUrl, kp);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const message = issued.replace(/Expiration Time: .*$/, `Expiration Time: ${later}`);
    expect(message).not.toBe(issued);
    return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
  },
  'signature of the wrong length': async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    const sig = bs58.decode(signText(kp, message)).slice(0, 63);
    return { pubkey: kp.publicKey, message, signature: bs58.encode(sig) };
  },
  'signature that is not base58 or base64': async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    return { pubkey: kp.publicKey, message, signature: '!!not-a-signature!!' };
  },
  'invalid public key in the body': async () => {
    const kp = newKeypair();
    const message = await requestChallenge(appUrl, kp);
    return { pubkey: 'not-a-key', message, signature: signText(kp, message) };
  },
};

describe('every verify failure is the same 401 (SPEC 4.2 rule 3)', () => {
  const bodies = new Map<string, string>();

  for (const [name, make] of Object.entries(FAILURES)) {
    it(name, async () => {
      const res = await postJson(`${appUrl}/v1/auth/verify`, await make());
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: { code: 'unauthorized', message: 'Sign-in failed.' } });
      bodies.set(name, res.text);
    });
  }

  it('all failure bodies are byte-identical', () => {
    expect(bodies.size).toBe(Object.keys(FAILURES).length);
    expect(new Set(bodies.values()).size).toBe(1);
  });

  it('a correctly signed message whose stored challenge is valid still succeeds (control)', async () => {
    const kp = newKeypair();
    const message = await storedMessage(kp, {});
    const res = await postJson(`${appUrl}/v1/auth/verify`, { pubkey: kp.publicKey, message, signature: signText(kp, message) });
    expect(res.status).toBe(200);
  });
});
