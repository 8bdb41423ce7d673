/**
 * Request body limits outside /v1 (whose routes pass theirs to readJson), in one place for
 * the code that enforces them and next.config.ts.
 */

/**
 * Server actions: the largest form, the profile, sends about 4 KB at its field limits. Over
 * it, proxy.ts answers a plain-text 413 that the form shows as its error.
 */
export const SERVER_ACTION_BODY_LIMIT_BYTES = 16 * 1024;

/** next-auth (/api/auth/*): a CSRF token, a public key, a sign-in message and a signature. */
export const AUTH_BODY_LIMIT_BYTES = 16 * 1024;

/** What the form shows when its action is refused for size. */
export const SERVER_ACTION_TOO_LARGE_MESSAGE = `The form is too large to send (at most ${SERVER_ACTION_BODY_LIMIT_BYTES / 1024} KB). Shorten a field and try again.`;

/**
 * What a form says when its server action did not answer with a result: the server's own
 * words when it refused the body for size (proxy.ts's plain-text 413, which Next.js's client
 * raises as the error's message), else that the server could not be reached.
 */
export function actionFailureMessage(err: unknown): string {
  if (err instanceof Error && err.message === SERVER_ACTION_TOO_LARGE_MESSAGE) return err.message;
  return 'Could not reach the server. Try again.';
}
