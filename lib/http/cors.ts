import type { Handler } from './handler';

/*
 * CORS for /v1 (DESIGN.md "Identity"). The API authenticates with a bearer token, never a
 * cookie, so any origin may call it: `*` without credentials leaks nothing a plain server-side
 * request could not get. Preflights allow the request headers clients send (If-None-Match for
 * conditional reads), and ETag is readable.
 */

/** Response headers browsers may read from another origin (rate limits, auth challenge, the id to quote in a report). */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
  'ETag',
  'X-Indexed-Slot',
  'X-Request-Id',
].join(', ');

/**
 * Public reads (GET /v1/identity, /v1/resolve): a CDN may serve them for 30 s and
 * revalidate in the background for 60 s more; browsers always revalidate. A block or a
 * profile edit is therefore visible everywhere within about 90 s. Errors (400, 404) are
 * `no-store`, so a tag that has just landed is never hidden behind a cached 404.
 */
export const PUBLIC_READ_CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
};

/** Sets the CORS headers on a /v1 answer (withCors, v1Route's 405, the 404, proxy.ts's 400). */
export function setCorsHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  return response;
}

/** Adds the CORS headers to every answer of the handler, errors included. */
export function withCors<C>(handler: Handler<C>): Handler<C> {
  return async (req: Request, ctx: C) => setCorsHeaders(await handler(req, ctx));
}

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The `Allow` of a route serving `methods`: HEAD wherever GET is (Next.js answers HEAD with
 * GET's handler), in one order, so a preflight and a 405 of one route list the same methods.
 */
export function allowOf(methods: readonly string[]): string {
  const served = new Set(methods);
  if (served.has('GET')) served.add('HEAD');
  return HTTP_METHODS.filter((m) => served.has(m)).join(', ');
}

/** The OPTIONS handler of a /v1 route: answers the preflight for `methods`. */
export function corsPreflight(methods: readonly string[]): () => Response {
  const allow = allowOf([...methods, 'OPTIONS']);
  return () =>
    new Response(null, {
      status: 204,
      headers: {
        ...CORS_HEADERS,
        'Access-Control-Allow-Methods': allow,
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-None-Match',
        'Access-Control-Max-Age': '86400',
        Allow: allow,
        'Cache-Control': 'public, max-age=86400',
      },
    });
}
