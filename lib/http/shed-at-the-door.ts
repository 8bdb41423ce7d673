import type { HeavyWorkBound } from '@/lib/core/config';
import { setCorsHeaders } from './cors';
import { errorResponse } from './error-response';
import { shedWhileBusy } from './heavy-work';
import { heavyRequestKind } from './heavy-requests';

/*
 * Heavy requests shed by `npm start`'s own HTTP server (scripts/serve.ts) before Next.js sees
 * them, while the event loop is past its bound (lib/http/heavy-work.ts). The routes shed them
 * too, the same way, under a bare `next start` or on Vercel; but an answer that goes through
 * Next.js costs the loop several milliseconds, the 503 as much as any other, so 64 feed readers
 * being shed there kept the loop busy with shedding alone: every heavy request was shed, and
 * health waited behind the 503s (bench/starvation.ts). Here a 503 costs what node:http costs.
 */

export { heavyRequestKind };

/**
 * For a heavy request while the event loop is past its bound: 429 for the client holding the most
 * heavy work, 503 `overloaded` when the load is everyone's (each with Retry-After, in the
 * envelope, CORS on /v1; lib/http/heavy-work.ts `shedWhileBusy`); null when it may go on.
 * `client` is asked only of a heavy request.
 */
export function shedAtTheDoor(
  method: string | undefined,
  target: string | undefined,
  bound: HeavyWorkBound,
  client: () => string | undefined = () => undefined,
): Response | null {
  const kind = heavyRequestKind(method, target);
  if (!kind) return null;
  try {
    shedWhileBusy(kind, bound, client());
    return null;
  } catch (err) {
    const answer = errorResponse(err);
    return target!.startsWith('/v1/') ? setCorsHeaders(answer) : answer;
  }
}
