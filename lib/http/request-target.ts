import { actionErrorResponse, isActionPath } from '@/lib/features/payments/action-answer';
import { setCorsHeaders } from './cors';

/*
 * One door for every request (issue 42): a request target whose path has a dot segment (`.` or
 * `..`, plain or percent-encoded), an encoded slash or backslash (`%2F`, `%5C`), a raw backslash,
 * or a fragment is refused with 400 before routing. Next.js normalises such a path (WHATWG URL:
 * `/v1/./events`, `/v1/x/../events` and `/v1/%2e/events` all become `/v1/events`, and a backslash
 * a slash) and serves it, while everything that judges a request by its path before Next.js
 * does (the door's heavy table, lib/http/heavy-requests.ts) sees the raw text: two readings of
 * one request, and an attacker picks the one that suits them. A client that means `/v1/events`
 * sends `/v1/events`; nothing legitimate needs these forms, and a fragment is never sent at all.
 *
 * `npm start`'s server checks the raw target (scripts/serve.ts); under a bare `next start`,
 * proxy.ts checks what Next.js hands it.
 */

/** `.` or `..`, each dot plain or `%2e` in any case. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
const ENCODED_SEPARATOR = /%(?:2f|5c)/i;

/** Why a request target's path cannot be served as written, or null when it can. */
export function nonCanonicalTarget(target: string): string | null {
  if (target.includes('#')) return 'The request target has a fragment (`#`): send the path without it.';
  const path = target.split('?', 1)[0]!;
  if (path.split('/').some((segment) => DOT_SEGMENT.test(segment)))
    return 'The path has a dot segment (`.` or `..`, plain or percent-encoded): send the path it stands for.';
  if (ENCODED_SEPARATOR.test(path) || path.includes('\\'))
    return 'The path has an encoded slash or a backslash (`%2F`, `%5C`, `\\`): a segment cannot contain one.';
  return null;
}

/**
 * The 400 `invalid_request` of a non-canonical target (the envelope, CORS-open; on the Action's
 * paths with the Action's headers and `message`, as the Action answers every error), or null.
 */
export async function nonCanonicalTargetResponse(target: string): Promise<Response | null> {
  const message = nonCanonicalTarget(target);
  if (!message) return null;
  const error = { code: 'invalid_request', message } as const;
  const path = target.split(/[?#]/, 1)[0]!;
  if (isActionPath(path)) return actionErrorResponse(400, error);
  return setCorsHeaders(Response.json({ error }, { status: 400, headers: { 'Cache-Control': 'no-store' } }));
}
