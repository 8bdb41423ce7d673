import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { currentRequestId } from './request-context';
import { REDACTED, REDACTED_FIELDS, scrub } from './scrub';

/*
 * The server's log: one JSON object a line on stdout (README "Operating the service", "Logs").
 * Two loggers write to it:
 * - `logger`, for what lib/ code logs: every line written while a request is served carries
 *   its `requestId` (the X-Request-Id its answer returns), found through the request context,
 *   so lib/ code logs without being handed the request; secrets never reach a line: fields by
 *   name are redacted, free text is scrubbed (./scrub.ts). These lines are few (warnings,
 *   errors), so what that costs does not matter.
 * - `requestLog`, for the one line each request ends with (./observe-request.ts), written on
 *   every request, so it does none of that: its fields are built there from values that hold
 *   no secret (a route, a method, a status, a duration, an id) or are scrubbed there (the path).
 */

export type { Logger } from 'pino';

/** The process's two loggers (see above), on one destination. */
export interface Logs {
  logger: Logger;
  requestLog: Logger;
}

/** An error as a log field: type, message, code, stack, and what caused it (drizzle wraps the driver's error), scrubbed. */
function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: scrub(String(err)) };
  const { code, cause } = err as { code?: unknown; cause?: unknown };
  return {
    type: err.name,
    message: scrub(err.message),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(err.stack ? { stack: scrub(err.stack) } : {}),
    ...(cause !== undefined && depth < 3 ? { cause: serializeError(cause, depth + 1) } : {}),
  };
}

/*
 * pino's `time` field, ISO 8601, cheaply: Next.js wraps Date.now and new Date() (to find
 * prerenders that read the clock), which made the stock ISO timestamp a visible part of each
 * request line's cost. The wall clock is read once a second (so a clock that is stepped is
 * followed within one), performance's clock in between, and the text is made once a millisecond.
 */
let wallClockReadAt = -Infinity;
let wallClockOffset = 0;
let lastMs = -1;
let lastTime = '';
function isoTimeNow(): string {
  const now = performance.now();
  if (now - wallClockReadAt > 1000) {
    wallClockReadAt = now;
    wallClockOffset = Date.now() - now;
  }
  const ms = Math.floor(wallClockOffset + now);
  if (ms !== lastMs) {
    lastMs = ms;
    lastTime = `,"time":"${new Date(ms).toISOString()}"`;
  }
  return lastTime;
}

/** What every line has: level as its name, an ISO time, LOG_LEVEL. */
function lineOptions(): LoggerOptions {
  return {
    level: process.env.LOG_LEVEL || 'info',
    timestamp: isoTimeNow,
    formatters: { level: (label) => ({ level: label }) },
  };
}

/** The loggers writing to `destination` (stdout by default; tests pass a stream of their own). */
export function createLogs(destination?: DestinationStream): Logs {
  // written as lines come, off the request's path (a write in flight gathers the next ones)
  const out = destination ?? pino.destination({ dest: 1, sync: false });
  const logger = pino(
    {
      ...lineOptions(),
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      redact: { paths: REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`]), censor: REDACTED },
      serializers: { err: (err: unknown) => serializeError(err) },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as Parameters<typeof method>);
        },
      },
    },
    out,
  );
  return { logger, requestLog: pino(lineOptions(), out) };
}

// One pair per process, on globalThis: Next.js gives each route's chunk its own module state.
const SLOT = Symbol.for('identity-tag-service.logs');
const holder = globalThis as unknown as Record<symbol, Logs | undefined>;
const logs = (holder[SLOT] ??= createLogs());

/** The process's logger (see above). */
export const logger: Logger = logs.logger;

/** The process's per-request line (./observe-request.ts only). */
export const requestLog: Logger = logs.requestLog;
