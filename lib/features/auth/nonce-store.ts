import 'server-only';
import { hash } from 'node:crypto';
import { lt } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { createBatcher, perHandle } from '@/lib/db/batch';
import { executePrepared } from '@/lib/db/rows';
import { authNonces } from '@/lib/db/schema';
import { COUNT_REQUESTS, counterColumns, requestColumns, type RequestCounter } from './rate-limit';

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

export interface StoredNonce {
  nonce: string;
  pubkey: string;
  messageHash: string;
  expiresAt: Date;
}

// Both sign-in statements run a batch of requests (lib/db/batch.ts), one row of the unnested
// arrays each, in call order. Each request is counted against the rate limit in the same
// statement (one round trip per batch) and does its work only when allowed.
const STORE = `
WITH ${requestColumns([
  { type: 'text', name: 'nonce' },
  { type: 'text', name: 'pubkey' },
  { type: 'text', name: 'message_hash' },
  { type: 'timestamptz', name: 'issued_at' },
  { type: 'timestamptz', name: 'expires_at' },
])},${COUNT_REQUESTS},
stored AS (
  INSERT INTO auth_nonces (nonce, pubkey, message_hash, issued_at, expires_at)
  SELECT nonce, pubkey, message_hash, issued_at, expires_at FROM counted WHERE allowed
)
SELECT n FROM counted ORDER BY ord`;

// Of several requests for one nonce, the first within the limit claims it. The rows are
// locked in nonce order and consumed only if still unconsumed (checked again on the locked
// row): of any number of concurrent callers, in one batch or several, exactly one gets it.
const CONSUME = `
WITH ${requestColumns([{ type: 'text', name: 'nonce' }])},${COUNT_REQUESTS},
claimed AS (
  SELECT DISTINCT ON (nonce) nonce, ord, at AS now FROM counted WHERE allowed ORDER BY nonce, ord
),
locked AS (
  SELECT an.nonce FROM auth_nonces an JOIN claimed USING (nonce) WHERE an.consumed_at IS NULL ORDER BY an.nonce FOR UPDATE OF an
),
consumed AS (
  UPDATE auth_nonces an SET consumed_at = claimed.now FROM claimed
  WHERE an.nonce = claimed.nonce AND an.nonce IN (SELECT nonce FROM locked) AND an.consumed_at IS NULL
  RETURNING claimed.ord, an.nonce, an.pubkey, an.message_hash, an.expires_at
)
SELECT counted.n, consumed.nonce, consumed.pubkey, consumed.message_hash, consumed.expires_at
FROM counted LEFT JOIN consumed ON consumed.ord = counted.ord ORDER BY counted.ord`;

interface NonceToStore {
  counter: RequestCounter;
  nonce: string;
  pubkey: string;
  messageHash: string;
  issuedAt: Date;
  expiresAt: Date;
}

// Batched (lib/db/batch.ts): it earns its place measured side by side against the same build
// without it (bench/results/2026-11-26.md, "batchers": POST /v1/auth/challenge).
const storeBatcher = perHandle((db: Db) =>
  createBatcher(async (items: NonceToStore[]) => {
    const rows = await executePrepared<{ n: number }>(db, 'store_nonces', STORE, [
      ...counterColumns(items.map((i) => i.counter)),
      items.map((i) => i.nonce),
      items.map((i) => i.pubkey),
      items.map((i) => i.messageHash),
      items.map((i) => i.issuedAt.toISOString()),
      items.map((i) => i.expiresAt.toISOString()),
    ]);
    return rows.map((r) => Number(r.n));
  }),
);

interface NonceToConsume {
  /** Its `at` is the time of consumption. */
  counter: RequestCounter;
  nonce: string;
}

type ConsumedRow = {
  n: number | string;
  nonce: string | null;
  pubkey: string;
  message_hash: string;
  expires_at: string | Date;
};

// Batched: POST /v1/auth/verify serves more with it (bench/results/figures-once-in-comments.md).
const consumeBatcher = perHandle((db: Db) =>
  createBatcher((items: NonceToConsume[]) =>
    executePrepared<ConsumedRow>(db, 'consume_nonces', CONSUME, [
      ...counterColumns(items.map((i) => i.counter)),
      items.map((i) => i.nonce),
    ]),
  ),
);

/**
 * Stores a challenge's nonce with the hash of its exact message. The request is counted
 * against the rate limit in the same statement; over the limit nothing is stored.
 */
export async function storeNonce(
  db: Db,
  n: { nonce: string; pubkey: string; message: string; issuedAt: Date; expiresAt: Date },
  counter: RequestCounter,
): Promise<void> {
  const { message, ...rest } = n;
  counter.settle(await storeBatcher(db)({ ...rest, messageHash: sha256Hex(message), counter }));
}

/**
 * Consumes a nonce in one atomic statement (SPEC 3.2): of any number of concurrent callers,
 * exactly one gets the row; everyone else, and every later caller, gets null. The request is
 * counted against the rate limit in the same statement; over the limit nothing is consumed.
 */
export async function consumeNonce(db: Db, nonce: string, counter: RequestCounter): Promise<StoredNonce | null> {
  const row = await consumeBatcher(db)({ nonce, counter });
  counter.settle(Number(row.n));
  if (!row.nonce) return null;
  return { nonce: row.nonce, pubkey: row.pubkey, messageHash: row.message_hash, expiresAt: new Date(row.expires_at) };
}

/** Deletes challenges that expired over an hour ago (run by the cron job). */
export async function pruneNonces(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 60 * 60 * 1000);
  const rows = await db
    .delete(authNonces)
    .where(lt(authNonces.expiresAt, cutoff))
    .returning({ nonce: authNonces.nonce });
  return rows.length;
}
