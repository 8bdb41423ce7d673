import { toAppError, type ErrorEnvelope } from '@/lib/core/errors';

/**
 * The one place anything thrown becomes an HTTP answer: `{ error: { code, message } }` with
 * the status of lib/core/errors.ts's table and the error's headers, never cached. withApi calls it
 * for every /v1 handler; next-auth's body guard and the 405/404 of unknown methods and paths
 * answer through it too.
 */
export function errorResponse(err: unknown): Response {
  const known = toAppError(err);
  const body: ErrorEnvelope = { error: { code: known.code, message: known.message, ...known.details } };
  return Response.json(body, {
    status: known.status,
    headers: { 'Cache-Control': 'no-store', ...known.headers },
  });
}
