import { NextResponse, type NextRequest } from 'next/server';
import { randomBytes } from 'node:crypto';
import { invalidPercentEncoding } from '@/lib/http/invalid-percent-encoding';
import { nonCanonicalTargetResponse } from '@/lib/http/request-target';
import { getConfig } from '@/lib/core/config';
import { SERVER_ACTION_BODY_LIMIT_BYTES, SERVER_ACTION_TOO_LARGE_MESSAGE } from '@/lib/web/shared/request-limits';
import { pagePolicyOf, pageSecurityHeaders, type SecurityPolicyInput } from '@/lib/web/server/security-headers';

/**
 * In front of the app's routes (matcher below):
 * 0. A request target written non-canonically (lib/http/request-target.ts): 400 in the envelope.
 *    What Next.js hands a proxy is already normalised (dot segments resolved, a backslash made a
 *    slash, the fragment dropped), so what is left to see here is an encoded slash or backslash;
 *    `npm start`'s server sees the raw target and refuses every form (scripts/serve.ts).
 * 1. Paths whose percent-escapes do not decode (e.g. `/v1/identity/ali%FFce`): 400 in the
 *    envelope (Next.js would answer a plain-text 500 before any route handler runs), with
 *    the Action's headers on its paths.
 * 2. Server actions over their body limit, by Content-Length: a plain-text 413, which
 *    Next.js's client turns into the error the form shows (what Next.js itself answers is
 *    a bare 500).
 * 3. The App Router's pages: a fresh nonce per request in the page's CSP, on the request
 *    (Next.js reads it there and puts it on every script it writes) and on the answer
 *    (Next.js's documented nonce CSP). The same in every deployment shape; /@tag is not
 *    matched (its handler has no inline script and sends its own fixed CSP).
 */
export async function proxy(request: NextRequest): Promise<Response | undefined> {
  const nonCanonical = await nonCanonicalTargetResponse(request.url.slice(request.nextUrl.origin.length));
  if (nonCanonical) return nonCanonical;
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return invalidPercentEncoding(request.nextUrl.pathname);
  }
  if (request.method === 'POST' && request.headers.has('next-action')) {
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > SERVER_ACTION_BODY_LIMIT_BYTES) {
      return new Response(SERVER_ACTION_TOO_LARGE_MESSAGE, {
        status: 413,
        headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
      });
    }
    return undefined;
  }
  return rendersAppPage(request.nextUrl.pathname) ? withNonceCsp(request) : undefined;
}

/** Paths that reach an App Router page (the percent matcher lets others through too). */
function rendersAppPage(pathname: string): boolean {
  return !/^\/(?:_next\/|v1\/|api\/|\.well-known\/|@|%40|profile\/[^/]+\/opengraph-image$)/i.test(pathname);
}

function withNonceCsp(request: NextRequest): Response {
  const nonce = randomBytes(16).toString('base64');
  const pageHeaders = pageSecurityHeaders(pagePolicy(), nonce);
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', pageHeaders['Content-Security-Policy']!);
  const response = NextResponse.next({ request: { headers } });
  for (const [name, value] of Object.entries(pageHeaders)) response.headers.set(name, value);
  return response;
}

/** The process's page policy, built once (the configuration does not change while it runs). */
let policy: SecurityPolicyInput | undefined;

function pagePolicy(): SecurityPolicyInput {
  policy ??= pagePolicyOf(getConfig());
  return policy;
}

export const config = {
  matcher: [
    // Any path with a percent sign (/v1 included), and every page of the App Router: not
    // assets, APIs, /.well-known, /@tag and its image (route handlers with a CSP of their own).
    '/(.*%.*)',
    '/((?!_next/|v1/|api/|\\.well-known/|@|profile/[^/]+/opengraph-image|site\\.css|profile\\.js|favicon\\.ico|icon\\.svg|icon-\\d+\\.png|apple-touch-icon\\.png|manifest\\.webmanifest|robots\\.txt).*)',
  ],
};
