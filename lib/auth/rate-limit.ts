import { lt, sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '@/lib/db/rows';
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

/**
 * The atomic upsert that counts one request against `key` in a fixed window, as a SQL
 * fragment returning `count`, so a caller can run it alone or fused with its own statement
 * (one round trip for the sign-in endpoints).
 */
export function rateLimitUpsert(key: string, policy: RateLimitPolicy, now: Date): { sql: SQL; windowStart: Date } {
  const windowMs = policy.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  return {
    windowStart,
    sql: sql`INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart.toISOString()}, 1)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
        window_start = excluded.window_start
      RETURNING count`,
  };
}

/**
 * Counting one request inside another statement: the upsert, the limit, and where to report
 * the count (`settle` throws 429 over the limit). `withRateLimit({ fused: true })` hands one
 * to handlers whose domain function can run it in its own statement — one round trip.
 */
export interface RequestCounter {
  upsert: SQL;
  limit: number;
  settle(count: number): void;
}

/** A counter for callers that count nothing (tests, internal calls): always within limit. */
export const UNCOUNTED: RequestCounter = { upsert: sql`SELECT 1 AS count`, limit: 1, settle: () => {} };

export function rateLimitResult(count: number, policy: RateLimitPolicy, windowStart: Date, now: Date): RateLimitResult {
  const resetMs = windowStart.getTime() + policy.windowSeconds * 1000 - now.getTime();
  return {
    allowed: count <= policy.limit,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - count),
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  };
}

/**
 * Counts one request against `key`, kept in PostgreSQL so that every server process shares
 * the count (SPEC 8).
 */
export async function hitRateLimit(db: Db, key: string, policy: RateLimitPolicy, now: Date): Promise<RateLimitResult> {
  const upsert = rateLimitUpsert(key, policy, now);
  const [row] = rowsOf<{ count: number }>(await db.execute(upsert.sql));
  return rateLimitResult(Number(row.count), policy, upsert.windowStart, now);
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
