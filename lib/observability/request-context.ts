import './next-async-storage-global';
import { workAsyncStorage } from 'next/dist/server/app-render/work-async-storage.external';

/*
 * Which request a log line belongs to. Next.js already carries a store of its own through all
 * of a request's async work (its work store, one per request served); the request's id is
 * kept beside that store, in a WeakMap, rather than in an AsyncLocalStorage of ours. On Node
 * 20 every AsyncLocalStorage in use costs every promise the process makes (each one is copied
 * onto each new promise), and Next.js makes hundreds a request: a CPU profile of the trivial
 * route under load put ours at about 16 µs a request, a quarter of what observing cost
 * (bench/results/2026-11-26.md). The import is Next.js's own module for that store, the one its
 * `headers()` and `after()` read; a Next.js that moved it fails the build, and a request
 * whose lines lost their id fails tests/register/priority-fee-refused.test.ts.
 * Outside a request (startup, the indexer's own process) there is no store, and no id.
 */

// One map per process, kept on globalThis: Next.js bundles this module into each route's
// chunk with its own module state, and a line logged from lib/ must find the id that a
// route's wrapper set.
const SLOT = Symbol.for('identity-tag-service.request-ids');
const holder = globalThis as unknown as Record<symbol, WeakMap<object, string> | undefined>;
const requestIds: WeakMap<object, string> = (holder[SLOT] ??= new WeakMap());

/** Runs `serve` with `requestId` as the id of the request Next.js is serving, if it is serving one. */
export function withRequestId<T>(requestId: string, serve: () => T): T {
  const store = workAsyncStorage.getStore();
  if (store) requestIds.set(store, requestId);
  return serve();
}

/** The id of the request being served, if any (a log line outside a request has none). */
export function currentRequestId(): string | undefined {
  const store = workAsyncStorage.getStore();
  return store && requestIds.get(store);
}
