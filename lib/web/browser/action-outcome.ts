import 'client-only';
/**
 * The browser's side of a server action's answer. Actions answer with values, never by
 * throwing (a thrown error reaches a production browser without its message): the data, or
 * the body of the error envelope. Components get actions as props from their page, typed
 * with this shape, so they import nothing from app/.
 */
import { ServiceError } from './client-errors';

/** `Code`: lib/web/server/server-action.ts narrows it to the envelope's codes; the browser reads any string. */
export type ActionOutcome<T, Code extends string = string> =
  { ok: true; data: T } | { ok: false; error: { code: Code; message: string } };

/** The action's data, or its error as a ServiceError (classified by its envelope code). */
export function unwrapAction<T>(outcome: ActionOutcome<T>): T {
  if (outcome.ok) return outcome.data;
  throw new ServiceError(outcome.error.code, outcome.error.message);
}
