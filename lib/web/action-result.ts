import { AppError, type ErrorCode } from '@/lib/errors';

/**
 * What a server action returns. Errors travel as values: a thrown error reaches the browser
 * of a production build without its message, and the pages need the code to react.
 */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: ActionError };

export interface ActionError {
  code: ErrorCode;
  message: string;
}

/** Runs a server action body; an AppError becomes its code and message, anything else a generic 500. */
export async function runAction<T>(body: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await body() };
  } catch (err) {
    return { ok: false, error: toActionError(err) };
  }
}

export function toActionError(err: unknown): ActionError {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  console.error('server action failed', err);
  return { code: 'internal_error', message: 'Something went wrong on our side.' };
}
