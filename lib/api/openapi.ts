import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import { IDENTITY_CHANGE_WEBHOOK } from '@/lib/webhooks/webhook-doc';
import { errors } from './docs';
import { answerableErrors, type AnyV1Operation, type V1RouteDeclaration } from './v1-route';

/*
 * The OpenAPI 3.1 document of /v1, built from the routes' declarations (lib/api/v1-route.ts):
 * each operation's documentation sits in its route file, beside the checks and the handler it
 * describes (shared pieces in lib/api/docs.ts), and the statuses its declared checks can
 * answer are added here.
 */

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
