import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while a request is served carries. */
export interface RequestContext {
  requestId: string;
}

// One store per process, kept on globalThis: Next.js bundles this module into each route's
// chunk with its own module state, and a line logged from lib/ must find the request that a
// route's wrapper started.
const SLOT = Symbol.for('identity-tag-service.request-context');
const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestContext> | undefined>;

export const requestContext: AsyncLocalStorage<RequestContext> = (holder[SLOT] ??= new AsyncLocalStorage<RequestContext>());

/** The id of the request being served, if any (a log line outside a request has none). */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
