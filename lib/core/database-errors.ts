/** Seconds a client is told to wait when the database cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// SQLSTATE classes and codes that mean "not now" rather than "wrong": connection exceptions
// (08), operator intervention (57: query_canceled by statement_timeout, admin shutdown,
// cannot connect now), insufficient resources (53: too many connections), lock_not_available.
const UNAVAILABLE_SQLSTATE = /^(08|53|57)...$|^55P03$/;
// Driver-side failures: no server to talk to, a connection that dropped, a pool or client
// deadline (lib/db/client.ts) that ran out.
// A pool waiting for one of its own connections is not one of them: see isPoolBusy.
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/**
 * pg-pool's error for a wait in its queue that outlived POOL_ACQUIRE_TIMEOUT_MS (lib/db/client.ts):
 * every connection was busy with other requests. Opening a connection that times out fails
 * with "Connection terminated due to connection timeout" instead, so this one means load.
 */
const POOL_QUEUE_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * Whether an error is a pool that was merely busy: all its connections in use for longer than
 * a caller may wait. The database answers; this instance has more work than connections.
 * Answered 503 `overloaded` and logged as load shedding, never as an outage: anyone can keep a
 * pool busy, and must not be able to set off the operator's database alert by it.
 */
export function isPoolBusy(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const { message, cause } = err as { message?: unknown; cause?: unknown };
  if (message === POOL_QUEUE_TIMEOUT) return true;
  return isPoolBusy(cause, depth + 1);
}

/**
 * Whether an error means the database cannot answer right now (down, unreachable, a deadline
 * ran out, a lock held too long), as opposed to a bug or a constraint: the caller answers 503
 * with Retry-After instead of 500. Looks through `cause` (drizzle wraps driver errors) and
 * AggregateError (a failed connect to each of several addresses).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (isClientHangUp(err) || isPoolBusy(err)) return false;
  const { code, message, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_MESSAGE.test(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/**
 * Node's error for a request whose client closed the connection before its body ended
 * (`aborted`, with code ECONNRESET like a dropped database socket, but no system call: the
 * driver's resets come from a socket read or write). It is the client's doing, never the
 * database's: counting it as an outage would let anyone raise the operator's alarm at will.
 */
export function isClientHangUp(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message, syscall } = err as { code?: unknown; message?: unknown; syscall?: unknown };
  return message === 'aborted' && code === 'ECONNRESET' && syscall === undefined;
}
