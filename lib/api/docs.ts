import { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { TagPathParam } from '@/lib/identity/schemas';
import { ERROR_STATUS, type ErrorCode } from '@/lib/errors';
import { REVERSE_NOT_FOUND_REASONS } from '@/lib/integrations/reverse-reasons';
import { PUBLIC_READ_CACHE_CONTROL } from './cors';
import type { ErrorStatus } from './v1-route';

/*
 * What several /v1 operations' docs share (lib/api/openapi.ts builds the document from them).
 * Types only from zod-openapi: a route loads these with its handler, the document builder
 * is loaded only by GET /v1/openapi.json.
 */

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The one error envelope (DESIGN.md "Errors"), every non-2xx answer of /v1. */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).meta({ description: 'Stable machine-readable code; each maps to one HTTP status' }),
      message: z.string().meta({ description: 'Human-readable explanation; may change' }),
      reason: z
        .enum(REVERSE_NOT_FOUND_REASONS)
        .optional()
        .meta({ description: 'GET /v1/reverse/{address}’s 404 only: why no tag answers (README "Reverse lookup: why a 404")' }),
      tag: z.string().optional().meta({ description: '`lookalike` only: the verified or merchant tag the refused tag looks like', example: '@alice' }),
    }),
  })
  .meta({
    id: 'Error',
    description: 'The error envelope of every /v1 failure',
    example: { error: { code: 'not_found', message: 'No identity with this tag.' } },
  });

export const RateLimitHeaders = z.object({
  'RateLimit-Limit': z.string().meta({ description: 'Requests allowed in the window' }),
  'RateLimit-Remaining': z.string().meta({ description: 'Requests left in the current window' }),
  'RateLimit-Reset': z.string().meta({ description: 'Seconds until the window resets' }),
  'RateLimit-Policy': z.string().meta({ description: 'The policy, e.g. `30;w=60`' }),
});

export const PublicReadHeaders = z.object({
  'Cache-Control': z.string().meta({ description: 'Cacheable by shared caches for a short time', example: PUBLIC_READ_CACHE_CONTROL }),
  'Access-Control-Allow-Origin': z.string().meta({ example: '*' }),
  'X-Indexed-Slot': z.string().meta({
    description: 'The slot the answer reflects: every transaction of the program up to it is mirrored (README "Freshness: X-Indexed-Slot")',
    example: '312345678',
  }),
});

/** A public read with an ETag (lib/api/conditional.ts). */
const ConditionalReadHeaders = PublicReadHeaders.extend({
  ETag: z.string().meta({ description: 'Validator of this exact answer; send it back as If-None-Match', example: '"3q2-7w_yQ1mJp9Xh0s6a1g"' }),
});

/** The 304 of a conditional read: no body, the same ETag and Cache-Control. */
const NOT_MODIFIED: ZodOpenApiResponseObject = {
  description: 'Not modified: If-None-Match named the current ETag. No body.',
  headers: ConditionalReadHeaders,
};

/** The If-None-Match request header of a conditional read. */
const ifNoneMatch = z.object({
  'if-none-match': z.string().optional().meta({ description: 'ETags of answers the client holds; a match gives 304 with no body' }),
});

/** The error answers of one operation, each with what it means there. */
export function errors(cases: Partial<Record<number, string>>): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, description] of Object.entries(cases)) {
    const response: ZodOpenApiResponseObject = {
      description,
      content: { 'application/json': { schema: ErrorEnvelope } },
    };
    if (status === '401') {
      response.headers = z.object({ 'WWW-Authenticate': z.string().meta({ example: 'Bearer realm="v1"' }) });
    }
    if (status === '429') {
      response.headers = RateLimitHeaders.extend({ 'Retry-After': z.string().meta({ description: 'Seconds to wait' }) });
    }
    if (status === '503') {
      response.headers = z.object({ 'Retry-After': z.string().optional().meta({ description: 'Seconds to wait, when known' }) });
    }
    responses[status as `${ErrorStatus}`] = response;
  }
  return responses;
}

/** A JSON answer: what it means, its schema, its headers. */
export function ok(description: string, schema: z.ZodType, headers?: z.ZodObject): ZodOpenApiResponseObject {
  return { description, content: { 'application/json': { schema } }, ...(headers ? { headers } : {}) };
}

/** The `{tag}` path parameter. */
export const tagPath = { path: z.object({ tag: TagPathParam }) };

export const MISSING_OR_BLOCKED = 'No such tag (missing or blocked)';
export const BRIEFLY_UNREACHABLE = 'The cluster or the database is briefly unreachable';

/**
 * The docs of a public cacheable read (lib/api/conditional.ts): one path parameter and
 * If-None-Match, the answer with its ETag, or 304; `cases` says what a malformed and an
 * unknown parameter mean.
 */
export function conditionalReadDocs(path: z.ZodObject, answer: string, schema: z.ZodType, cases: { 400: string; 404: string }) {
  return {
    requestParams: { path, header: ifNoneMatch },
    responses: { 200: ok(answer, schema, ConditionalReadHeaders), 304: NOT_MODIFIED },
    errors: cases,
  };
}

/** The docs of a conditional read of one tag: a missing and a blocked tag give the same 404. */
export function tagReadDocs(answer: string, schema: z.ZodType) {
  return conditionalReadDocs(tagPath.path, answer, schema, { 400: 'Malformed tag', 404: MISSING_OR_BLOCKED });
}

/** The 200 of the transaction builders (register, lifecycle): rate-limited, never signed by the service. */
export function unsignedTransaction(schema: z.ZodType): ZodOpenApiResponsesObject {
  return { 200: ok('The unsigned transaction to sign and submit', schema, RateLimitHeaders) };
}
