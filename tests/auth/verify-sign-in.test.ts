import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AppError } from '@/lib/api/errors';
import { issueChallenge } from '@/lib/auth/issue-challenge';
import { storeNonce } from '@/lib/auth/nonce-store';
import { formatSignInMessage } from '@/lib/auth/sign-in-message';
import { verifySignIn, type SignInAttempt } from '@/lib/auth/verify-sign-in';
import { openDb, type DbHandle } from '@/lib/db/client';
import { newKeypair, signText, type TestKeypair } from '../support/keypair';
import { testCounter } from './counters';

/*
 * The verify failures of verify-failures.test.ts, called on the domain function itself
 * against the test PostgreSQL: each is the one AppError, and a sound attempt passes.
 */

const DOMAIN = 'tags.test';
let handle: DbHandle;

beforeAll(async () => {
  handle = await openDb({ driver: 'node-postgres', url: inject('databaseUrl') }, { poolSize: 2 });
});
afterAll(() => handle?.close());

async function challenge(kp: TestKeypair): Promise<string> {
  return (await issueChallenge(handle.db, { pubkey: kp.publicKey, domain: DOMAIN }, testCounter())).message;
}

/** A message stored in the nonce table as if the service had issued it, with chosen fields. */
async function storedMessage(kp: TestKeypair, o: { domain?: string; issuedAt?: Date; store?: boolean }) {
  const issuedAt = o.issuedAt ?? new Date();
  const expiresAt = new Date(issuedAt.getTime() + 300_000);
  const nonce = bs58.encode(randomBytes(18));
  const message = formatSignInMessage({ domain: o.domain ?? DOMAIN, pubkey: kp.publicKey, nonce, issuedAt, expiresAt });
  if (o.store !== false) await storeNonce(handle.db, { nonce, pubkey: kp.publicKey, message, issuedAt, expiresAt }, testCounter());
  return message;
}

function verify(attempt: SignInAttempt) {
  return verifySignIn(handle.db, attempt, [DOMAIN], testCounter());
}

const FAILURES: Record<string, () => Promise<SignInAttempt>> = {
  'malformed message': async () => {
    const kp = newKeypair();
    return { pubkey: kp.publicKey, message: 'hello', signature: signText(kp, 'hello') };
  },
  'public key mismatch': async () => {
    const a = newKeypair();
    const b = newKeypair();
    const message = await challenge(a);
    return { pubkey: b.publicKey, message, signature: signText(b, message) };
  },
  'expired message': async () => {
    const kp = newKeypair();
    const message = await storedMessage(kp, { issuedAt: new Date(Date.now() - 10 * 60_000) });
    return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
  },
  'already-used nonce': async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
    const attempt = { pubkey: kp.publicKey, message, signature: signText(kp, message) };
    await verify(attempt);
    return attempt;
  },
  'bad signature': async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
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
    const issued = await challenge(kp);
    const message = issued.replace(/Expiration Time: .*$/, `Expiration Time: ${new Date(Date.now() + 3_600_000).toISOString()}`);
    expect(message).not.toBe(issued);
    return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
  },
  'signature of the wrong length': async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
    return { pubkey: kp.publicKey, message, signature: bs58.encode(bs58.decode(signText(kp, message)).slice(0, 63)) };
  },
  'signature that is not base58 or base64': async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
    return { pubkey: kp.publicKey, message, signature: '!!not-a-signature!!' };
  },
  'invalid public key': async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
    return { pubkey: 'not-a-key', message, signature: signText(kp, message) };
  },
};

describe('verifySignIn: every failure is the same AppError (SPEC 4.2 rule 3)', () => {
  for (const [name, make] of Object.entries(FAILURES)) {
    it(name, async () => {
      const attempt = await make();
      const error = await verify(attempt).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect({ code: (error as AppError).code, message: (error as AppError).message }).toEqual({
        code: 'unauthorized',
        message: 'Sign-in failed.',
      });
    });
  }

  it('a correctly signed challenge passes and names the key and nonce (control)', async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
    const result = await verify({ pubkey: kp.publicKey, message, signature: signText(kp, message) });
    expect(result.pubkey).toBe(kp.publicKey);
    expect(message).toContain(`Nonce: ${result.nonce}`);
  });
});

describe('a malformed message that carries a well-formed nonce (SPEC 3.2: consumed whatever the outcome)', () => {
  it.each([
    ['a line added', (m: string) => `${m}\nResources: x`],
    ['the statement changed', (m: string) => m.replace('Sign in', 'Log in')],
    ['CR LF line ends', (m: string) => m.replace(/\n/g, '\r\n')],
    ['only the nonce line left', (m: string) => m.split('\n').find((l) => l.startsWith('Nonce: '))!],
  ])('%s: refused, and the nonce is gone for the intact message too', async (_name, alter) => {
    const kp = newKeypair();
    const message = await challenge(kp);
    const altered = alter(message);
    await expect(verify({ pubkey: kp.publicKey, message: altered, signature: signText(kp, altered) })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify({ pubkey: kp.publicKey, message, signature: signText(kp, message) })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('two different nonce lines: nothing is burnt (which one would it be?) and the intact message still signs in', async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
    const altered = `${message}\nNonce: ${'1'.repeat(24)}`;
    await expect(verify({ pubkey: kp.publicKey, message: altered, signature: signText(kp, altered) })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify({ pubkey: kp.publicKey, message, signature: signText(kp, message) })).resolves.toMatchObject({ pubkey: kp.publicKey });
  });
});
