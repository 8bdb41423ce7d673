import { allowOf, HTTP_METHODS, setCorsHeaders } from './cors';
import { AppError } from '@/lib/errors';
import { errorResponse } from '@/lib/api/error-response';

export { HTTP_METHODS };
type HttpMethod = (typeof HTTP_METHODS)[number];

// Next.js passes each handler the request and the route's context; handlers type their own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHandler = (req: Request, ctx: any) => Response | Promise<Response>;

/**
 * A /v1 route file's exports: its handlers, and for every other method a 405 in the envelope
 * with `Allow` (Next.js answers those with an empty 405 and no `Allow`). HEAD follows GET.
 *
 *   export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: …, OPTIONS: … });
 */
export function routeMethods(handlers: Partial<Record<HttpMethod, AnyHandler>>): Record<HttpMethod, AnyHandler> {
  const own = { ...handlers, ...(handlers.GET && !handlers.HEAD ? { HEAD: handlers.GET } : {}) };
  const allow = allowOf(HTTP_METHODS.filter((m) => own[m]));
  const notAllowed: AnyHandler = (req) =>
    setCorsHeaders(
      errorResponse(new AppError('method_not_allowed', `${req.method} is not allowed here; allowed: ${allow}.`, { Allow: allow })),
    );
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, own[m] ?? notAllowed])) as Record<HttpMethod, AnyHandler>;
}

/** The 404 of a /v1 path that names no route (app/v1/[[...rest]]/route.ts). */
export function unknownPath(): Response {
  return setCorsHeaders(errorResponse(new AppError('not_found', 'There is no such endpoint. See /v1/openapi.json.')));
}
