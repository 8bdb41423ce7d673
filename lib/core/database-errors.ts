/** Seconds a client is told to wait when the database cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// SQLSTATE classes and codes that mean "not now" rather than "wrong": connection exceptions
// (08), operator intervention (57: query_canceled by statement_timeout, admin shutdown,
// cannot connect now), insufficient resources (53: too many connections), lock_not_available.
const UNAVAILABLE_SQLSTATE = /^(08|53|57)...$|^55P03$/;
// Driver-side failures: no server to talk to, a connection that dropped, a pool or client
// deadline (lib/db/client.ts) that ran out.
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|timeout exceeded when trying to connect|Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/**
 * Whether an error means the database cannot answer right now (down, unreachable, a deadline
 * ran out, a lock held too long), as opposed to a bug or a constraint: the caller answers 503
 * with Retry-After instead of 500. Looks through `cause` (drizzle wraps driver errors) and
 * AggregateError (a failed connect to each of several addresses).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (isClientHangUp(err)) return false;
  const { code, message, cause, errors } = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
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
