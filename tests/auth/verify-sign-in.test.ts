import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { issueChallenge } from '@/lib/features/auth/issue-challenge';
import { verifySignIn, type SignInAttempt } from '@/lib/features/auth/verify-sign-in';
import { stackDatabase } from '../support/database';
import { newKeypair, signText, type TestKeypair } from '../support/keypair';
import { testCounter } from './counters';
import { verifyFailures, type SignInService } from './verify-failure-cases';

/*
 * The verify failures of verify-failures.test.ts, called on the domain function itself
 * against the test PostgreSQL: each is the one AppError, and a sound attempt passes.
 */

const DOMAIN = 'tags.test';
const database = stackDatabase({ poolSize: 2 });

async function challenge(kp: TestKeypair): Promise<string> {
  return (await issueChallenge(database.db, { pubkey: kp.publicKey, domain: DOMAIN }, testCounter())).message;
}

function verify(attempt: SignInAttempt) {
  return verifySignIn(database.db, attempt, [DOMAIN], testCounter());
}

const service: SignInService = {
  get db() {
    return database.db;
  },
  domain: DOMAIN,
  challenge,
  async verifyOnce(attempt) {
    await verify(attempt);
  },
};

const FAILURES = verifyFailures(service);

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
    await expect(
      verify({ pubkey: kp.publicKey, message: altered, signature: signText(kp, altered) }),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify({ pubkey: kp.publicKey, message, signature: signText(kp, message) })).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('two different nonce lines: nothing is burnt (which one would it be?) and the intact message still signs in', async () => {
    const kp = newKeypair();
    const message = await challenge(kp);
    const altered = `${message}\nNonce: ${'1'.repeat(24)}`;
    await expect(
      verify({ pubkey: kp.publicKey, message: altered, signature: signText(kp, altered) }),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verify({ pubkey: kp.publicKey, message, signature: signText(kp, message) })).resolves.toMatchObject({
      pubkey: kp.publicKey,
    });
  });
});
