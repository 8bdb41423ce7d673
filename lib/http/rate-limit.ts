import {
  countRequest,
  pruneRateLimits,
  rateLimitResult,
  type RateLimitPolicy,
  type RateLimitResult,
  type RequestCounter,
} from '@/lib/features/auth/rate-limit';
import type { Config } from '@/lib/core/config';
import type { CallerRateLimitBucket, RateLimitBucket, RateLimitBucketName } from '@/lib/core/rate-limit-buckets';
import type { Db } from '@/lib/db';
import { clientAddress, rateLimitSubject } from './client-address';
import { AppError } from '@/lib/core/errors';
import { logger } from '@/lib/observability/logger';

export type { CallerRateLimitBucket, RateLimitBucket } from '@/lib/core/rate-limit-buckets';

function policyOf(config: Config, bucket: RateLimitBucketName): RateLimitPolicy {
  return config.rateLimits[bucket];
}

/**
 * One request's place in the rate limit: the counter its domain statement counts it with
 * (`settle` throws 429 over the limit), the result once counted, and the headers to answer.
 */
class RateLimitTicket implements RequestCounter {
  result: RateLimitResult | undefined;

  constructor(
    readonly key: string,
    readonly at: Date,
    readonly policy: RateLimitPolicy,
  ) {}

  settle(count: number): void {
    this.result = rateLimitResult(count, this.policy);
    if (!this.result.allowed) throw rateLimited(this.result, this.policy);
  }

  get counted(): boolean {
    return this.result !== undefined;
  }

  /** Counts the request on its own statement unless a domain statement already did; 429 over the limit. */
  async count(db: Db): Promise<void> {
    if (!this.counted) await countRequest(db, this);
  }

  /** RateLimit-* headers once counted (none before). */
  headers(): Record<string, string> {
    return this.result ? rateLimitHeaders(this.result, this.policy) : {};
  }
}

/**
 * The one rate-limit entry point, for /v1 (withRateLimit), next-auth's sign-in and the
 * server actions (withAction), with a bucket of lib/core/rate-limit-buckets.ts: the key is the bucket and the client address the deployment
 * vouches for (lib/http/client-address.ts), an IPv6 one by its /64. Nothing is counted yet: pass the ticket to a domain
 * function that counts in its own statement, or call `count`. Throws when the client address
 * cannot be determined (fail closed).
 */
export function rateLimitTicket(
  services: { config: Config; authDb: Db },
  bucket: RateLimitBucket,
  headers: Headers,
  now: Date,
): RateLimitTicket {
  const key = `${bucket}:${rateLimitSubject(clientAddress(headers, services.config.clientAddress))}`;
  pruneNowAndThen(services.authDb, now);
  return new RateLimitTicket(key, now, policyOf(services.config, bucket));
}

/**
 * The same entry point keyed by the authenticated caller's public key instead of the client
 * address (`caller` comes from a verified session, never from the request).
 */
export function callerRateLimitTicket(
  services: { config: Config; authDb: Db },
  bucket: CallerRateLimitBucket,
  caller: string,
  now: Date,
): RateLimitTicket {
  pruneNowAndThen(services.authDb, now);
  return new RateLimitTicket(`${bucket}:${caller}`, now, policyOf(services.config, bucket));
}

function rateLimitHeaders(result: RateLimitResult, policy: RateLimitPolicy): Record<string, string> {
  return {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(result.resetSeconds),
    'RateLimit-Policy': `${policy.limit};w=${policy.windowSeconds}`,
  };
}

function rateLimited(result: RateLimitResult, policy: RateLimitPolicy): AppError {
  return new AppError('rate_limited', 'Too many requests; try again later.', {
    ...rateLimitHeaders(result, policy),
    'Retry-After': String(result.retryAfterSeconds),
  });
}

/**
 * Rows whose bucket is full again are deleted by the cron job, and, so that they go within a
 * window of expiring wherever the cron runs rarely (Vercel Hobby: daily), by any process
 * counting requests, at most once per PRUNE_EVERY_MS, off the request's path.
 */
const PRUNE_EVERY_MS = 30_000;
// On globalThis under a global symbol, not in module state: Next.js bundles this module into
// several chunks (routes, server actions, next-auth), each with its own module state, and the
// interval is the process's (as the database handle is, lib/db/client.ts).
const LAST_PRUNE = Symbol.for('identity-tag-service.rate-limit-last-prune');
const pruneClock = globalThis as unknown as Record<typeof LAST_PRUNE, number | undefined>;

function pruneNowAndThen(db: Db, now: Date): void {
  if (now.getTime() - (pruneClock[LAST_PRUNE] ?? 0) < PRUNE_EVERY_MS) return;
  pruneClock[LAST_PRUNE] = now.getTime();
  pruneRateLimits(db, now).catch((err) => logger.warn({ err }, 'rate limit: prune failed'));
}
