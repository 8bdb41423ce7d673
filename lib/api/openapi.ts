import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { ChallengeRequest, ChallengeResponse, VerifyRequest, VerifyResponse } from '@/lib/auth/schemas';
import { PublicKeyString } from '@/lib/solana/keys';
import { Identity, ProfilePatch, ResolvedIdentity, TagPathParam } from '@/lib/identity/schemas';
import { IdentityEventPage } from '@/lib/feed/read-events';
import { FeedQuery } from '@/lib/feed/feed-query';
import {
  AddressPathParam,
  PrimaryTag,
  PrimaryTagRequest,
  ResolveBatchRequest,
  ResolveBatchResponse,
  ReverseBatchRequest,
  ReverseBatchResponse,
  ReverseLookup,
} from '@/lib/integrations/schemas';
import { RegisterRequest, RegisterResponse, SyncPending, SyncRequest, TagAvailability } from '@/lib/registry/schemas';
import {
  FeePayerOnlyRequest,
  LifecycleTransaction,
  OfferTransferRequest,
  ReleaseRequest,
  SetWalletRequest,
  TransferState,
} from '@/lib/lifecycle/schemas';
import { PUBLIC_READ_CACHE_CONTROL } from './cors';
import { WRAPPER_STATUSES, wrapperStatuses, type Wrapper } from './answers';
import type { RateLimitBucket } from './rate-limit';
import { ERROR_STATUS, type ErrorCode } from '@/lib/errors';
import { IdentityEvent } from '@/lib/feed/read-events';
import {
  CreateWebhookRequest,
  DeliveryAttemptList,
  ReplayWebhookRequest,
  WebhookIdParam,
  Webhook,
  WebhookList,
  WebhookWithSecret,
} from '@/lib/webhooks/schemas';

/*
 * The OpenAPI 3.1 document of /v1, generated from the same zod schemas that validate the
 * requests (STYLE.md 4). One entry per endpoint below, in `V1_OPERATIONS`; the test
 * `tests/identity/openapi.test.ts` walks app/v1/**\/route.ts and fails on a route without one.
 *
 * An entry lists only what its handler answers itself (`errors`). What its wrappers answer
 * (withApi's 500 and 503, withBearer's 401, withRateLimit's 429, a JSON body's 400, 413 and
 * 415) comes from lib/api/answers.ts, added here from the entry's `bearer`, `rateLimit` and
 * `requestBody`; tests/identity/openapi-coverage.test.ts checks those against the wrappers
 * each route's handlers really went through, so neither can change without the other.
 */

// ---------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The one error envelope (DESIGN.md "Errors"), every non-2xx answer of /v1. */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).meta({ description: 'Stable machine-readable code; each maps to one HTTP status' }),
      message: z.string().meta({ description: 'Human-readable explanation; may change' }),
    }),
  })
  .meta({
    id: 'Error',
    description: 'The error envelope of every /v1 failure',
    example: { error: { code: 'not_found', message: 'No identity with this tag.' } },
  });

const RateLimitHeaders = z.object({
  'RateLimit-Limit': z.string().meta({ description: 'Requests allowed in the window' }),
  'RateLimit-Remaining': z.string().meta({ description: 'Requests left in the current window' }),
  'RateLimit-Reset': z.string().meta({ description: 'Seconds until the window resets' }),
  'RateLimit-Policy': z.string().meta({ description: 'The policy, e.g. `30;w=60`' }),
});

const PublicReadHeaders = z.object({
  'Cache-Control': z.string().meta({ description: 'Cacheable by shared caches for a short time', example: PUBLIC_READ_CACHE_CONTROL }),
  'Access-Control-Allow-Origin': z.string().meta({ example: '*' }),
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

type ErrorStatus = 400 | 401 | 403 | 404 | 406 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

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

function ok(description: string, schema: z.ZodType, headers?: z.ZodObject): ZodOpenApiResponseObject {
  return { description, content: { 'application/json': { schema } }, ...(headers ? { headers } : {}) };
}

function jsonBody(schema: z.ZodType) {
  return { required: true, content: { 'application/json': { schema } } };
}

const BEARER = [{ bearerAuth: [] }];
const tagPath = { path: z.object({ tag: TagPathParam }) };

const MISSING_OR_BLOCKED = 'No such tag (missing or blocked)';
const BRIEFLY_UNREACHABLE = 'The cluster or the database is briefly unreachable';

/** One /v1 operation as its handler is built: its documentation and what it answers itself. */
export interface V1Operation extends Omit<ZodOpenApiOperationObject, 'responses' | 'security'> {
  /** Wrapped in withBearer (documented as the bearer scheme, with its 401). */
  bearer?: true;
  /** Wrapped in withRateLimit with this bucket (its 429). */
  rateLimit?: RateLimitBucket;
  /** The answers that are not errors (2xx, 304). */
  responses: ZodOpenApiResponsesObject;
  /** The errors the handler answers itself, beyond its wrappers' and its body's, and what each means here. */
  errors?: Partial<Record<ErrorStatus, string>>;
}

/** The wrappers an operation's handler goes through, as lib/api/answers.ts names them. */
export function wrappersOfOperation(op: V1Operation): Wrapper[] {
  return ['cors', 'api', ...(op.bearer ? (['bearer'] as const) : []), ...(op.rateLimit ? ([`rateLimit:${op.rateLimit}`] as const) : [])];
}

/**
 * Every status an operation can answer, given the wrappers its handler went through: its own
 * answers and errors, its wrappers', and a JSON body's when it takes one. The operation's
 * own description of a status wins over the generic one.
 */
export function answerableErrors(op: V1Operation, wrappers: readonly Wrapper[]): Partial<Record<number, string>> {
  return { ...wrapperStatuses(wrappers), ...(op.requestBody ? WRAPPER_STATUSES.jsonBody : {}), ...op.errors };
}

/** What an operation says of itself; its kind's builder adds the rest. */
type OperationDoc = Pick<V1Operation, 'operationId' | 'tags' | 'summary' | 'description'>;

/**
 * A public cacheable read (lib/api/conditional.ts): one path parameter and If-None-Match, the
 * answer with its ETag, or 304; `errors` says what a malformed and an unknown parameter mean.
 */
function conditionalRead(doc: OperationDoc, path: z.ZodObject, answer: string, schema: z.ZodType, errors: { 400: string; 404: string }): V1Operation {
  return {
    ...doc,
    requestParams: { path, header: ifNoneMatch },
    responses: { 200: ok(answer, schema, ConditionalReadHeaders), 304: NOT_MODIFIED },
    errors,
  };
}

/** A conditional read of one tag: a missing and a blocked tag give the same 404. */
function tagRead(doc: OperationDoc, answer: string, schema: z.ZodType): V1Operation {
  return conditionalRead(doc, tagPath.path, answer, schema, { 400: 'Malformed tag', 404: MISSING_OR_BLOCKED });
}

/** A public lookup of up to 100 keys in one JSON body; `malformed` is its 400. */
function batchLookup(doc: OperationDoc, body: z.ZodType, answer: string, schema: z.ZodType, malformed: string): V1Operation {
  return { ...doc, requestBody: jsonBody(body), responses: { 200: ok(answer, schema) }, errors: { 400: malformed } };
}

/** The 200 of the transaction builders (register, lifecycle): rate-limited, never signed by the service. */
function unsignedTransaction(schema: z.ZodType): ZodOpenApiResponsesObject {
  return { 200: ok('The unsigned transaction to sign and submit', schema, RateLimitHeaders) };
}

function toOpenApi(op: V1Operation): ZodOpenApiOperationObject {
  const { bearer, rateLimit: _bucket, responses, errors: _own, ...doc } = op;
  return {
    ...doc,
    // Public operations say so (`[]`): a generator or linter must not guess from absence.
    security: bearer ? BEARER : [],
    responses: { ...responses, ...errors(answerableErrors(op, wrappersOfOperation(op))) },
  };
}

// ---------------------------------------------------------------------------------------
// Auth (SPEC 4.1, 4.2, 5)
// ---------------------------------------------------------------------------------------

/** POST /v1/auth/challenge */
const authChallenge: V1Operation = {
  operationId: 'requestChallenge',
  tags: ['auth'],
  summary: 'Request a single-use sign-in message for a public key',
  rateLimit: 'auth',
  requestBody: jsonBody(ChallengeRequest),
  responses: { 200: ok('The message to sign', ChallengeResponse, RateLimitHeaders) },
  errors: { 400: 'Malformed body or public key' },
};

/** POST /v1/auth/verify */
const authVerify: V1Operation = {
  operationId: 'verifySignature',
  tags: ['auth'],
  summary: 'Exchange the signed message for a session token',
  description: 'Consumes the challenge whatever the outcome. Every verification failure is the same 401.',
  rateLimit: 'auth',
  requestBody: jsonBody(VerifyRequest),
  responses: { 200: ok('A session JWT (HS256, one hour)', VerifyResponse, RateLimitHeaders) },
  errors: { 401: 'Sign-in failed (malformed message, key mismatch, expired, nonce used, bad signature: indistinguishable)' },
};

const SessionResponse = z
  .object({
    pubkey: PublicKeyString,
    expiresAt: z.iso.datetime().meta({ description: 'When the token expires' }),
  })
  .meta({ id: 'Session' });

/** GET /v1/auth/session */
const authSession: V1Operation = {
  operationId: 'getSession',
  tags: ['auth'],
  summary: "The bearer token's public key and expiry",
  bearer: true,
  responses: { 200: ok('The token is valid', SessionResponse) },
};

// ---------------------------------------------------------------------------------------
// Identity (SPEC 4.3, 4.4)
// ---------------------------------------------------------------------------------------

/** GET /v1/identity/{tag} */
const getIdentity = tagRead(
  {
    operationId: 'getIdentity',
    tags: ['identity'],
    summary: 'Read an identity',
    description: 'Public and cacheable. A missing and a blocked tag give the same 404.',
  },
  'The identity',
  Identity,
);

/** PATCH /v1/identity/{tag} */
const updateProfile: V1Operation = {
  operationId: 'updateProfile',
  tags: ['identity'],
  summary: "Edit the caller's own profile",
  description:
    'Checks, in order: token (401), tag format and body (400), existence (404, also for blocked tags), ownership (403). ' +
    'An omitted key is left as it is; `null` clears the field; `tag`, `owner`, `wallet`, `verified` and `merchant` are refused.',
  bearer: true,
  requestParams: tagPath,
  requestBody: jsonBody(ProfilePatch),
  responses: { 200: ok('The updated identity', Identity) },
  errors: {
    400: 'Malformed tag or body (not an object, unknown or non-editable key, wrong type, over a limit)',
    403: 'The tag belongs to another public key',
    404: MISSING_OR_BLOCKED,
  },
};

/** GET /v1/resolve/{tag} */
const resolveIdentity = tagRead(
  {
    operationId: 'resolveIdentity',
    tags: ['identity'],
    summary: 'Resolve a tag to its owner and payout wallet',
    description: 'The identity without `bio`: the light lookup a payment flow needs. Public and cacheable.',
  },
  'The resolved identity',
  ResolvedIdentity,
);

// ---------------------------------------------------------------------------------------
// Register, availability and sync (SPEC 4.5; DESIGN.md "Register", "Indexer")
// ---------------------------------------------------------------------------------------

/** GET /v1/availability/{tag} */
const availability: V1Operation = {
  operationId: 'getTagAvailability',
  tags: ['register'],
  summary: 'Whether a tag can be registered right now',
  description: 'Advisory: the chain decides, and two people can race for the same tag. A malformed tag is a 200 with `reason: invalid`.',
  rateLimit: 'availability',
  requestParams: tagPath,
  responses: { 200: ok('Availability of the tag', TagAvailability, RateLimitHeaders) },
  errors: { 503: BRIEFLY_UNREACHABLE },
};

/** POST /v1/register */
const register: V1Operation = {
  operationId: 'registerTag',
  tags: ['register'],
  summary: 'Build an unsigned register_tag transaction',
  description:
    'The owner is the token\'s public key, never the body. The service never signs, submits or writes the mirror; ' +
    'the identity appears once the indexer sees the transaction on chain.',
  bearer: true,
  rateLimit: 'register',
  requestBody: jsonBody(RegisterRequest),
  responses: unsignedTransaction(RegisterResponse),
  errors: {
    400: 'Malformed body, tag or key',
    409: 'Tag taken, reserved or blocked',
    503: BRIEFLY_UNREACHABLE,
  },
};

/** POST /v1/sync */
const sync: V1Operation = {
  operationId: 'syncRegistration',
  tags: ['register'],
  summary: 'Index one transaction of the program now',
  description:
    'Reads the transaction from the chain (the caller is not trusted) and, once it is finalized, makes the mirror match the ' +
    'tag records it touched: a registration, a wallet change, an offer, its cancel or accept, a release. Answers as ' +
    'GET /v1/identity would now for the first record it touched.',
  rateLimit: 'sync',
  requestBody: jsonBody(SyncRequest),
  responses: {
    200: ok('The identity, now mirrored', Identity, RateLimitHeaders),
    202: ok('Seen but not finalized yet; call again', SyncPending, z.object({ 'Retry-After': z.string().meta({ description: 'Seconds to wait' }) })),
  },
  errors: {
    400: 'Malformed body or signature',
    404: 'The cluster knows no transaction with this signature (yet: try again), or the tag is blocked or released',
    422: 'Not a successful transaction of this program (failed, or no instruction of it)',
    503: BRIEFLY_UNREACHABLE,
  },
};

// ---------------------------------------------------------------------------------------
// Lifecycle: payout wallet, transfer, release (issue 12; DESIGN.md "Lifecycle")
// ---------------------------------------------------------------------------------------

const LIFECYCLE_ORDER =
  'Checks, in order: body and tag (400), token (401), a tag with no record on chain or blocked (404), ' +
  'then the record on chain (not the mirror): ';

/** One lifecycle builder: bearer, rate-limited, the unsigned transaction or the statuses in order. */
function lifecycleBuilder(
  operationId: string,
  summary: string,
  body: z.ZodType,
  checks: string,
  cases: { 409?: string; 403: string },
  bodyRequired = true,
): V1Operation {
  return {
    operationId,
    tags: ['lifecycle'],
    summary,
    description:
      `${LIFECYCLE_ORDER}${checks} The service never signs, submits or writes the mirror: sign (the caller first, a ` +
      'sponsor given as `feePayer` last), send, then POST /v1/sync with the signature.',
    bearer: true,
    rateLimit: 'register',
    requestParams: tagPath,
    requestBody: { required: bodyRequired, content: { 'application/json': { schema: body } } },
    responses: unsignedTransaction(LifecycleTransaction),
    errors: {
      400: 'Malformed tag or body (unknown key, a key that is not a public key, a zero key)',
      404: 'No record on chain for this tag (never registered, or released), or the tag is blocked',
      ...cases,
      503: BRIEFLY_UNREACHABLE,
    },
  };
}

/** POST /v1/identity/{tag}/wallet */
const setWallet = lifecycleBuilder(
  'setWallet',
  'Build an unsigned set_wallet transaction (change the payout wallet)',
  SetWalletRequest,
  'the caller must be the owner (403).',
  { 403: 'The caller is not the owner on chain' },
);

/** POST /v1/identity/{tag}/transfer */
const offerTransfer = lifecycleBuilder(
  'offerTransfer',
  'Build an unsigned offer_transfer transaction (offer the tag to a key)',
  OfferTransferRequest,
  'an offer to the owner itself is refused (409), the caller must be the owner (403). A new offer replaces a standing one.',
  { 409: 'The tag is offered to its own owner', 403: 'The caller is not the owner on chain' },
);

/** GET /v1/identity/{tag}/transfer */
const getTransferState = tagRead(
  {
    operationId: 'getTransferState',
    tags: ['lifecycle'],
    summary: 'The owner of a tag and the key it is offered to',
    description: 'Public and cacheable, from the mirror. `pendingOwner` is null when no offer stands. Missing and blocked: the same 404.',
  },
  'The transfer state',
  TransferState,
);

/** POST /v1/identity/{tag}/transfer/cancel */
const cancelTransfer = lifecycleBuilder(
  'cancelTransfer',
  'Build an unsigned cancel_transfer transaction (take back the standing offer)',
  FeePayerOnlyRequest,
  'an offer must stand (409), the caller must be the owner (403). No body, `{}` or `{ feePayer }`.',
  { 409: 'No transfer offer stands', 403: 'The caller is not the owner on chain' },
  false,
);

/** POST /v1/identity/{tag}/transfer/accept */
const acceptTransfer = lifecycleBuilder(
  'acceptTransfer',
  'Build an unsigned accept_transfer transaction (take the tag offered to you)',
  FeePayerOnlyRequest,
  'an offer must stand (409), the caller must be the key it names (403). On accept the payout wallet becomes the new ' +
    'owner. No body, `{}` or `{ feePayer }`.',
  { 409: 'No transfer offer stands', 403: 'The tag is not offered to the caller' },
  false,
);

/** POST /v1/identity/{tag}/release */
const releaseTag = lifecycleBuilder(
  'releaseTag',
  'Build an unsigned release_tag transaction (give the tag up)',
  ReleaseRequest,
  'the caller must be the owner (403). The record is closed, its rent goes to `receiver` (default: the owner), the ' +
    'identity is deleted and the tag can be registered again, as a new identity.',
  { 403: 'The caller is not the owner on chain' },
  false,
);

// ---------------------------------------------------------------------------------------
// For integrators: primary tag, reverse lookup, batch resolve, change feed (issue 13)
// ---------------------------------------------------------------------------------------

/** PUT /v1/primary */
const setPrimaryTag: V1Operation = {
  operationId: 'setPrimaryTag',
  tags: ['integrators'],
  summary: 'Choose the caller’s primary tag (what reverse lookups of its address answer)',
  description:
    'The tag must be one of the caller’s active tags; `null` goes back to the default, its oldest active tag. The choice ' +
    'counts only while the caller still owns the tag and it is live: after a transfer, release or block, the default answers again. ' +
    'Checks, in order: token (401), body and tag (400), a missing or blocked tag (404), another key’s tag (403).',
  bearer: true,
  rateLimit: 'primary',
  requestBody: jsonBody(PrimaryTagRequest),
  responses: { 200: ok('The caller’s primary tag now', PrimaryTag, RateLimitHeaders) },
  errors: {
    400: 'Malformed body or tag',
    403: 'The tag belongs to another public key',
    404: MISSING_OR_BLOCKED,
  },
};

/** GET /v1/reverse/{address} */
const reverseLookup = conditionalRead(
  {
    operationId: 'reverseLookup',
    tags: ['integrators'],
    summary: 'An address → its tag',
    description:
      'The primary tag of the address as owner (its choice while it still owns the tag and the tag is live, else its oldest ' +
      'active tag); when it owns none, the oldest active tag it is the payout wallet of. Public and cacheable.',
  },
  z.object({ address: AddressPathParam }),
  'The address’s tag',
  ReverseLookup,
  { 400: 'Malformed address', 404: 'No tag for this address' },
);

/** POST /v1/reverse */
const reverseLookupBatch = batchLookup(
  {
    operationId: 'reverseLookupBatch',
    tags: ['integrators'],
    summary: 'Up to 100 addresses → their tags',
    description: 'Each address answered as GET /v1/reverse/{address} answers it, or null; a duplicate answers once.',
  },
  ReverseBatchRequest,
  'Each address → `@tag` or null',
  ReverseBatchResponse,
  'Malformed body, more than 100 addresses, or a malformed address (named in the message)',
);

/** POST /v1/resolve */
const resolveBatch = batchLookup(
  {
    operationId: 'resolveBatch',
    tags: ['integrators'],
    summary: 'Up to 100 tags → their resolve objects',
    description:
      'Any accepted spelling (`alice`, `@Alice`, `%40alice`); answers are keyed by the canonical tag (bare, without `@`), each ' +
      'exactly what GET /v1/resolve/{tag} answers, or null where that is a 404 (missing and blocked alike).',
  },
  ResolveBatchRequest,
  'Each canonical tag → its resolve object or null',
  ResolveBatchResponse,
  'Malformed body, more than 100 tags, or a malformed tag (named in the message)',
);

/** GET /v1/events */
const listIdentityEvents: V1Operation = {
  operationId: 'listIdentityEvents',
  tags: ['integrators'],
  summary: 'The change feed: every change of what GET /v1/identity answers, in order',
  description:
    'Apply the events in order: `upsert` sets the tag’s identity, `remove` deletes it (missing, released and blocked alike). ' +
    'Pass `next` back as `after`; `next` is the given cursor when nothing is newer. No event is ever skipped: an event ' +
    'whose transaction commits late is served after the cursors given out before it. A full page never changes.',
  requestParams: { query: FeedQuery },
  responses: { 200: ok('A page of events and the cursor after them', IdentityEventPage, PublicReadHeaders) },
  errors: { 400: 'Malformed cursor, or a limit outside 1..1000' },
};

// ---------------------------------------------------------------------------------------
// Webhooks: the change feed pushed, signed as Standard Webhooks (DESIGN.md "Webhooks")
// ---------------------------------------------------------------------------------------

const webhookPath = { path: z.object({ id: WebhookIdParam }) };
const NO_SUCH_WEBHOOK = 'No subscription of the caller with this id (another owner’s answers the same)';

/** One of the caller's subscriptions: bearer, rate-limited, 404 for anyone else's. */
function webhookOperation(doc: OperationDoc & Pick<V1Operation, 'requestBody' | 'responses' | 'requestParams'>, errors: V1Operation['errors'] = {}): V1Operation {
  return { tags: ['webhooks'], bearer: true, rateLimit: 'webhooks', ...doc, errors };
}

/** POST /v1/webhooks */
const createWebhookOperation = webhookOperation(
  {
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to the change feed',
    description:
      'Every change after now (or only those of `tags`) is POSTed to `url`: the event exactly as GET /v1/events shows it, ' +
      'signed as Standard Webhooks (`webhook-id` is the event id, `webhook-timestamp`, `webhook-signature`; see the ' +
      '`identityChange` webhook). At least once, in feed order: deduplicate by `webhook-id`. A failed delivery is retried ' +
      'with exponential backoff (5 s, 10 s, 20 s… up to an hour); after 24 hours of failures the subscription is disabled, ' +
      'with the reason in `disabledReason`. The target must be https on port 443, on a public address, and answer without ' +
      'a redirect; it is checked again on every delivery. The answer carries the signing secret, shown only this once.',
    requestBody: jsonBody(CreateWebhookRequest),
    responses: { 201: ok('The subscription, with its signing secret', WebhookWithSecret, RateLimitHeaders.extend({ Location: z.string() })) },
  },
  {
    400: 'Malformed body, or a target refused (not https, not port 443, not a public address, answers with a redirect)',
    409: 'The caller holds the most subscriptions an owner may',
  },
);

/** GET /v1/webhooks */
const listWebhooksOperation = webhookOperation({
  operationId: 'listWebhooks',
  summary: 'The caller’s subscriptions, their state and cursor',
  responses: { 200: ok('The subscriptions, oldest first', WebhookList, RateLimitHeaders) },
});

/** DELETE /v1/webhooks/{id} */
const deleteWebhookOperation = webhookOperation(
  {
    operationId: 'deleteWebhook',
    summary: 'End a subscription',
    requestParams: webhookPath,
    responses: { 204: { description: 'Deleted; nothing more is delivered', headers: RateLimitHeaders } },
  },
  { 404: NO_SUCH_WEBHOOK },
);

/** POST /v1/webhooks/{id}/rotate */
const rotateWebhookOperation = webhookOperation(
  {
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret',
    description: 'For 24 hours the previous secret still signs too: `webhook-signature` carries one signature under each.',
    requestParams: webhookPath,
    responses: { 200: ok('The subscription, with its new signing secret', WebhookWithSecret, RateLimitHeaders) },
  },
  { 404: NO_SUCH_WEBHOOK },
);

/** POST /v1/webhooks/{id}/replay */
const replayWebhookOperation = webhookOperation(
  {
    operationId: 'replayWebhook',
    summary: 'Deliver again from a feed cursor',
    description: 'Moves the cursor to `after` (`0-0`: the start of the feed); failures are forgotten and a disabled subscription starts again.',
    requestParams: webhookPath,
    requestBody: jsonBody(ReplayWebhookRequest),
    responses: { 200: ok('The subscription, its cursor moved', Webhook, RateLimitHeaders) },
  },
  { 400: 'Malformed body or cursor', 404: NO_SUCH_WEBHOOK },
);

/** GET /v1/webhooks/{id}/deliveries */
const listDeliveriesOperation = webhookOperation(
  {
    operationId: 'listWebhookDeliveries',
    summary: 'The last delivery attempts: status, latency, error',
    requestParams: webhookPath,
    responses: { 200: ok('Up to 50 attempts, newest first', DeliveryAttemptList, RateLimitHeaders) },
  },
  { 404: NO_SUCH_WEBHOOK },
);

/** The webhook itself: what a subscription's target receives (OpenAPI 3.1 `webhooks`). */
const identityChangeWebhook: ZodOpenApiOperationObject = {
  operationId: 'identityChange',
  tags: ['webhooks'],
  summary: 'One change of the feed, POSTed to a subscription’s URL',
  description:
    'The body is the event exactly as GET /v1/events shows it. Verify the signature with a Standard Webhooks library and ' +
    'the subscription’s secret, refuse a timestamp more than 5 minutes off, and deduplicate by `webhook-id`: delivery is at ' +
    'least once, in feed order. Answer 2xx within the timeout (10 s); anything else, a redirect included, is retried.',
  security: [],
  requestParams: {
    header: z.object({
      'webhook-id': z.string().meta({ description: 'The event id: the same for every attempt of one event', example: '318' }),
      'webhook-timestamp': z.string().meta({ description: 'Unix seconds when this attempt was signed', example: '1764100000' }),
      'webhook-signature': z.string().meta({
        description: 'Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per secret in use (two for a day after a rotation)',
        example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
      }),
    }),
  },
  requestBody: jsonBody(IdentityEvent),
  responses: {
    '2XX': { description: 'Any 2xx acknowledges the event' },
    '4XX': { description: 'Any other answer, a redirect included (or none within the timeout), is a failed attempt, retried with backoff' },
  },
};

// ---------------------------------------------------------------------------------------
// The document itself
// ---------------------------------------------------------------------------------------

/** GET /v1/openapi.json */
const openApiDocument: V1Operation = {
  operationId: 'getOpenApiDocument',
  tags: ['meta'],
  summary: 'This OpenAPI 3.1 document',
  responses: {
    200: ok(
      'The document',
      z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }),
    ),
  },
  errors: { 406: 'The request’s `Accept` excludes `application/json`, the only form of the document' },
};

/** Every /v1 endpoint: path → method → operation. A new route adds its line here. */
export const V1_OPERATIONS: Record<string, Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', V1Operation>>> = {
  '/v1/auth/challenge': { post: authChallenge },
  '/v1/auth/verify': { post: authVerify },
  '/v1/auth/session': { get: authSession },
  '/v1/identity/{tag}': { get: getIdentity, patch: updateProfile },
  '/v1/identity/{tag}/wallet': { post: setWallet },
  '/v1/identity/{tag}/transfer': { get: getTransferState, post: offerTransfer },
  '/v1/identity/{tag}/transfer/cancel': { post: cancelTransfer },
  '/v1/identity/{tag}/transfer/accept': { post: acceptTransfer },
  '/v1/identity/{tag}/release': { post: releaseTag },
  '/v1/resolve/{tag}': { get: resolveIdentity },
  '/v1/resolve': { post: resolveBatch },
  '/v1/reverse/{address}': { get: reverseLookup },
  '/v1/reverse': { post: reverseLookupBatch },
  '/v1/primary': { put: setPrimaryTag },
  '/v1/events': { get: listIdentityEvents },
  '/v1/availability/{tag}': { get: availability },
  '/v1/register': { post: register },
  '/v1/sync': { post: sync },
  '/v1/webhooks': { get: listWebhooksOperation, post: createWebhookOperation },
  '/v1/webhooks/{id}': { delete: deleteWebhookOperation },
  '/v1/webhooks/{id}/rotate': { post: rotateWebhookOperation },
  '/v1/webhooks/{id}/replay': { post: replayWebhookOperation },
  '/v1/webhooks/{id}/deliveries': { get: listDeliveriesOperation },
  '/v1/openapi.json': { get: openApiDocument },
};

/** The OpenAPI paths of V1_OPERATIONS, each with every status it can answer. */
function v1Paths(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    Object.entries(V1_OPERATIONS).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, toOpenApi(op)])),
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

/** The OpenAPI 3.1 document of /v1; `serverUrl` is the public origin (APP_URL). */
export function createOpenApiDocument(options: { serverUrl?: string } = {}) {
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
    paths: v1Paths(),
    webhooks: { identityChange: { post: identityChangeWebhook } },
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
