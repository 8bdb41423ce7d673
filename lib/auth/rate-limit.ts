import { lt, sql } from 'drizzle-orm';
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
 * Counts one request against `key` in a fixed window kept in PostgreSQL, one atomic upsert,
 * so every server process shares the count (SPEC 8).
 */
export async function hitRateLimit(db: Db, key: string, policy: RateLimitPolicy, now: Date): Promise<RateLimitResult> {
  const windowMs = policy.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({ count: rateLimits.count });
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return {
    allowed: row.count <= policy.limit,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - row.count),
    resetSeconds,
  };
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
