import type { HeavyWorkBound } from '@/lib/core/config';
import { setCorsHeaders } from './cors';
import { errorResponse } from './error-response';
import { shedWhileBusy } from './heavy-work';

/*
 * Heavy requests shed by `npm start`'s own HTTP server (scripts/serve.ts) before Next.js sees
 * them, while the event loop is past its bound (lib/http/heavy-work.ts). The routes shed them
 * too, the same way, under a bare `next start` or on Vercel; but an answer that goes through
 * Next.js costs the loop several milliseconds, the 503 as much as any other, so 64 feed readers
 * being shed there kept the loop busy with shedding alone: every heavy request was shed, and
 * health waited behind the 503s (bench/starvation.ts). Here a 503 costs what node:http costs.
 */

/** The heavy requests, by method and path: the feed, share images, the batch lookups. */
const HEAVY_REQUESTS: ReadonlyArray<{ methods: readonly string[]; path: RegExp; kind: string; v1: boolean }> = [
  { methods: ['GET', 'HEAD'], path: /^\/v1\/events\/?$/, kind: 'feed', v1: true },
  { methods: ['GET', 'HEAD'], path: /^\/profile\/[^/]+\/opengraph-image\/?$/, kind: 'og image', v1: false },
  { methods: ['POST'], path: /^\/v1\/resolve\/?$/, kind: 'resolve batch', v1: true },
  { methods: ['POST'], path: /^\/v1\/reverse\/?$/, kind: 'reverse batch', v1: true },
];

/** The kind of heavy work a request is (and whether it is /v1), or null for any other request. */
export function heavyRequestKind(method: string | undefined, target: string | undefined) {
  if (!method || !target) return null;
  const path = target.split('?', 1)[0]!;
  const heavy = HEAVY_REQUESTS.find((h) => h.methods.includes(method) && h.path.test(path));
  return heavy ? { kind: heavy.kind, v1: heavy.v1 } : null;
}

/**
 * The 503 `overloaded` (with Retry-After, in the envelope, CORS on /v1) for a heavy request
 * while the event loop is past its bound, logged as load shedding; null otherwise.
 */
export function shedAtTheDoor(
  method: string | undefined,
  target: string | undefined,
  bound: HeavyWorkBound,
): Response | null {
  const heavy = heavyRequestKind(method, target);
  if (!heavy) return null;
  try {
    shedWhileBusy(heavy.kind, bound);
    return null;
  } catch (err) {
    const answer = errorResponse(err);
    return heavy.v1 ? setCorsHeaders(answer) : answer;
  }
}
