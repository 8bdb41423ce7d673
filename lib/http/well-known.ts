import 'server-only';
import { indexedSlotHeaders } from './indexed-slot';
import { conditionalText } from './conditional';
import { corsPreflight, PUBLIC_READ_CACHE_CONTROL, withCors } from './cors';
import type { Handler, RouteContext } from './handler';
import { otherMethods } from './other-methods';

/*
 * The two doors at /.well-known (DESIGN.md "Reach beyond Solana clients"): WebFinger (RFC 7033)
 * and NIP-05. Public reads like /v1/resolve: the same mirror read, an ETag, the same short shared
 * cache, CORS open to any origin (both protocols ask for it), errors in the one envelope. Never a
 * redirect: NIP-05 forbids one, and a WebFinger client must not be sent elsewhere.
 */

/** A public read's answer: ETag (or 304), the short shared cache, the slot it reflects. */
export function publicRead(req: Request, body: unknown, contentType: string, indexedSlot: string): Response {
  return conditionalText(req, JSON.stringify(body), contentType, {
    cacheControl: PUBLIC_READ_CACHE_CONTROL,
    headers: indexedSlotHeaders(indexedSlot),
  });
}

/** A GET-only route's methods: GET and HEAD with CORS, a CORS preflight, 405 for the rest. */
export function getOnly(route: string, GET: Handler<RouteContext>) {
  const preflight = corsPreflight(['GET']);
  return { GET: withCors(GET), HEAD: withCors(GET), ...otherMethods(route, ['GET']), OPTIONS: async () => preflight() };
}
