import 'server-only';
import { lt } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { executePrepared } from '@/lib/db/rows';
import { rateLimits } from '@/lib/db/schema';

/**
 * The rate limit (SPEC 8), kept in PostgreSQL so that every server process shares it, as the
 * generic cell rate algorithm (GCRA): `limit` requests at once, then one more every
 * `windowSeconds / limit` seconds. Unlike a fixed window it has no boundary to straddle:
 * 30 requests just before a minute turns and 30 just after are 30 plus the one or two the
 * sustained rate has earned, not 60. A refused request costs nothing, so a client that keeps
 * knocking still gets the sustained rate and no more.
 */
export interface RateLimitPolicy {
  /** Requests allowed at once, and per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the budget is whole again (RateLimit-Reset). */
  resetSeconds: number;
  /** Refused: seconds until one request is allowed (Retry-After). */
  retryAfterSeconds: number;
}

/**
 * One request to count inside a statement headed by COUNT_REQUESTS: its key, its time, the
 * policy, and where its count goes (`settle` throws 429 over the limit). Every counting
 * function takes one as a required argument: there is no "uncounted" request.
 */
export interface RequestCounter {
  key: string;
  at: Date;
  policy: RateLimitPolicy;
  settle(count: number): void;
}

/** Milliseconds between two requests at the sustained rate. */
export function periodMs(policy: RateLimitPolicy): number {
  return (policy.windowSeconds * 1000) / policy.limit;
}

/*
 * Counts a batch of requests, atomically: CTEs for the head of a statement that starts with
 * `req` (one row per request: `key`, `at`, `period_ms`, `lim`, and `ord`, its place in the
 * batch). One upsert per key (in key order, so concurrent batches lock rows in one order)
 * grants the key's requests in call order while the budget lasts:
 *   tat0 = greatest(tat, now); budget = floor(lim - (tat0 - now) / period); granted = least(k, budget);
 *   tat = tat0 + granted * period.
 * ON CONFLICT sees only the table's columns, so the insert carries what the update needs: the
 * batch's time (`seen_at`), the policy, and least(k, lim) as `granted`.
 * `counted.allowed` says whether the request was granted (its place within `granted`), and
 * `counted.n` is its count: the budget in use once it is counted, `(tat0 - now) / period + its
 * place` rounded up for a granted one (at most `lim`), more than `lim` for a refused one.
 */
const BUDGET = (tat0: string) =>
  `greatest(0, floor(excluded.lim - extract(epoch FROM ${tat0} - excluded.seen_at) * 1000 / excluded.period_ms))`;
const ASKED = 'excluded.granted';
const TAT0 = 'greatest(rl.tat, excluded.seen_at)';

export const COUNT_REQUESTS = `
asks AS (
  SELECT key, max(at) AS now, max(period_ms) AS period_ms, max(lim) AS lim, count(*) AS k FROM req GROUP BY key
),
hits AS (
  INSERT INTO rate_limits AS rl (key, tat, seen_at, period_ms, lim, granted)
  SELECT key, now + least(k, lim) * period_ms * interval '1 millisecond', now, period_ms, lim, least(k, lim)
  FROM asks ORDER BY key
  ON CONFLICT (key) DO UPDATE SET
    granted = least(${ASKED}, ${BUDGET(TAT0)}),
    tat = ${TAT0} + least(${ASKED}, ${BUDGET(TAT0)}) * excluded.period_ms * interval '1 millisecond',
    seen_at = excluded.seen_at,
    period_ms = excluded.period_ms,
    lim = excluded.lim
  RETURNING key, tat, seen_at, period_ms, granted
),
placed AS (
  SELECT req.*, row_number() OVER (PARTITION BY req.key ORDER BY req.ord) AS place FROM req
),
debts AS (
  SELECT key, granted, extract(epoch FROM tat - seen_at) * 1000 / period_ms - granted AS debt FROM hits
),
counted AS (
  SELECT placed.*, placed.place <= debts.granted AS allowed,
    CASE WHEN placed.place <= debts.granted
      THEN least(ceil(debts.debt + placed.place - 1e-6), placed.lim)
      ELSE greatest(ceil(debts.debt + debts.granted + 1 - 1e-6), placed.lim + 1)
    END::int AS n
  FROM placed JOIN debts ON debts.key = placed.key
)`;

/** The rate-limit columns of a batch headed by COUNT_REQUESTS: key, at, period_ms, lim. */
export function counterColumns(counters: RequestCounter[]): unknown[] {
  return [
    counters.map((c) => c.key),
    counters.map((c) => c.at.toISOString()),
    counters.map((c) => periodMs(c.policy)),
    counters.map((c) => c.policy.limit),
  ];
}

/** The `req` CTE of COUNT_REQUESTS from the first four parameters, with more columns after. */
export function requestColumns(more: { type: string; name: string }[] = []): string {
  const types = ['text', 'timestamptz', 'float8', 'int', ...more.map((m) => m.type)];
  const names = ['key', 'at', 'period_ms', 'lim', ...more.map((m) => m.name)];
  return `req AS (
  SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) WITH ORDINALITY AS r(${names.join(', ')}, ord)
)`;
}

/**
 * What a request's count (COUNT_REQUESTS' `n`: a whole number, over `limit` exactly when the
 * request was refused) means for the client (RateLimit-* and Retry-After headers).
 */
export function rateLimitResult(count: number, policy: RateLimitPolicy): RateLimitResult {
  const period = periodMs(policy) / 1000;
  const allowed = count <= policy.limit;
  return {
    allowed,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - count),
    resetSeconds: Math.max(1, Math.ceil(Math.min(count, policy.limit) * period)),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((count - policy.limit) * period)),
  };
}

const HIT = `WITH ${requestColumns()},${COUNT_REQUESTS}
SELECT n FROM counted ORDER BY ord`;

/**
 * Counts one request on its own (when no domain statement counts it) and settles the counter.
 * One statement per request: group commit (lib/db/batch.ts) showed no clear gain here, within
 * the noise of side-by-side runs (bench/results/figures-once-in-comments.md).
 */
export async function countRequest(db: Db, counter: RequestCounter): Promise<RateLimitResult> {
  const [row] = await executePrepared<{ n: string | number }>(db, 'count_requests', HIT, counterColumns([counter]));
  const count = Number(row!.n);
  counter.settle(count);
  return rateLimitResult(count, counter.policy);
}

/** Deletes rows whose bucket is full again (`tat` passed): they no longer say anything. */
export async function pruneRateLimits(db: Db, now: Date): Promise<number> {
  const rows = await db.delete(rateLimits).where(lt(rateLimits.tat, now)).returning({ key: rateLimits.key });
  return rows.length;
}
