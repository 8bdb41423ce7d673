import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { currentRequestId } from './request-context';
import { REDACTED, REDACTED_FIELDS, scrub } from './scrub';

/*
 * The server's log: one JSON object a line on stdout (docs/operating.md, "Logs").
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
 * pino's `time` field, ISO 8601, cheaply: Next.js wraps Date.now and the Date constructor (to
 * find prerenders that read the clock), which made the stock ISO timestamp a visible part of
 * each request line's cost. The wall clock is read once a second (so a clock that is stepped
 * is followed within one), performance's clock in between; the date and time are formatted
 * once a second, the milliseconds appended.
 */
let wallClockReadAt = -Infinity;
let wallClockOffset = 0;
let lastSecond = -1;
let secondText = '';
function isoTimeNow(): string {
  const now = performance.now();
  if (now - wallClockReadAt > 1000) {
    wallClockReadAt = now;
    wallClockOffset = Date.now() - now;
  }
  const ms = Math.floor(wallClockOffset + now);
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    secondText = `,"time":"${new Date(second * 1000).toISOString().slice(0, 20)}`; // …T02:18:21.
  }
  return `${secondText}${String(ms - second * 1000).padStart(3, '0')}Z"`;
}

/** What every line has: level as its name, an ISO time, LOG_LEVEL. */
function lineOptions(): LoggerOptions {
  return {
    level: process.env.LOG_LEVEL || 'info',
    timestamp: isoTimeNow,
    formatters: { level: (label) => ({ level: label }) },
  };
}

/*
 * How lines reach stdout: pino's own destination (SonicBoom), written without waiting. A
 * server that stays up (`npm start`, or any `next start` of our own) buffers them and writes
 * 4 KB at a time, and what it holds at least every 100 ms, so a quiet server's line is out
 * within that; pino writes what is buffered synchronously when the process exits, after an
 * uncaught exception too, and `flushLogs` waits for it before a planned exit. On Vercel
 * (VERCEL set) each line is written as it comes: a function may be frozen right after its
 * answer, and must not hold its lines.
 */
export const STDOUT_BUFFERED = { dest: 1, sync: false, minLength: 4096, periodicFlush: 100 } as const;
export const STDOUT_LINE_BY_LINE = { dest: 1, sync: false } as const;

/** pino.destination's options for stdout under `env` (see above). */
export function stdoutOptions(
  env: { VERCEL?: string } = process.env,
): typeof STDOUT_BUFFERED | typeof STDOUT_LINE_BY_LINE {
  return env.VERCEL ? STDOUT_LINE_BY_LINE : STDOUT_BUFFERED;
}

/** The loggers writing to `destination` (stdout by default; tests pass a stream of their own). */
export function createLogs(destination?: DestinationStream): Logs {
  const out = destination ?? pino.destination({ ...stdoutOptions() });
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
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as Parameters<typeof method>,
          );
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

/** Resolves once every line logged so far is written (before a planned exit). */
export function flushLogs(): Promise<void> {
  return new Promise((resolve) => logs.logger.flush(() => resolve()));
}
