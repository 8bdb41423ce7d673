/**
 * The one error type and envelope (DESIGN.md "Errors"): domain code throws AppError with a
 * code; `errorResponse` turns anything into `{ error: { code, message } }` with the status of
 * the one code → status table. Unknown errors become a generic 500; the detail goes to the log.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_tag: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
}

export function errorResponse(err: unknown): Response {
  const known =
    err instanceof AppError ? err : new AppError('internal_error', 'Something went wrong on our side.');
  if (!(err instanceof AppError)) console.error('unhandled error', err);
  const body: ErrorEnvelope = { error: { code: known.code, message: known.message } };
  return Response.json(body, {
    status: known.status,
    headers: { 'Cache-Control': 'no-store', ...known.headers },
  });
}
