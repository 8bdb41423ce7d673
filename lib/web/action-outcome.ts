/**
 * The browser's side of a server action's answer. Actions answer with values, never by
 * throwing (a thrown error reaches a production browser without its message): the data, or
 * the body of the error envelope. Components get actions as props from their page, typed
 * with this shape, so they import nothing from app/.
 */
import { ServiceError } from './client-errors';

export type ActionOutcome<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

/** The action's data, or its error as a ServiceError (classified by its envelope code). */
export function unwrapAction<T>(outcome: ActionOutcome<T>): T {
  if (outcome.ok) return outcome.data;
  throw new ServiceError(outcome.error.code, outcome.error.message);
}
