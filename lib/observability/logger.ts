import pino, { type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './request-context';
import { REDACTED, REDACTED_FIELDS, scrub } from './scrub';

/*
 * The server's log: one JSON object a line on stdout (README "Operating the service", "Logs").
 * Every line written while a request is served carries its `requestId` (the X-Request-Id
 * its answer returns), found through AsyncLocalStorage, so lib/ code logs without being
 * handed the request. Secrets never reach a line: fields by name are redacted, free text is
 * scrubbed (./scrub.ts).
 */

export type { Logger } from 'pino';

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

/** A logger writing to `destination` (stdout by default; tests pass a stream of their own). */
export function createLogger(destination?: DestinationStream): Logger {
  return pino(
    {
      level: process.env.LOG_LEVEL || 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
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
    // written as lines come, off the request's path (a write in flight gathers the next ones)
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

// One per process, on globalThis: Next.js gives each route's chunk its own module state.
const SLOT = Symbol.for('identity-tag-service.logger');
const holder = globalThis as unknown as Record<symbol, Logger | undefined>;

/** The process's logger. */
export const logger: Logger = (holder[SLOT] ??= createLogger());

