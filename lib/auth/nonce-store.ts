import { hash } from 'node:crypto';
import { lt } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { executePrepared } from '@/lib/db/rows';
import { authNonces } from '@/lib/db/schema';
import { COUNT_REQUEST, UNCOUNTED, counterValues, type RequestCounter } from './rate-limit';

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

export interface StoredNonce {
  nonce: string;
  pubkey: string;
  messageHash: string;
  expiresAt: Date;
}

// Both sign-in statements count the request against the rate limit in the same statement
// (one round trip per sign-in request) and do their work only within the limit.
const STORE = `
WITH ${COUNT_REQUEST},
stored AS (
  INSERT INTO auth_nonces (nonce, pubkey, message_hash, issued_at, expires_at)
  SELECT $4, $5, $6, $7, $8 FROM counted WHERE counted.count <= $3::int
)
SELECT count FROM counted`;

// Of any number of concurrent callers, exactly one updates the row (`consumed_at IS NULL` is
// checked again on the row it locks).
const CONSUME = `
WITH ${COUNT_REQUEST},
consumed AS (
  UPDATE auth_nonces SET consumed_at = $4
  WHERE nonce = $5 AND consumed_at IS NULL AND (SELECT count FROM counted) <= $3::int
  RETURNING nonce, pubkey, message_hash, expires_at
)
SELECT counted.count, consumed.* FROM counted LEFT JOIN consumed ON true`;

/**
 * Stores a challenge's nonce with the hash of its exact message. The request is counted
 * against the rate limit in the same statement; over the limit nothing is stored.
 */
export async function storeNonce(
  db: Db,
  n: { nonce: string; pubkey: string; message: string; issuedAt: Date; expiresAt: Date },
  counter: RequestCounter = UNCOUNTED,
): Promise<void> {
  const [row] = await executePrepared<{ count: number }>(db, 'store_nonce', STORE, [
    ...counterValues(counter),
    n.nonce,
    n.pubkey,
    sha256Hex(n.message),
    n.issuedAt.toISOString(),
    n.expiresAt.toISOString(),
  ]);
  counter.settle(Number(row.count));
}

/**
 * Consumes a nonce in one atomic statement (SPEC 3.2): of any number of concurrent callers,
 * exactly one gets the row; everyone else, and every later caller, gets null. The request is
 * counted against the rate limit in the same statement; over the limit nothing is consumed.
 */
export async function consumeNonce(
  db: Db,
  nonce: string,
  now: Date,
  counter: RequestCounter = UNCOUNTED,
): Promise<StoredNonce | null> {
  const [row] = await executePrepared<{ count: number; nonce: string | null; pubkey: string; message_hash: string; expires_at: string | Date }>(
    db,
    'consume_nonce',
    CONSUME,
    [...counterValues(counter), now.toISOString(), nonce],
  );
  counter.settle(Number(row.count));
  if (!row.nonce) return null;
  return { nonce: row.nonce, pubkey: row.pubkey, messageHash: row.message_hash, expiresAt: new Date(row.expires_at) };
}

/** Deletes challenges that expired over an hour ago (run by the cron job). */
export async function pruneNonces(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 60 * 60 * 1000);
  const rows = await db.delete(authNonces).where(lt(authNonces.expiresAt, cutoff)).returning({ nonce: authNonces.nonce });
  return rows.length;
}
