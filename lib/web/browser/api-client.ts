import 'client-only';
/** Browser-side calls to the app's own /v1 routes, and how their failures read. */
import type { Identity } from '@/lib/features/identity/schemas';
import { IndexPendingError, ServiceError } from './client-errors';

/** The /v1 error envelope of `res` as a ServiceError (a generic one when the body is not the envelope). */
async function serviceErrorOf(res: Response): Promise<ServiceError> {
  try {
    const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string' && typeof body.error.message === 'string') {
      return new ServiceError(body.error.code, body.error.message, res.status);
    }
  } catch {
    // not JSON
  }
  return new ServiceError(
    res.status === 429 ? 'rate_limited' : 'unknown',
    `The server answered ${res.status}.`,
    res.status,
  );
}

/** A wallet's "no" (Wallet Standard / EIP-1193 style 4001, or the words wallets use). */
export function isUserRejection(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const o = e as { code?: unknown; message?: unknown; error?: unknown; cause?: unknown };
    if (o.code === 4001) return true;
    if (typeof o.message === 'string' && /reject|declin|denied|cancel/i.test(o.message)) return true;
    e = o.error ?? o.cause;
  }
  return false;
}

// POST /v1/auth/challenge — the single-use sign-in message for `pubkey`.
export async function requestChallenge(pubkey: string): Promise<string> {
  const res = await fetch('/v1/auth/challenge', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pubkey }),
  });
  if (!res.ok) throw await serviceErrorOf(res);
  const { message } = (await res.json()) as { message: string };
  return message;
}

/** How long the page keeps asking POST /v1/sync while the transaction is not final (202). */
const SYNC_ATTEMPTS = 15;
const SYNC_DELAY_MS = 1000;

/**
 * POST /v1/sync until the landed transaction is indexed: the identity as it is now, or null
 * when `goneIsDone` and the tag no longer exists (404 after a release). Throws a ServiceError
 * for any other answer, IndexPendingError when it stays pending.
 */
export async function syncTransaction(
  signature: string,
  options: { goneIsDone?: boolean } = {},
): Promise<Identity | null> {
  for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, SYNC_DELAY_MS));
    const res = await fetch('/v1/sync', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signature }),
    });
    if (res.status === 202) continue;
    if (res.status === 404 && options.goneIsDone) return null;
    if (!res.ok) throw await serviceErrorOf(res);
    return (await res.json()) as Identity;
  }
  throw new IndexPendingError();
}
