import { randomUUID } from 'node:crypto';
import { logger, requestLog } from './logger';
import { recordRequest } from './metrics';
import { withRequestId } from './request-context';
import { pathnameOf, routeLabel } from './route-label';
import { scrub } from './scrub';

/*
 * What every /v1 and /api request goes through once, from the one wrapper its handler has
 * (lib/http/handler.ts withApi; /api/health calls it directly): a request id, returned as
 * X-Request-Id and on every log line written while the request is served; its count and
 * latency under its route and status; one log line when it is answered.
 *
 * OBSERVABILITY=off turns all of it off (no id, no metrics, no request line): the benchmark
 * measures what it costs by serving the same build with and without it.
 */

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An id a proxy in front already gave the request is kept, so its logs and ours meet; only
 * a plain token that quotes no secret is taken (it lands in our logs and headers), anything
 * else gets a new one.
 */
const ACCEPTED_REQUEST_ID = /^[\w.:-]{8,128}$/;

const observing = process.env.OBSERVABILITY !== 'off';

/** Whether requests are being observed in this process (OBSERVABILITY is not `off`). */
export function isObserving(): boolean {
  return observing;
}

/**
 * Serves `req` with `answer`, observed (see above), under `route` (a /v1 route's declared
 * path), else the route its URL matches (./route-label.ts). `answer` must not throw: withApi
 * answers every error.
 */
export function observeRequest(
  req: Request,
  route: string | undefined,
  answer: () => Promise<Response>,
): Promise<Response> {
  if (!observing) return answer();
  const started = performance.now();
  const given = req.headers.get(REQUEST_ID_HEADER);
  const requestId = given && ACCEPTED_REQUEST_ID.test(given) && scrub(given) === given ? given : randomUUID();
  // one `then` rather than an async function's await: every promise costs each of Next.js's stores
  return withRequestId(requestId, answer).then(
    (response) => {
      const answered = withHeader(response, REQUEST_ID_HEADER, requestId);
      finish(req.method, req.url, route, requestId, answered.status, started);
      return answered;
    },
    (err: unknown) => {
      finish(req.method, req.url, route, requestId, 500, started, err);
      throw err;
    },
  );
}

/**
 * Counts the request and writes its line. The line is built here from fields that hold no
 * secret, the path (the client's own text) scrubbed, so it goes to the lean requestLog; a
 * failure's line carries the error, and goes through the logger that scrubs it (./logger.ts).
 */
function finish(
  method: string,
  url: string,
  declared: string | undefined,
  requestId: string,
  status: number,
  started: number,
  err?: unknown,
): void {
  const durationMs = performance.now() - started;
  const path = pathnameOf(url);
  const route = declared ?? routeLabel(path);
  recordRequest(route, method, status, durationMs / 1000);
  const line = { requestId, method, route, path: scrub(path), status, durationMs: Math.round(durationMs * 10) / 10 };
  if (status >= 500 || err !== undefined) logger.error(err === undefined ? line : { ...line, err }, 'request');
  else if (status < 400 && isRoutineTick(route)) requestLog.debug(line, 'request');
  else requestLog.info(line, 'request');
}

/**
 * The scheduler's calls of the cron routes (every second for webhooks under `npm start`): a
 * routine tick is a debug line, or it would bury everything else; a refused or failed one stays
 * loud (info for a 4xx, error for a 5xx).
 */
function isRoutineTick(route: string): boolean {
  return route.startsWith('/api/cron/');
}

/** `response` with `name` set; a response whose headers are frozen (a fetched one) is copied first. */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}
