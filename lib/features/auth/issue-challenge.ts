import 'server-only';
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { AppError } from '@/lib/core/errors';
import type { Db } from '@/lib/db';
import { isPublicKey } from '@/lib/core/keys';
import { formatSignInMessage } from './sign-in-message';
import { storeNonce } from './nonce-store';
import type { RequestCounter } from './rate-limit';

/** How long a challenge can be verified (DESIGN.md "Sign-in"). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** 144 random bits, base58. */
const NONCE_BYTES = 18;

/**
 * POST /v1/auth/challenge (SPEC 4.1): a single-use, domain-separated message for `pubkey`
 * issued at `counter.at`, its nonce stored with the hash of the exact text (the request
 * counted by `counter` in the same statement).
 */
export async function issueChallenge(
  db: Db,
  input: { pubkey: unknown; domain: string },
  counter: RequestCounter,
): Promise<{ message: string }> {
  const now = counter.at;
  if (!isPublicKey(input.pubkey)) {
    throw new AppError('invalid_request', '`pubkey` must be a base58 Solana public key.');
  }
  const nonce = bs58.encode(randomBytes(NONCE_BYTES));
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  const message = formatSignInMessage({ domain: input.domain, pubkey: input.pubkey, nonce, issuedAt: now, expiresAt });
  await storeNonce(db, { nonce, pubkey: input.pubkey, message, issuedAt: now, expiresAt }, counter);
  return { message };
}

/**
 * The domain a challenge names: the request's Origin host when it is one of the extra
 * allowed domains, else the app's own. Never the Host header.
 */
export function signInDomain(origin: string | null, appDomain: string, extraDomains: readonly string[]): string {
  if (!origin) return appDomain;
  try {
    const host = new URL(origin).host.toLowerCase();
    return extraDomains.includes(host) ? host : appDomain;
  } catch {
    return appDomain;
  }
}
