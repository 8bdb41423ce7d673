import { AppError } from '@/lib/core/errors';
import { errorResponse } from './error-response';
import { allowOf, HTTP_METHODS } from './cors';
import { methodNotAllowed } from './other-methods';

/**
 * Requests no route of the app serves, answered before Next.js sees them (scripts/serve.ts):
 * Next.js answers a TRACE, and a request target that is not a path (`OPTIONS *`, the
 * asterisk form), with a plain-text 500. Here they get a 4xx in the envelope. TRACE would echo
 * the request back, cookies included, so no path serves it.
 */
export function unservedRequest(method: string | undefined, target: string | undefined): Response | null {
  if (method === 'TRACE' || method === 'TRACK') return methodNotAllowed(method, allowOf([...HTTP_METHODS]));
  if (target === '*')
    return errorResponse(new AppError('invalid_request', 'The request target `*` is not served: name a path.'));
  return null;
}
