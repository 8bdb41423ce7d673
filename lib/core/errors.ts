import {
  DATABASE_RETRY_AFTER_SECONDS,
  isClientHangUp,
  isDatabaseUnavailable,
  isPoolBusy,
} from '@/lib/core/database-errors';
import { logger } from '@/lib/observability/logger';

/**
 * The one error type (DESIGN.md "Errors"): domain code throws AppError with a code; the one
 * code → status table below gives its HTTP status. It lives in the bottom ring (lib/core) so that
 * every feature can throw it without importing the HTTP ring (which imports them).
 * lib/http/error-response.ts turns anything thrown into the one envelope.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_tag: 400,
  /** A payout wallet SOL sent to would be lost; `reason` says why (lib/chain/payout-safety.ts). */
  unsafe_payout: 400,
  /**
   * A payment request in an asset the payee cannot keep: a mint that is not SOL, a well-known
   * stablecoin or the payee's own token, or a Token-2022 mint with an extension that can take,
   * withhold or freeze the payment (`reason` names it; lib/chain/mint-account.ts).
   */
  unsupported_asset: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  /** POST /v1/register: the tag looks like an active verified or merchant tag (lib/core/skeleton.ts). */
  lookalike: 409,
  /** POST /v1/register: the tag was released and rests (30 days) for its previous owner; `until` says when it ends. */
  quarantined: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  /** The Solana RPC provider kept answering 429 until the request's deadline. */
  rpc_rate_limited: 503,
  /** This instance is at its bound of expensive work, or its database pool is busy: load shed, nothing is down (lib/http/heavy-work.ts). */
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the envelope's `error`, beside code and message (a reverse 404's `reason`, a look-alike's `tag`). */
    readonly details: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** The same error answering with more headers (e.g. a rate limit's), its own winning. */
  withHeaders(headers: Record<string, string>): AppError {
    return new AppError(this.code, this.message, { ...headers, ...this.headers }, this.details);
  }
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string } & Record<string, string>;
}

/** The 503 for a database that cannot answer right now (down, unreachable, a deadline passed). */
export function databaseUnavailable(): AppError {
  return new AppError('service_unavailable', 'The service is briefly unavailable; try again shortly.', {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });
}

/** Seconds a caller is told to wait when this instance sheds load. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/** The 503 of load shedding: the instance is busy, nothing is down; a retry soon (or on another instance) will do. */
export function overloaded(): AppError {
  return new AppError('overloaded', 'The service is busy; try again shortly.', {
    'Retry-After': String(OVERLOADED_RETRY_AFTER_SECONDS),
  });
}

/** A failure that is no bug: how to recognise it, the warning to log, the AppError to answer. */
export interface KnownFailure {
  is: (err: unknown) => boolean;
  warning: string;
  answer: () => AppError;
}

/** The AppError of the first of `failures` that `err` is, its warning logged; null when it is none of them. */
export function answerKnownFailure(err: unknown, failures: readonly KnownFailure[]): AppError | null {
  const known = failures.find(({ is }) => is(err));
  if (!known) return null;
  logger.warn({ err }, known.warning);
  return known.answer();
}

/** What toAppError recognises, in this order: a client's hang-up, load (not an outage), an outage. */
const SERVICE_FAILURES: readonly KnownFailure[] = [
  {
    is: isClientHangUp,
    warning: 'client hung up',
    answer: () => new AppError('invalid_request', 'The request ended before it was complete.'),
  },
  { is: isPoolBusy, warning: 'load shedding: every database connection of the pool is busy', answer: overloaded },
  { is: isDatabaseUnavailable, warning: 'database unavailable', answer: databaseUnavailable },
];

/**
 * Anything thrown → the AppError to answer: itself, a 400 for a client that hung up, a 503
 * `overloaded` for a pool whose connections are all busy (a warning: load, not an outage), a
 * 503 for a database outage, else a generic 500 (the detail goes to the log, never to the client).
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const known = answerKnownFailure(err, SERVICE_FAILURES);
  if (known) return known;
  logger.error({ err }, 'unhandled error');
  return new AppError('internal_error', 'Something went wrong on our side.');
}
