import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { ERROR_STATUS, type ErrorCode } from '@/lib/core/errors';
import { REFUSED_EXTENSIONS } from '@/lib/chain/mint-account';
import { UNSAFE_PAYOUT_REASONS } from '@/lib/chain/payout-safety';
import { REVERSE_NOT_FOUND_REASONS } from '@/lib/features/integrations/reverse-reasons';
import { IDENTITY_CHANGE_WEBHOOK, PAYMENT_RECEIVED_WEBHOOK } from '@/lib/features/webhooks/webhook-doc';
import { RateLimitHeaders, RetryAfterHeader } from './docs';
import {
  answerableErrors,
  ENFORCED_STATUSES,
  type AnyV1Operation,
  type ErrorStatus,
  type V1RouteDeclaration,
} from './v1-route';

/*
 * The OpenAPI 3.1 document of /v1, built from the routes' declarations (lib/http/v1-route.ts):
 * each operation's documentation sits in its route file, beside the checks and the handler it
 * describes (shared pieces in lib/http/docs.ts), and the statuses its declared checks can
 * answer are added here. Each error status is one response in `components.responses`, which
 * an operation refers to with what the status means there.
 */

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/*
 * The fields an error carries beside `code` and `message` (AppError's `details`), each with the
 * codes that carry it. The envelope below is built from this table and from the code → status
 * table (lib/core/errors.ts), so a new code or a new reason is in the document the moment it is
 * declared; the in-process test app validates every error answer the suite meets against it
 * (tests/support/error-contract.ts).
 */
const ERROR_DETAILS = {
  reason: z.enum([...new Set([...REVERSE_NOT_FOUND_REASONS, ...UNSAFE_PAYOUT_REASONS, ...REFUSED_EXTENSIONS])]).meta({
    description:
      'Why, for three codes: `not_found` of GET /v1/reverse/{address} (`no_tag`, `primary_not_owned`, `blocked`, `not_indexed`: ' +
      'docs/integrators.md, "Resolve, reverse, batch"); `unsafe_payout` (`off_curve`, `token_account`, `mint`, `program`, ' +
      '`not_system_owned`); `unsupported_asset`, the Token-2022 extension that could take, withhold or freeze the payment ' +
      '(`permanent_delegate`, `transfer_fee`, `transfer_hook`, `default_account_state_frozen`, `non_transferable`, `pausable`)',
  }),
  tag: z.string().meta({
    description: '`lookalike` only: the verified or merchant tag the refused tag looks like',
    example: '@alice',
  }),
  until: z.iso.datetime().meta({
    description:
      '`quarantined` only: when the released tag stops resting (ISO 8601); until then only its previous owner may register it',
    example: '2026-01-31T12:00:00.000Z',
  }),
};

/** The one error envelope (DESIGN.md "Errors"), every non-2xx answer of /v1. */
const ErrorEnvelope = z
  .object({
    error: z.strictObject({
      code: z.enum(ERROR_CODES).meta({ description: 'Stable machine-readable code; each maps to one HTTP status' }),
      message: z.string().meta({ description: 'Human-readable explanation; may change' }),
      ...Object.fromEntries(Object.entries(ERROR_DETAILS).map(([name, schema]) => [name, schema.optional()])),
    }),
  })
  .meta({
    id: 'Error',
    description: 'The error envelope of every /v1 failure',
    example: { error: { code: 'not_found', message: 'No identity with this tag.' } },
  });

/** What each status a declared check answers means (lib/http/v1-route.ts). */
const ENFORCED: Partial<Record<string, string>> = Object.assign({}, ...Object.values(ENFORCED_STATUSES));

/**
 * The shared error answers (`components.responses`), each the envelope: one per status a
 * declared check answers, with its meaning and headers, and `Error` for the statuses only
 * handlers answer, each operation saying what the status means there.
 */
const SHARED_ERRORS: Record<string, { status?: ErrorStatus; headers?: z.ZodObject }> = {
  Error: {},
  BadRequest: { status: 400 },
  Unauthorized: {
    status: 401,
    headers: z.object({ 'WWW-Authenticate': z.string().meta({ example: 'Bearer realm="v1"' }) }),
  },
  ContentTooLarge: { status: 413 },
  UnsupportedMediaType: { status: 415 },
  TooManyRequests: { status: 429, headers: RateLimitHeaders.extend(RetryAfterHeader.shape) },
  InternalServerError: { status: 500 },
  ServiceUnavailable: {
    status: 503,
    headers: z.object({ 'Retry-After': z.string().optional().meta({ description: 'Seconds to wait, when known' }) }),
  },
};
const GENERIC_ERROR = 'The error envelope; each operation says what the status means there';

/** The error answers of one operation: references to the shared responses, with what each status means here. */
function errorReferences(cases: Partial<Record<ErrorStatus, string>>): ZodOpenApiResponsesObject {
  return Object.fromEntries(
    Object.entries(cases).map(([status, description]) => {
      const name = Object.keys(SHARED_ERRORS).find((n) => String(SHARED_ERRORS[n].status) === status) ?? 'Error';
      return [
        status,
        {
          $ref: `#/components/responses/${name}`,
          ...(description === ENFORCED[status] && name !== 'Error' ? {} : { description }),
        },
      ];
    }),
  );
}

/** The shared error responses (every one is in use: Redocly's lint says when one is not). */
const errorResponses = (): Record<string, ZodOpenApiResponseObject> =>
  Object.fromEntries(
    Object.entries(SHARED_ERRORS).map(([name, { status, headers }]) => [
      name,
      {
        description: status ? ENFORCED[status]! : GENERIC_ERROR,
        headers,
        content: { 'application/json': { schema: ErrorEnvelope } },
      },
    ]),
  );

/** A rate-limited operation's 2xx answers carry the RateLimit-* headers (withRateLimit sets them on every answer). */
const withRateLimitHeaders = (responses: ZodOpenApiResponsesObject): ZodOpenApiResponsesObject =>
  Object.fromEntries(
    Object.entries(responses).map(([status, response]: [string, ZodOpenApiResponseObject]) => [
      status,
      status.startsWith('2')
        ? { ...response, headers: RateLimitHeaders.extend((response.headers as z.ZodObject | undefined)?.shape ?? {}) }
        : response,
    ]),
  );

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
    ...(body
      ? { requestBody: { required: bodyRequired(body), content: { 'application/json': { schema: body.schema } } } }
      : {}),
    // Public operations say so (`[]`): a generator or linter must not guess from absence.
    security: bearer ? [{ bearerAuth: [] }] : [],
    responses: {
      ...(op.rateLimit || op.callerRateLimit ? withRateLimitHeaders(responses) : responses),
      ...errorReferences(answerableErrors(op)),
    },
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
      license: {
        name: 'Proprietary: all rights reserved by the operator of this deployment',
        identifier: 'LicenseRef-Proprietary',
      },
    },
    servers: options.serverUrl
      ? [{ url: documentedServerUrl(options.serverUrl), description: 'This deployment' }]
      : undefined,
    tags: [
      { name: 'auth', description: 'Sign in with a wallet signature' },
      { name: 'identity', description: 'Read identities and edit your profile' },
      { name: 'register', description: 'Register a tag on chain' },
      { name: 'lifecycle', description: 'Change the payout wallet, transfer or release a tag (unsigned transactions)' },
      {
        name: 'integrators',
        description: 'For wallets and payment apps: primary tag, reverse lookup, batch resolve, change feed',
      },
      { name: 'webhooks', description: 'The change feed pushed to your URL, signed (Standard Webhooks)' },
      {
        name: 'ecosystems',
        description:
          'A tag where other ecosystems look: the ENS CCIP-Read gateway (`<tag>.<parent>`); WebFinger and NIP-05 are at /.well-known (docs/integrators.md)',
      },
      { name: 'meta', description: 'About the API' },
    ],
    paths: v1Paths(routes),
    webhooks: {
      identityChange: { post: IDENTITY_CHANGE_WEBHOOK },
      paymentReceived: { post: PAYMENT_RECEIVED_WEBHOOK },
    },
    components: {
      responses: errorResponses(),
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
