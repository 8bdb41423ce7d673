/**
 * Every failure the service answers, as one error class: the HTTP status and the envelope's
 * stable `code` (`not_found`, `conflict`, `rate_limited`, …). Match on `code`, never on `message`.
 */
export class TagServiceError extends Error {
  override name = 'TagServiceError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The envelope `{ error: { code, message } }`, or a stand-in when the body was not one. */
export function errorOf(status: number, body: unknown): TagServiceError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new TagServiceError(status, error.code, error.message);
  }
  return new TagServiceError(status, 'unexpected_answer', `The service answered ${status} without an error envelope.`);
}
