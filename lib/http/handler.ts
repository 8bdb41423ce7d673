import type { RequestCounter } from '@/lib/features/auth/rate-limit';
import { verifySessionToken, type SessionTokenKeys } from '@/lib/features/auth/session-token';
import { AppError, toAppError } from '@/lib/core/errors';
import { errorResponse } from '@/lib/http/error-response';
import { observeRequest } from '@/lib/observability/observe-request';
import { callerRateLimitTicket, rateLimitTicket, type CallerRateLimitBucket, type RateLimitBucket } from './rate-limit';
import { getServices, type Services, type ServicesProvider } from './services';

/** What Next.js passes a route handler: the dynamic segments, as a Promise (Next 15+). */
export interface RouteContext<P = Record<string, string>> {
  params: Promise<P>;
}

/** What a handler inside withApi gets: the segments resolved, and the process's services. */
export interface ApiContext<P = Record<string, string>> {
  params: P;
  services: Services;
}

export type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

/**
 * Errors → the one envelope (lib/http/error-response.ts, the only place that answers an error);
 * the outermost wrapper of every /v1 handler. Resolves the route's params, so handlers take
 * plain values: `withApi<{ tag: string }>(async (req, { params: { tag } }) => …)`. Each
 * request is observed here (lib/observability/observe-request.ts: request id, metrics, its
 * log line), its error answer included.
 */
export function withApi<P = Record<string, string>>(
  handler: Handler<ApiContext<P>>,
  /** The route's path as metrics and logs name it (v1Route passes its declared path); else looked up from the URL. */
  route?: string,
  /** Where the handler's services come from: the process's own in production, a test's own in-process. */
  provide: ServicesProvider = getServices,
): Handler<RouteContext<P>> {
  return (req: Request, ctx: RouteContext<P>) =>
    observeRequest(req, route, async () => {
      try {
        const [services, params] = await Promise.all([provide(), ctx?.params ?? ({} as P)]);
        return await handler(req, { params, services });
      } catch (err) {
        return errorResponse(err);
      }
    });
}

/** `Authorization: Bearer <session JWT>` → the caller's public key; 401 otherwise. */
export async function bearerCaller(req: Request, tokenKeys: SessionTokenKeys): Promise<string> {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/.exec(req.headers.get('authorization') ?? '');
  const caller = match ? await verifySessionToken(tokenKeys, match[1], new Date()) : null;
  if (!caller)
    throw new AppError('unauthorized', 'A valid session token is required.', {
      'WWW-Authenticate': 'Bearer realm="v1"',
    });
  return caller;
}

/**
 * The bucket's rate limit (lib/http/rate-limit.ts), keyed by the client address. Over the
 * limit: 429 with Retry-After; every answer carries the RateLimit-* headers.
 *
 * By default the request is counted before the handler runs. With `fused`, the handler gets
 * `countRequest` to count inside its own statement (one round trip, e.g. storing a nonce); a
 * fused handler that ends without using it (bad input) is counted afterwards, so every
 * request counts whatever its outcome.
 */
export function withRateLimit<C extends { services: Services }>(
  bucket: RateLimitBucket,
  handler: Handler<C & { countRequest: RequestCounter }>,
  options: { fused?: boolean } = {},
): Handler<C> {
  return async (req: Request, ctx: C) => {
    const { authDb } = ctx.services;
    const ticket = rateLimitTicket(ctx.services, bucket, req.headers, new Date());
    if (!options.fused) await ticket.count(authDb);
    let response: Response;
    try {
      response = await handler(req, { ...ctx, countRequest: ticket });
    } catch (err) {
      // withApi answers the error; the request still counts and its answer carries the headers
      if (!ticket.counted) await ticket.count(authDb);
      throw toAppError(err).withHeaders(ticket.headers());
    }
    await ticket.count(authDb);
    return withTighterLimitHeaders(response, ticket.headers());
  };
}

/**
 * The bucket's per-caller rate limit (lib/http/rate-limit.ts), once the caller is known:
 * counted before `next` runs, beside the per-address one of withRateLimit. Over the limit:
 * 429 with Retry-After; `next`'s answer, or its error, carries the RateLimit-* headers.
 */
export async function withCallerRateLimit(
  services: Services,
  bucket: CallerRateLimitBucket,
  caller: string,
  next: () => Promise<Response>,
): Promise<Response> {
  const ticket = callerRateLimitTicket(services, bucket, caller, new Date());
  await ticket.count(services.authDb);
  try {
    return withTighterLimitHeaders(await next(), ticket.headers());
  } catch (err) {
    throw toAppError(err).withHeaders(ticket.headers());
  }
}

/** A response's RateLimit-* headers: those of the limit with the fewer requests left win. */
function withTighterLimitHeaders(response: Response, headers: Record<string, string>): Response {
  const present = response.headers.get('RateLimit-Remaining');
  if (present !== null && Number(present) <= Number(headers['RateLimit-Remaining'])) return response;
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, {
    ...init,
    headers: { 'Cache-Control': 'no-store', ...(init.headers as Record<string, string> | undefined) },
  });
}
