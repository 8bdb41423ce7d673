import 'server-only';
import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { verifyEd25519 } from '@/lib/core/ed25519';
import { decodePublicKey } from '@/lib/core/keys';
import { decodeSignature } from './ed25519';
import { consumeNonce, sha256Hex } from './nonce-store';
import { countRequest, type RequestCounter } from './rate-limit';
import { findNonceLine, MAX_SIGN_IN_MESSAGE_LENGTH, parseSignInMessage } from './sign-in-message';

export interface SignInAttempt {
  pubkey: string;
  message: string;
  signature: string;
}

/** The one answer to every failed verification (SPEC 4.2 rule 3): nothing says which check. */
const SIGN_IN_FAILED = () =>
  new AppError('unauthorized', 'Sign-in failed.', { 'WWW-Authenticate': 'Bearer realm="v1"' });

/**
 * Verifies a signed challenge (SPEC 4.2) at `counter.at`. The nonce is consumed atomically
 * before any other check, so an attempt found invalid burns it too, even when the message
 * around a well-formed `Nonce:` line is malformed. `counter` counts the request against the
 * rate limit: in the consuming statement, before the CPU-bound signature check, or on its own
 * when there is no nonce to consume. Returns the signed-in key and nonce.
 */
export async function verifySignIn(
  db: Db,
  attempt: SignInAttempt,
  allowedDomains: readonly string[],
  counter: RequestCounter,
): Promise<{ pubkey: string; nonce: string }> {
  const now = counter.at;
  const fields = attempt.message.length <= MAX_SIGN_IN_MESSAGE_LENGTH ? parseSignInMessage(attempt.message) : null;
  const nonce = fields?.nonce ?? findNonceLine(attempt.message);
  if (!nonce) {
    await countRequest(db, counter);
    throw SIGN_IN_FAILED();
  }
  const stored = await consumeNonce(db, nonce, counter);
  if (!stored || !fields || attempt.signature.length > 128) throw SIGN_IN_FAILED();

  const publicKey = decodePublicKey(attempt.pubkey);
  const signature = decodeSignature(attempt.signature);
  const valid =
    publicKey !== null &&
    signature !== null &&
    attempt.pubkey === fields.pubkey &&
    attempt.pubkey === stored.pubkey &&
    sha256Hex(attempt.message) === stored.messageHash &&
    now.getTime() < stored.expiresAt.getTime() &&
    allowedDomains.includes(fields.domain) &&
    verifyEd25519(publicKey, Buffer.from(attempt.message, 'utf8'), signature);
  if (!valid) throw SIGN_IN_FAILED();
  return { pubkey: stored.pubkey, nonce: stored.nonce };
}
