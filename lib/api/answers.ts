import type { CallerRateLimitBucket, RateLimitBucket } from './rate-limit';

/*
 * What a /v1 handler can answer, from the one place its wrappers are: each wrapper stamps the
 * handler it returns with its name, and `WRAPPER_STATUSES` says what that wrapper can answer
 * by itself, whatever the route. The OpenAPI document (lib/api/openapi.ts) adds these statuses
 * to an operation's own, and tests/identity/openapi-coverage.test.ts reads the stamps of every
 * route's handlers and fails when the document lists a status the route cannot answer or
 * misses one it can.
 */

/** A wrapper a /v1 handler went through (`rateLimit:<bucket>` names its bucket). */
export type Wrapper = 'api' | 'cors' | 'bearer' | `rateLimit:${RateLimitBucket}` | `callerRateLimit:${CallerRateLimitBucket}`;

/** The statuses each wrapper can answer whatever the handler inside it does, and what they mean. */
export const WRAPPER_STATUSES = {
  /** withApi: anything unexpected is a 500; a database that cannot answer (or a deployment that cannot identify clients) a 503. */
  api: { 500: 'Unexpected error on our side', 503: 'Briefly unavailable (database unreachable); retry after Retry-After' },
  /** withBearer */
  bearer: { 401: 'Missing, invalid or expired token' },
  /** withRateLimit */
  rateLimit: { 429: 'Rate limit exceeded' },
  /** Reading a JSON request body (lib/api/read-json.ts): not JSON, not UTF-8, too large, not sent as JSON. */
  jsonBody: { 400: 'Malformed body', 413: 'Body too large', 415: 'Body not sent as `Content-Type: application/json`' },
} as const satisfies Record<string, Record<number, string>>;

const WRAPPERS = Symbol.for('identity-tags.v1.wrappers');

type Stamped = { [WRAPPERS]?: ReadonlySet<Wrapper> };

/** `handler`, stamped as having gone through `wrapper` and every wrapper `inner` went through. */
export function stamp<H extends object>(handler: H, wrapper: Wrapper | null, inner: object): H {
  const wrappers = new Set(wrappersOf(inner));
  if (wrapper) wrappers.add(wrapper);
  (handler as Stamped)[WRAPPERS] = wrappers;
  return handler;
}

/**
 * `handler`, stamped with the wrappers of `delegate`, which it calls after checks of its own
 * (a lifecycle builder validates tag and body before the bearer token, so withBearer wraps
 * only its last step).
 */
export function delegatesTo<H extends object>(delegate: object, handler: H): H {
  return stamp(handler, null, delegate);
}

/** The wrappers a handler went through, outermost or not, in no order. */
export function wrappersOf(handler: object): Wrapper[] {
  return [...((handler as Stamped)[WRAPPERS] ?? [])];
}

/** The statuses the wrappers can answer by themselves. */
export function wrapperStatuses(wrappers: readonly Wrapper[]): Record<number, string> {
  const out: Record<number, string> = {};
  for (const wrapper of wrappers) {
    if (wrapper === 'api') Object.assign(out, WRAPPER_STATUSES.api);
    if (wrapper === 'bearer') Object.assign(out, WRAPPER_STATUSES.bearer);
    if (wrapper.startsWith('rateLimit:') || wrapper.startsWith('callerRateLimit:')) Object.assign(out, WRAPPER_STATUSES.rateLimit);
  }
  return out;
}
