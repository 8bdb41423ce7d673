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
const HEAVY_REQUESTS: ReadonlyArray<{ methods: readonly string[]; path: RegExp; kind: string }> = [
  { methods: ['GET', 'HEAD'], path: /^\/v1\/events\/?$/, kind: 'feed' },
  { methods: ['GET', 'HEAD'], path: /^\/profile\/[^/]+\/opengraph-image\/?$/, kind: 'og image' },
  { methods: ['POST'], path: /^\/v1\/resolve\/?$/, kind: 'resolve batch' },
  { methods: ['POST'], path: /^\/v1\/reverse\/?$/, kind: 'reverse batch' },
];

/** The kind of heavy work a request is, or null for any other request. */
export function heavyRequestKind(method: string | undefined, target: string | undefined): string | null {
  if (!method || !target) return null;
  const path = target.split('?', 1)[0]!;
  return HEAVY_REQUESTS.find((h) => h.methods.includes(method) && h.path.test(path))?.kind ?? null;
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
  const kind = heavyRequestKind(method, target);
  if (!kind) return null;
  try {
    shedWhileBusy(kind, bound);
    return null;
  } catch (err) {
    const answer = errorResponse(err);
    return target!.startsWith('/v1/') ? setCorsHeaders(answer) : answer;
  }
}
