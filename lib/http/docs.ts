import { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { TagPathParam } from '@/lib/features/identity/schemas';
import { PUBLIC_READ_CACHE_CONTROL } from './cors';
import { parseWith } from './parse';

/*
 * What several /v1 operations' docs share (lib/http/openapi.ts builds the document from them).
 * Types only from zod-openapi: a route loads these with its handler, the document builder
 * is loaded only by GET /v1/openapi.json. A header is declared once and the document refers
 * to it (`components.headers`) wherever an answer carries it.
 */

/** A response header, written once in the document's `components.headers`. */
export const header = (name: string, description: string, example?: string) =>
  z.string().meta({ description, ...(example ? { example } : {}), header: { id: name } });

/** On every answer of a rate-limited operation (lib/http/handler.ts `withRateLimit`); the document adds them itself. */
export const RateLimitHeaders = z.object({
  'RateLimit-Limit': header('RateLimit-Limit', 'Requests allowed in the window'),
  'RateLimit-Remaining': header('RateLimit-Remaining', 'Requests left in the current window'),
  'RateLimit-Reset': header('RateLimit-Reset', 'Seconds until the window resets'),
  'RateLimit-Policy': header('RateLimit-Policy', 'The policy, e.g. `30;w=60`'),
});

/** A 429's, and an answer's that says when to call again. */
export const RetryAfterHeader = z.object({ 'Retry-After': header('Retry-After', 'Seconds to wait') });

export const PublicReadHeaders = z.object({
  'Cache-Control': header('Cache-Control', 'Cacheable by shared caches for a short time', PUBLIC_READ_CACHE_CONTROL),
  'Access-Control-Allow-Origin': header('Access-Control-Allow-Origin', 'Any origin may read it', '*'),
  'X-Indexed-Slot': header(
    'X-Indexed-Slot',
    'The slot the answer reflects: every transaction of the program up to it is mirrored (docs/integrators.md, "Freshness: X-Indexed-Slot")',
    '312345678',
  ),
});

/** A public read with an ETag (lib/http/conditional.ts); its 304 carries the same headers and no body. */
const ConditionalReadHeaders = PublicReadHeaders.extend({
  ETag: header('ETag', 'Validator of this exact answer; send it back as If-None-Match', '"3q2-7w_yQ1mJp9Xh0s6a1g"'),
});

/** The 304 of a conditional read, one shared response: no body, the same ETag and Cache-Control. */
const NOT_MODIFIED: ZodOpenApiResponseObject = {
  id: 'NotModified',
  description: 'Not modified: If-None-Match named the current ETag. No body.',
  headers: ConditionalReadHeaders,
};

/** The If-None-Match request header of a conditional read. */
const ifNoneMatch = z.object({
  'if-none-match': z
    .string()
    .optional()
    .meta({ description: 'ETags of answers the client holds; a match gives 304 with no body' }),
});

/** A JSON answer: what it means, its schema, its headers. */
export function ok(description: string, schema: z.ZodType, headers?: z.ZodObject): ZodOpenApiResponseObject {
  return { description, content: { 'application/json': { schema } }, ...(headers ? { headers } : {}) };
}

/** The `{tag}` path parameter. */
export const tagPath = { path: z.object({ tag: TagPathParam }) };

export const MISSING_OR_BLOCKED = 'No such tag (missing or blocked)';
/** A heavy operation's 503 (lib/http/heavy-work.ts): the database is unreachable, or the instance sheds load (`overloaded`). */
export const OVERLOADED_OR_UNAVAILABLE =
  'Briefly unavailable (database unreachable), or `overloaded`: this instance is at its bound of heavy work; retry after Retry-After';
export const BRIEFLY_UNREACHABLE = 'The cluster or the database is briefly unreachable';
export const ANOTHER_KEYS_TAG = 'The tag belongs to another public key';

/**
 * The docs of a public cacheable read (lib/http/conditional.ts): one path parameter and
 * If-None-Match, the answer with its ETag, or 304; `cases` says what a malformed and an
 * unknown parameter mean.
 */
function conditionalReadDocs(
  path: z.ZodObject,
  answer: string,
  schema: z.ZodType,
  cases: { 400: string; 404: string },
) {
  return {
    requestParams: { path, header: ifNoneMatch },
    responses: {
      200: ok(answer, schema, ConditionalReadHeaders),
      304: NOT_MODIFIED,
    },
    errors: cases,
  };
}

/** A conditional read whose one path parameter `path` both documents and parses (400 when malformed). */
export function conditionalPathRead<P extends z.ZodObject>(
  path: P,
  answer: string,
  schema: z.ZodType,
  cases: { 400: string; 404: string },
) {
  return {
    ...conditionalReadDocs(path, answer, schema, cases),
    params: (raw: Record<string, string>) => parseWith(path, raw),
  };
}

/** The docs of a conditional read of one tag: a missing and a blocked tag give the same 404. */
export function tagReadDocs(answer: string, schema: z.ZodType) {
  return conditionalReadDocs(tagPath.path, answer, schema, { 400: 'Malformed tag', 404: MISSING_OR_BLOCKED });
}
