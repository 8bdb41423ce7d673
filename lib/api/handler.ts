import {
  clientAddress,
  hitRateLimit,
  rateLimitResult,
  windowStartOf,
  type RateLimitPolicy,
  type RateLimitResult,
  type RequestCounter,
} from '@/lib/auth/rate-limit';
import { verifySessionToken } from '@/lib/auth/session-token';
import { AppError, errorResponse } from './errors';
import { getServices, type Services } from './services';

/** What Next.js passes a route handler: the dynamic segments, as a Promise (Next 15+). */
export interface RouteContext {
  params: Promise<Record<string, string>>;
}

export type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

/** Errors → the one envelope; the outermost wrapper of every /v1 handler. */
export function withApi<C = RouteContext>(handler: Handler<C & { services: Services }>): Handler<C> {
  return async (req, ctx) => {
    try {
      const services = await getServices();
      return await handler(req, { ...ctx, services });
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** `Authorization: Bearer <session JWT>` → the caller's public key; 401 otherwise. */
export function withBearer<C extends { services: Services }>(
  handler: Handler<C & { caller: string }>,
): Handler<C> {
  return async (req, ctx) => {
    const header = req.headers.get('authorization') ?? '';
    const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/.exec(header);
    const caller = match ? await verifySessionToken(ctx.services.tokenKeys, match[1], new Date()) : null;
    if (!caller) {
      throw new AppError('unauthorized', 'A valid session token is required.', {
        'WWW-Authenticate': 'Bearer realm="v1"',
      });
    }
    return handler(req, { ...ctx, caller });
  };
}

/**
 * One rate-limit policy per bucket, keyed by client address, counted in PostgreSQL.
 * Over the limit: 429 with Retry-After; every answer carries the RateLimit-* headers.
 *
 * By default the request is counted before the handler runs. With `fused`, the handler gets
 * `countRequest` to count inside its own statement (one round trip, e.g. storing a nonce); a
 * fused handler that ends without using it (bad input) is counted afterwards.
 */
export function withRateLimit<C extends { services: Services }>(
  bucket: string,
  policyOf: (services: Services) => RateLimitPolicy,
  handler: Handler<C & { countRequest: RequestCounter }>,
  options: { fused?: boolean } = {},
): Handler<C> {
  return async (req, ctx) => {
    const { db, config } = ctx.services;
    const policy = policyOf(ctx.services);
    const key = `${bucket}:${clientAddress(req.headers, config.trustedProxyHops)}`;
    const now = new Date();
    const windowStart = windowStartOf(policy, now);
    let result: RateLimitResult | undefined;
    const settle = (count: number) => {
      result = rateLimitResult(count, policy, windowStart, now);
      if (!result.allowed) throw rateLimited(result, policy);
    };
    if (!options.fused) {
      result = await hitRateLimit(db, key, policy, now);
      if (!result.allowed) throw rateLimited(result, policy);
    }
    let response: Response;
    try {
      response = await handler(req, { ...ctx, countRequest: { key, windowStart, limit: policy.limit, settle } });
    } catch (err) {
      response = errorResponse(err);
    }
    if (!result) {
      result = await hitRateLimit(db, key, policy, now);
      if (!result.allowed) response = errorResponse(rateLimited(result, policy));
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(result, policy))) response.headers.set(name, value);
    return response;
  };
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
    'Retry-After': String(result.resetSeconds),
  });
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, {
    ...init,
    headers: { 'Cache-Control': 'no-store', ...(init.headers as Record<string, string> | undefined) },
  });
}
