import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import type { Handler } from './handler';
import type { Services } from './services';

/**
 * Whether `authorization` is `Bearer <secret>` (what Vercel cron sends with CRON_SECRET), compared
 * in constant time: both sides are hashed to equal-length digests first, so neither the content
 * nor the length of the secret leaks through timing. Fails closed: no secret configured means no caller.
 */
export function hasBearerSecret(authorization: string | null, secret: string | undefined): boolean {
  if (!secret || !authorization) return false;
  const expected = createHash('sha256').update(`Bearer ${secret}`, 'utf8').digest();
  const given = createHash('sha256').update(authorization, 'utf8').digest();
  return timingSafeEqual(expected, given);
}

/** The cron routes' wrapper: 401 unless the request carries the cron secret. */
export function withCron<C extends { services: Services }>(handler: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    if (!hasBearerSecret(req.headers.get('authorization'), ctx.services.config.cronSecret)) {
      throw new AppError('unauthorized', 'This route is for the scheduler only.', {
        'WWW-Authenticate': 'Bearer realm="cron"',
      });
    }
    return handler(req, ctx);
  };
}
