import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { storeNonce } from '@/lib/features/auth/nonce-store';
import { formatSignInMessage } from '@/lib/features/auth/sign-in-message';
import type { SignInAttempt } from '@/lib/features/auth/verify-sign-in';
import type { Db } from '@/lib/db';
import { newKeypair, signText, type TestKeypair } from '../support/keypair';
import { testCounter } from './counters';

/**
 * How a table of verify failures reaches the service: over HTTP (verify-failures.test.ts) or
 * by calling the domain functions (verify-sign-in.test.ts). The table is the same for both.
 */
export interface SignInService {
  /** The database the service stores nonces in. */
  db: Db;
  /** The domain the service's challenges name. */
  domain: string;
  /** A challenge the service issues for `kp`. */
  challenge(kp: TestKeypair): Promise<string>;
  /** A verification that must succeed (to use a nonce up). */
  verifyOnce(attempt: SignInAttempt): Promise<void>;
}

/** A message stored in the nonce table as if the service had issued it, with chosen fields. */
export async function storedMessage(
  service: Pick<SignInService, 'db' | 'domain'>,
  kp: TestKeypair,
  o: { domain?: string; issuedAt?: Date; store?: boolean } = {},
): Promise<string> {
  const issuedAt = o.issuedAt ?? new Date();
  const expiresAt = new Date(issuedAt.getTime() + 300_000);
  const nonce = bs58.encode(randomBytes(18));
  const message = formatSignInMessage({
    domain: o.domain ?? service.domain,
    pubkey: kp.publicKey,
    nonce,
    issuedAt,
    expiresAt,
  });
  if (o.store !== false)
    await storeNonce(service.db, { nonce, pubkey: kp.publicKey, message, issuedAt, expiresAt }, testCounter());
  return message;
}

/** Every way a verification must fail (SPEC 4.2), each making its attempt. */
export function verifyFailures(service: SignInService): Record<string, () => Promise<SignInAttempt>> {
  return {
    'malformed message': async () => {
      const kp = newKeypair();
      return { pubkey: kp.publicKey, message: 'hello', signature: signText(kp, 'hello') };
    },
    'public key mismatch': async () => {
      const a = newKeypair();
      const b = newKeypair();
      const message = await service.challenge(a);
      return { pubkey: b.publicKey, message, signature: signText(b, message) };
    },
    'expired message': async () => {
      const kp = newKeypair();
      const message = await storedMessage(service, kp, { issuedAt: new Date(Date.now() - 10 * 60_000) });
      return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
    },
    'already-used nonce': async () => {
      const kp = newKeypair();
      const message = await service.challenge(kp);
      const attempt = { pubkey: kp.publicKey, message, signature: signText(kp, message) };
      await service.verifyOnce(attempt);
      return attempt;
    },
    'bad signature': async () => {
      const kp = newKeypair();
      const message = await service.challenge(kp);
      return { pubkey: kp.publicKey, message, signature: signText(newKeypair(), message) };
    },
    'message naming another domain': async () => {
      const kp = newKeypair();
      const message = await storedMessage(service, kp, { domain: 'evil.example' });
      return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
    },
    'nonce never issued': async () => {
      const kp = newKeypair();
      const message = await storedMessage(service, kp, { store: false });
      return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
    },
    'edited message with a valid-looking signature': async () => {
      const kp = newKeypair();
      const issued = await service.challenge(kp);
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const message = issued.replace(/Expiration Time: .*$/, `Expiration Time: ${later}`);
      expect(message).not.toBe(issued);
      return { pubkey: kp.publicKey, message, signature: signText(kp, message) };
    },
    'signature of the wrong length': async () => {
      const kp = newKeypair();
      const message = await service.challenge(kp);
      const sig = bs58.decode(signText(kp, message)).slice(0, 63);
      return { pubkey: kp.publicKey, message, signature: bs58.encode(sig) };
    },
    'signature that is not base58 or base64': async () => {
      const kp = newKeypair();
      const message = await service.challenge(kp);
      return { pubkey: kp.publicKey, message, signature: '!!not-a-signature!!' };
    },
    'invalid public key in the body': async () => {
      const kp = newKeypair();
      const message = await service.challenge(kp);
      return { pubkey: 'not-a-key', message, signature: signText(kp, message) };
    },
  };
}
