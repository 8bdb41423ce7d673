import 'server-only';
import { headers } from 'next/headers';
import type { z } from 'zod';
import { toAppError, type ErrorCode } from '@/lib/core/errors';
import { parseWith } from '@/lib/http/parse';
import {
  callerRateLimitTicket,
  rateLimitTicket,
  type CallerRateLimitBucket,
  type RateLimitBucket,
} from '@/lib/http/rate-limit';
import { getServices, type Services } from '@/lib/http/services';
import type { ActionOutcome } from '@/lib/web/browser/action-outcome';
import { requireSessionKey } from './session';

/**
 * What every server action answers. Errors travel as values, in the /v1 envelope's terms: a
 * thrown error reaches a production browser without its message, and the pages need the code
 * to react. (lib/web/browser/action-outcome.ts is the browser's view of the same shape.)
 */
type ActionResult<T> = ActionOutcome<T, ErrorCode>;

export interface ActionContext {
  /** The signed-in public key (next-auth session), never taken from the form. */
  caller: string;
  services: Services;
  now: Date;
}

/**
 * The one wrapper of every server action (next-saas-starter's validatedActionWithUser, with
 * our envelope): the session first (401 without one), then the rate limit of `rateLimit`
 * through the same entry point and bucket as the /v1 route it mirrors (per client address, and
 * per caller key with `callerRateLimit`), then the arguments
 * checked against `args` (400 naming the field), then `body`. Whatever happens, the answer is
 * an ActionResult; unknown errors are logged and become the generic 500, a database outage 503.
 */
export function withAction<S extends z.ZodTuple, T>(
  options: { args: S; rateLimit?: RateLimitBucket; callerRateLimit?: CallerRateLimitBucket },
  body: (args: z.output<S>, ctx: ActionContext) => Promise<T>,
): (...args: z.input<S>) => Promise<ActionResult<T>> {
  return async (...args) => {
    try {
      const caller = await requireSessionKey();
      const services = await getServices();
      const now = new Date();
      if (options.rateLimit)
        await rateLimitTicket(services, options.rateLimit, await headers(), now).count(services.authDb);
      if (options.callerRateLimit)
        await callerRateLimitTicket(services, options.callerRateLimit, caller, now).count(services.authDb);
      const parsed = parseWith(options.args, args, { skipPath: 1 });
      return { ok: true, data: await body(parsed, { caller, services, now }) };
    } catch (err) {
      const { code, message } = toAppError(err);
      return { ok: false, error: { code, message } };
    }
  };
}
