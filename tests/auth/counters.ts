import { randomBytes } from 'node:crypto';
import type { RateLimitPolicy, RequestCounter } from '@/lib/features/auth/rate-limit';

/** A generous policy: tests that do not test the limit never reach it. */
export const ROOMY_POLICY: RateLimitPolicy = { limit: 1_000_000, windowSeconds: 60 };

/**
 * A real rate-limit counter for calling the sign-in functions directly, as the routes do:
 * its own key (unless given), counted in the same statements, its counts recorded in `counts`
 * (settle never throws here, so a test sees what the statement decided).
 */
export function testCounter(
  o: { key?: string; policy?: RateLimitPolicy; at?: Date; counts?: number[] } = {},
): RequestCounter {
  return {
    key: o.key ?? `test:${randomBytes(8).toString('hex')}`,
    at: o.at ?? new Date(),
    policy: o.policy ?? ROOMY_POLICY,
    settle: (n) => void o.counts?.push(n),
  };
}
