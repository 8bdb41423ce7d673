import type { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import type { RequestCounter } from '@/lib/features/auth/rate-limit';
import { AppError } from '@/lib/core/errors';
import { observeRequest } from '@/lib/observability/observe-request';
import { errorResponse } from './error-response';
import { heavyClient, noteHeavyRequest, shedWhileBusy } from './heavy-work';
import type { HeavyKind } from './heavy-requests';
import {
  bearerCaller,
  json,
  withApi,
  withCallerRateLimit,
  withRateLimit,
  type ApiContext,
  type Handler,
  type RouteContext,
} from './handler';
import { allowOf, corsPreflight, HTTP_METHODS, withCors, setCorsHeaders } from './cors';
import { methodNotAllowed } from './other-methods';
import { parseWith, queryOf } from './parse';
import type { CallerRateLimitBucket, RateLimitBucket } from './rate-limit';
import { readJson } from './read-json';
import { getServices, type Services, type ServicesProvider } from './services';

/*
 * A /v1 route declares what it is once: per method, one `V1Operation` object holding its auth,
 * rate-limit bucket, body schema, answers and documentation. `v1Route` enforces it (below, in
 * `enforce`, the one place the order of checks is written) and the OpenAPI document
 * (lib/http/openapi.ts) is built from the same objects, so neither can drift from the other.
 */

export { HTTP_METHODS };
type HttpMethod = (typeof HTTP_METHODS)[number];
/** The methods an operation is declared for (HEAD follows GET, OPTIONS is the preflight). */
export type V1Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The error statuses an operation can document. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 406 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

/** What each enforced step can answer by itself, whatever the handler does (the document lists them). */
export const ENFORCED_STATUSES = {
  /** withApi: anything unexpected is a 500; a database that cannot answer (or a deployment that cannot identify clients) a 503. */
  api: {
    500: 'Unexpected error on our side',
    503: 'Briefly unavailable (database unreachable); retry after Retry-After',
  },
  bearer: { 401: 'Missing, invalid or expired token' },
  rateLimit: { 429: 'Rate limit exceeded' },
  /** An operation with query parameters: one given more than once (lib/http/parse.ts `queryOf`). */
  query: { 400: 'A query parameter given more than once, or a malformed one' },
  /** Reading a JSON body (lib/http/read-json.ts): not JSON, not UTF-8, too large, not sent as JSON. */
  body: { 400: 'Malformed body', 413: 'Body too large', 415: 'Body not sent as `Content-Type: application/json`' },
} as const satisfies Record<string, Partial<Record<ErrorStatus, string>>>;

/** A JSON request body: read (at most `maxBytes`, default 16 KB), then parsed with `schema` (400 naming the field). */
export interface BodyDeclaration<B> {
  schema: z.ZodType<B>;
  maxBytes?: number;
  /** No body, or an empty one, reads as `{}` (a body that is sent must still be JSON). */
  optional?: true;
  /** Replaces parseWith, e.g. parseBatch, whose 400 names the offending entry. */
  parse?: (schema: z.ZodType<B>, value: unknown) => B;
}

/** What the handler of an operation gets, once every declared check has passed. */
export interface OperationContext<P, B, Bearer, Counts> {
  params: P;
  body: B;
  /** The token's public key. */
  caller: Bearer extends true ? string : undefined;
  /** The rate-limit ticket, for a handler that counts the request in its own statement. */
  countRequest: Counts extends true ? RequestCounter : undefined;
  services: Services;
}

/** One method of a /v1 route: its checks, its handler and its documentation. */
export interface V1Operation<
  P = Record<string, string>,
  B = undefined,
  Bearer extends boolean = false,
  Counts extends boolean = false,
> extends Pick<ZodOpenApiOperationObject, 'operationId' | 'tags' | 'summary' | 'description' | 'requestParams'> {
  /** A valid session token is required (401 otherwise, documented as the bearer scheme). */
  bearer?: Bearer;
  /** The token is checked after params and body (the lifecycle builders answer 400 before 401). */
  bearerLast?: true;
  /** Every request counts against this bucket (429 over it; RateLimit-* headers on every answer). */
  rateLimit?: RateLimitBucket;
  /**
   * Every answer is heavy work of this kind (lib/http/heavy-work.ts): while the event loop is past
   * its bound the request is shed (503 `overloaded`) first, before the rate limit's round trip.
   */
  heavy?: HeavyKind;
  /** With `bearer`: the caller's key also counts against this bucket, once the token is checked (429 over it). */
  callerRateLimit?: CallerRateLimitBucket;
  /** The handler counts the request inside its own statement with `countRequest` (one round trip). */
  countsRequest?: Counts;
  /** The path segments, parsed before the body (throw the 400 of a malformed one). */
  params?: (raw: Record<string, string>) => P;
  body?: BodyDeclaration<B>;
  /** Returns the value of a 200 JSON answer (`Cache-Control: no-store`), or the Response of any other answer. */
  handler: (req: Request, ctx: OperationContext<P, B, Bearer, Counts>) => Promise<Response | object>;
  /** The answers that are not errors (2xx, 304). */
  responses: ZodOpenApiResponsesObject;
  /** The errors the handler answers itself, beyond the declared checks', and what each means here. */
  errors?: Partial<Record<ErrorStatus, string>>;
}

// The operations of one route differ in their type parameters; a route holds them as this.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyV1Operation = V1Operation<any, any, any, any>;

/** A /v1 route: its path (as the document writes it) and its operations. */
export interface V1RouteDeclaration {
  path: string;
  operations: Partial<Record<V1Method, AnyV1Operation>>;
}

/** Types an operation's handler from its declaration (the object is returned as it is). */
export function v1Operation<
  P = Record<string, string>,
  B = undefined,
  const Bearer extends boolean = false,
  const Counts extends boolean = false,
>(operation: V1Operation<P, B, Bearer, Counts>): V1Operation<P, B, Bearer, Counts> {
  return operation;
}

/** Every status an operation can answer besides its `responses`: its declared checks' and its own errors. */
export function answerableErrors(op: AnyV1Operation): Partial<Record<ErrorStatus, string>> {
  return {
    ...ENFORCED_STATUSES.api,
    ...(op.bearer ? ENFORCED_STATUSES.bearer : {}),
    ...(op.rateLimit || op.callerRateLimit ? ENFORCED_STATUSES.rateLimit : {}),
    ...(op.requestParams?.query ? ENFORCED_STATUSES.query : {}),
    ...(op.body ? ENFORCED_STATUSES.body : {}),
    ...op.errors,
  };
}

/**
 * The checks of one operation, in this order: CORS headers on every answer, errors → the
 * envelope, load shedding of heavy work, the rate limit, a repeated query parameter, the bearer token (or after the body with `bearerLast`) and the
 * caller's rate limit, the params, the body; then the handler.
 */
function enforce(op: AnyV1Operation, path: string, provide: ServicesProvider): Handler<RouteContext> {
  const checked = async (
    req: Request,
    { params: raw, services, countRequest }: ApiContext & { countRequest?: RequestCounter },
  ) => {
    // One meaning per parameter, before the token and anything that costs a round trip.
    if (op.requestParams?.query) queryOf(req);
    const tokenFirst = op.bearer && !op.bearerLast ? await bearerCaller(req, services.tokenKeys) : undefined;
    const rest = async () => {
      const params = op.params ? op.params(raw) : raw;
      const body = op.body ? await readBody(req, op.body) : undefined;
      const caller = op.bearer && op.bearerLast ? await bearerCaller(req, services.tokenKeys) : tokenFirst;
      const answer = await op.handler(req, {
        params,
        body,
        caller,
        services,
        countRequest: op.countsRequest ? countRequest : undefined,
      });
      return answer instanceof Response ? answer : json(answer);
    };
    return tokenFirst && op.callerRateLimit
      ? withCallerRateLimit(services, op.callerRateLimit, tokenFirst, rest)
      : rest();
  };
  const limited = op.rateLimit ? withRateLimit(op.rateLimit, checked, { fused: op.countsRequest }) : checked;
  const heavy = op.heavy;
  const shedding: typeof limited = heavy
    ? (req, ctx) => {
        const client = heavyClient(req, ctx.services.config);
        shedWhileBusy(heavy, ctx.services.config.heavyWork, client);
        noteHeavyRequest(client);
        return limited(req, ctx);
      }
    : limited;
  return withCors(withApi(shedding, path, provide));
}

async function readBody<B>(
  req: Request,
  { schema, maxBytes, optional, parse = parseWith }: BodyDeclaration<B>,
): Promise<B> {
  return parse(schema, await readJson(req, { maxBytes, optional }));
}

const DECLARATION = Symbol.for('identity-tags.v1.route');

type RouteHandler = ((req: Request, ctx: RouteContext) => Response | Promise<Response>) & {
  [DECLARATION]?: V1RouteDeclaration;
};

/**
 * A /v1 route file's exports, every method: the declared operations (HEAD follows GET), the
 * CORS preflight, and for every other method a 405 in the envelope with `Allow` (Next.js
 * answers those with an empty 405). OPTIONS carries the declaration, for the document.
 *
 *   export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/x', { GET: v1Operation({ … }) });
 */
export function v1Route(path: string, operations: V1RouteDeclaration['operations']): Record<HttpMethod, RouteHandler> {
  return v1Handlers({ path, operations }, getServices);
}

/**
 * The handlers of a declared route, taking their services from `provide`: v1Route binds the
 * process's own; a test binds its own configuration and database and calls the handlers
 * in-process (tests/support/in-process.ts), with no server of its own.
 */
export function v1Handlers(
  declaration: V1RouteDeclaration,
  provide: ServicesProvider,
): Record<HttpMethod, RouteHandler> {
  const { path, operations } = declaration;
  const own: Partial<Record<HttpMethod, RouteHandler>> = {};
  for (const [method, op] of Object.entries(operations) as [V1Method, AnyV1Operation][])
    own[method] = enforce(op, path, provide);
  if (own.GET) own.HEAD = own.GET;
  const declared = HTTP_METHODS.filter((m) => m !== 'HEAD' && own[m]);
  const preflight = corsPreflight(declared);
  own.OPTIONS = (req) => observeRequest(req, path, async () => preflight());
  const allow = allowOf([...declared, 'OPTIONS']);
  const notAllowed: RouteHandler = (req) =>
    observeRequest(req, path, async () => setCorsHeaders(methodNotAllowed(req.method, allow)));
  Object.defineProperty(own.OPTIONS, DECLARATION, { value: declaration });
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, own[m] ?? notAllowed])) as Record<HttpMethod, RouteHandler>;
}

/** The declaration of a route module made by v1Route (null for any other module). */
export function declarationOf(module: Record<string, unknown>): V1RouteDeclaration | null {
  return (module.OPTIONS as RouteHandler | undefined)?.[DECLARATION] ?? null;
}

/** The 404 of a /v1 path that names no route (app/v1/[[...rest]]/route.ts), observed under `other`. */
export function unknownPath(req: Request): Promise<Response> {
  return observeRequest(req, undefined, async () =>
    setCorsHeaders(errorResponse(new AppError('not_found', 'There is no such endpoint. See /v1/openapi.json.'))),
  );
}
