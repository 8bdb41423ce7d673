import { NextResponse, type NextRequest } from 'next/server';

/**
 * Refuses paths whose percent-escapes do not decode (e.g. `/v1/identity/ali%FFce`): Next.js
 * would answer them with a plain-text 500 before any route handler runs. The matcher keeps
 * every other request off this code path.
 */
export function proxy(request: NextRequest): NextResponse | undefined {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return undefined;
  } catch {
    return NextResponse.json(
      { error: { code: 'invalid_request', message: 'The path has an invalid percent-encoding.' } },
      { status: 400, headers: { 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' } },
    );
  }
}

export const config = { matcher: ['/(.*%.*)'] };
