import { lt } from 'drizzle-orm';
import { executePrepared } from '@/lib/db/rows';
import type { Db } from '@/lib/db';
import { rateLimits } from '@/lib/db/schema';

export interface RateLimitPolicy {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** The start of the fixed window `now` falls in. */
export function windowStartOf(policy: RateLimitPolicy, now: Date): Date {
  const windowMs = policy.windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/**
 * Counts a batch of requests, atomically: CTEs for the head of a statement that starts with
 * `req` (one row per request: `key`, null when not counted; `window_start`; `ord`, its place
 * in the batch). One upsert per key adds that key's requests (keys in sorted order, so
 * concurrent batches lock rows in one order); `counted.n` is each request's own count, its
 * place among them (0 when not counted). A fixed text: prepared once per connection.
 */
export const COUNT_REQUESTS = `
hits AS (
  INSERT INTO rate_limits AS rl (key, window_start, count)
  SELECT key, max(window_start), count(*) FROM req WHERE key IS NOT NULL GROUP BY key ORDER BY key
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rl.window_start = excluded.window_start THEN rl.count + excluded.count ELSE excluded.count END,
    window_start = excluded.window_start
  RETURNING key, count
),
counted AS (
  SELECT req.*, coalesce(hits.count - count(*) OVER (PARTITION BY req.key) + row_number() OVER (PARTITION BY req.key ORDER BY req.ord), 0) AS n
  FROM req LEFT JOIN hits ON hits.key = req.key
)`;

/** The rate-limit columns of a batch headed by COUNT_REQUESTS: key, window start, limit. */
export function counterColumns(counters: RequestCounter[]): unknown[] {
  return [counters.map((c) => c.key), counters.map((c) => c.windowStart.toISOString()), counters.map((c) => c.limit)];
}

/**
 * Counting one request inside another statement: the key and window to count in, the limit,
 * and where to report the count (`settle` throws 429 over the limit).
 * `withRateLimit({ fused: true })` hands one to handlers whose domain statement counts the
 * request itself (the nonce store: one round trip per batch of sign-in requests).
 */
export interface RequestCounter {
  /** Null: not counted (tests, internal calls); always within limit. */
  key: string | null;
  windowStart: Date;
  limit: number;
  settle(count: number): void;
}

export const UNCOUNTED: RequestCounter = { key: null, windowStart: new Date(0), limit: 0, settle: () => {} };

export function rateLimitResult(count: number, policy: RateLimitPolicy, windowStart: Date, now: Date): RateLimitResult {
  const resetMs = windowStart.getTime() + policy.windowSeconds * 1000 - now.getTime();
  return {
    allowed: count <= policy.limit,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - count),
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  };
}

const HIT = `
WITH req AS (SELECT * FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS r(key, window_start, ord)),${COUNT_REQUESTS}
SELECT n FROM counted`;

/**
 * Counts one request against `key`, kept in PostgreSQL so that every server process shares
 * the count (SPEC 8).
 */
export async function hitRateLimit(db: Db, key: string, policy: RateLimitPolicy, now: Date): Promise<RateLimitResult> {
  const windowStart = windowStartOf(policy, now);
  const [row] = await executePrepared<{ n: number }>(db, 'count_request', HIT, [[key], [windowStart.toISOString()]]);
  return rateLimitResult(Number(row.n), policy, windowStart, now);
}

/** Deletes counters of windows long gone (run by the cron job). */
export async function pruneRateLimits(db: Db, now: Date): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 24 * 60 * 60 * 1000)));
}

/**
 * The client address: the entry the trusted proxy appended to `x-forwarded-for`, counted
 * from the right (`hops` = 1 is the right-most), never one the client can choose.
 */
export function clientAddress(headers: Headers, hops: number): string {
  const entries = (headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (hops === 0 || entries.length === 0) return headers.get('x-real-ip')?.trim() || 'unknown';
  return entries[Math.max(0, entries.length - hops)];
}
