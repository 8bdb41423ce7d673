import { actionErrorResponse, isActionPath } from '@/lib/features/payments/action-answer';
import { setCorsHeaders } from './cors';

/**
 * The 400 of a path whose percent-escapes do not decode (proxy.ts answers it: Next.js would
 * answer a plain-text 500 before any route ran), in the envelope; on the Action's paths with
 * the Action's headers and `message`, as the Action answers every error.
 */
export async function invalidPercentEncoding(pathname: string): Promise<Response> {
  const error = { code: 'invalid_request', message: 'The path has an invalid percent-encoding.' } as const;
  if (isActionPath(pathname)) return actionErrorResponse(400, error);
  return setCorsHeaders(Response.json({ error }, { status: 400, headers: { 'Cache-Control': 'no-store' } }));
}
