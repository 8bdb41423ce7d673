import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { TagPathParam } from '@/lib/identity/schemas';
import { ERROR_STATUS, type ErrorCode } from '@/lib/errors';
import { REVERSE_NOT_FOUND_REASONS } from '@/lib/integrations/reverse-reasons';
import { PUBLIC_READ_CACHE_CONTROL } from './cors';
import { IDENTITY_CHANGE_WEBHOOK } from '@/lib/webhooks/webhook-doc';
import { answerableErrors, type AnyV1Operation, type ErrorStatus, type V1RouteDeclaration } from './v1-route';

/*
 * The OpenAPI 3.1 document of /v1, built from the routes' declarations (lib/api/v1-route.ts):
 * each operation's documentation sits in its route file, beside the checks and the handler it
 * describes, and the statuses its declared checks can answer are added here. The pieces below
 * are what several operations' docs share.
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
function errors(cases: Partial<Record<number, string>>): ZodOpenApiResponsesObject {
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

/** A body is required unless leaving it out is accepted: an optional body whose schema takes `{}`. */
function bodyRequired({ optional, schema }: NonNullable<AnyV1Operation['body']>): boolean {
  return !(optional && schema.safeParse({}).success);
}

function toOpenApi(op: AnyV1Operation): ZodOpenApiOperationObject {
  const { operationId, tags, summary, description, requestParams, body, bearer, responses } = op;
  return {
    operationId,
    tags,
    summary,
    ...(description ? { description } : {}),
    ...(requestParams ? { requestParams } : {}),
    ...(body ? { requestBody: { required: bodyRequired(body), content: { 'application/json': { schema: body.schema } } } } : {}),
    // Public operations say so (`[]`): a generator or linter must not guess from absence.
    security: bearer ? [{ bearerAuth: [] }] : [],
    responses: { ...responses, ...errors(answerableErrors(op)) },
  };
}

/** The OpenAPI paths of the routes, each operation with every status it can answer. */
function v1Paths(routes: readonly V1RouteDeclaration[]): ZodOpenApiPathsObject {
  return Object.fromEntries(
    routes.map(({ path, operations }) => [
      path,
      Object.fromEntries(Object.entries(operations).map(([method, op]) => [method.toLowerCase(), toOpenApi(op)])),
    ]),
  );
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The server a client should call: the public origin (APP_URL), or, for an app on a loopback
 * address (local development, tests), `/`: relative to wherever the document was fetched, so
 * a copy of it never points its readers at their own machine.
 */
function documentedServerUrl(origin: string): string {
  return LOOPBACK_HOST.test(new URL(origin).hostname) ? '/' : origin;
}

/**
 * The OpenAPI 3.1 document of `routes` (app/v1/v1-routes.ts) and of the `webhooks` a
 * subscriber receives (OpenAPI 3.1's own section); `serverUrl` is the public origin (APP_URL).
 */
export function createOpenApiDocument(routes: readonly V1RouteDeclaration[], options: { serverUrl?: string } = {}) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Identity Tag Service',
      version: '1.0.0',
      description:
        'Wallet-signature sign-in, tag registration transactions and identity profiles on Solana. ' +
        'Every error is `{ "error": { "code", "message" } }`. Each operation lists every status it can answer; besides ' +
        'those, a method a path does not serve answers 405 with `Allow`, and a /v1 path that names no endpoint answers 404.',
      license: { name: 'Proprietary: all rights reserved by the operator of this deployment', identifier: 'LicenseRef-Proprietary' },
    },
    servers: options.serverUrl ? [{ url: documentedServerUrl(options.serverUrl), description: 'This deployment' }] : undefined,
    tags: [
      { name: 'auth', description: 'Sign in with a wallet signature' },
      { name: 'identity', description: 'Read identities and edit your profile' },
      { name: 'register', description: 'Register a tag on chain' },
      { name: 'lifecycle', description: 'Change the payout wallet, transfer or release a tag (unsigned transactions)' },
      { name: 'integrators', description: 'For wallets and payment apps: primary tag, reverse lookup, batch resolve, change feed' },
      { name: 'webhooks', description: 'The change feed pushed to your URL, signed (Standard Webhooks)' },
      { name: 'meta', description: 'About the API' },
    ],
    paths: v1Paths(routes),
    webhooks: { identityChange: { post: IDENTITY_CHANGE_WEBHOOK } },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The session token from POST /v1/auth/verify',
        },
      },
    },
  });
}
