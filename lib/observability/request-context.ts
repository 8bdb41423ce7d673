import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * Which request a log line belongs to: the id of the request being served, in an
 * AsyncLocalStorage that the request's wrapper enters (./observe-request.ts), so lib/ code
 * logs without being handed the request. Node's public API, rather than a store of Next.js's
 * own: each AsyncLocalStorage in use costs every promise a request makes a little (its figure:
 * bench/results/figures-once-in-comments.md), the price of not depending on where a framework release keeps its internals.
 * Outside a request (startup, the indexer's own process) there is no store, and no id.
 */

// One storage per process, under a symbol of ours: Next.js bundles this module into each
// route's chunk with its own module state, and a line logged from lib/ must find the id that a
// route's wrapper set.
const SLOT = Symbol.for('identity-tag-service.request-ids');
const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<string> | undefined>;
const requestIds: AsyncLocalStorage<string> = (holder[SLOT] ??= new AsyncLocalStorage<string>());

/** Runs `serve` as the request `requestId`: each line logged while it runs carries the id. */
export function withRequestId<T>(requestId: string, serve: () => T): T {
  return requestIds.run(requestId, serve);
}

/** The id of the request being served, if any (a log line outside a request has none). */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}
