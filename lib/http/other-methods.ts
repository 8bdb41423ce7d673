import { AppError } from '@/lib/core/errors';
import { observeRequest } from '@/lib/observability/observe-request';
import { allowOf, HTTP_METHODS } from './cors';
import { errorResponse } from './error-response';

type HttpMethod = (typeof HTTP_METHODS)[number];
type MethodHandler = (req: Request) => Promise<Response>;

/** 405 `method_not_allowed` in the envelope, with `Allow`. */
export function methodNotAllowed(method: string, allow: string): Response {
  return errorResponse(
    new AppError('method_not_allowed', `${method} is not allowed here; allowed: ${allow}.`, { Allow: allow }),
  );
}

/**
 * The methods an /api route does not serve, observed under `route` like the ones it does
 * (Next.js answers them itself otherwise, unobserved, its 405 without a body): OPTIONS
 * answers 204 with `Allow`, every other one 405 in the envelope with `Allow`.
 *
 *   export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('/api/health', ['GET']);
 */
export function otherMethods<const S extends HttpMethod>(
  route: string,
  served: readonly S[],
): Record<Exclude<HttpMethod, S | 'HEAD'>, MethodHandler> {
  const allow = allowOf([...served, 'OPTIONS']);
  const handlers: Partial<Record<HttpMethod, MethodHandler>> = {};
  for (const method of HTTP_METHODS) {
    if (method === 'HEAD' || (served as readonly HttpMethod[]).includes(method)) continue;
    handlers[method] =
      method === 'OPTIONS'
        ? (req) =>
            observeRequest(req, route, async () => new Response(null, { status: 204, headers: { Allow: allow } }))
        : (req) => observeRequest(req, route, async () => methodNotAllowed(req.method, allow));
  }
  return handlers as Record<Exclude<HttpMethod, S | 'HEAD'>, MethodHandler>;
}
