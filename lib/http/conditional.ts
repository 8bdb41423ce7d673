import { createHash } from 'node:crypto';
import { PUBLIC_READ_CACHE_CONTROL } from './cors';
import { indexedSlotHeaders } from './indexed-slot';

/*
 * Conditional GETs (DESIGN.md "For integrators"): every public read carries an ETag, the
 * hash of the exact body it sends, and a request whose If-None-Match names it gets a 304 with
 * no body. The ETag is computed from the answer, not stored, so no writer has to remember to
 * change it: a PATCH that changes the answer changes the ETag by construction.
 */

/** A strong validator: the first 16 bytes of the body's SHA-256, base64url, quoted. */
function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * Does an If-None-Match header match `etag`? A list of tags (weak ones compare by their
 * opaque part, as RFC 9110 §13.1.2 asks for If-None-Match) or `*`.
 */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

interface ConditionalOptions {
  /** The Cache-Control of the answer, 200 and 304 alike (e.g. PUBLIC_READ_CACHE_CONTROL). */
  cacheControl: string;
  /** More headers for both answers. */
  headers?: Record<string, string>;
}

/**
 * The answer to a GET: 200 with the JSON body and its ETag, or 304 with no body when the
 * request's If-None-Match already names that ETag. Both carry the ETag and Cache-Control.
 */
export function conditionalJson(req: Request, body: unknown, options: ConditionalOptions): Response {
  return conditionalText(req, JSON.stringify(body), 'application/json', options);
}

/** conditionalJson for a body already written (`text`, sent as `contentType`). */
export function conditionalText(
  req: Request,
  text: string,
  contentType: string,
  { cacheControl, headers = {} }: ConditionalOptions,
): Response {
  const etag = etagOf(text);
  const common = { ...headers, 'Cache-Control': cacheControl, ETag: etag };
  if (ifNoneMatchHits(req.headers.get('if-none-match'), etag))
    return new Response(null, { status: 304, headers: common });
  return new Response(text, { status: 200, headers: { ...common, 'Content-Type': contentType } });
}

/**
 * A public /v1 read (identity, resolve, signals, transfer, reverse): conditional, cacheable by a CDN for
 * a short time, and carrying the slot its data reflects (`X-Indexed-Slot`).
 */
export function publicReadAtSlot(
  req: Request,
  { value, indexedSlot }: { value: unknown; indexedSlot: string },
): Response {
  return conditionalJson(req, value, {
    cacheControl: PUBLIC_READ_CACHE_CONTROL,
    headers: indexedSlotHeaders(indexedSlot),
  });
}
