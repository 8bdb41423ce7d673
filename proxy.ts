import type { NextRequest } from 'next/server';
import { runsBehindSocketAddressServer } from '@/lib/api/client-address';
import { invalidPercentEncoding } from '@/lib/api/invalid-percent-encoding';
import { getConfig } from '@/lib/config';
import { SERVER_ACTION_BODY_LIMIT_BYTES, SERVER_ACTION_TOO_LARGE_MESSAGE } from '@/lib/web/request-limits';
import { headersOfBody } from '@/lib/web/html-response-csp';
import type { SecurityPolicyInput } from '@/lib/web/security-headers';

/** Marks proxy.ts's own fetch of a page, so that it is answered as it is. */
const PAGE_FETCH_HEADER = 'x-tag-service-page-fetch';

/**
 * In front of the app's routes (matcher below):
 * 1. Paths whose percent-escapes do not decode (e.g. `/v1/identity/ali%FFce`): 400 in the
 *    envelope (Next.js would answer a plain-text 500 before any route handler runs), with
 *    the Action's headers on its paths.
 * 2. Server actions over their body limit, by Content-Length: a plain-text 413, which
 *    Next.js's client turns into the error the form shows (what Next.js itself answers is
 *    a bare 500).
 * 3. Pages, where no server of ours sits in front of Next.js (Vercel): the page's CSP needs
 *    the hashes of its inline scripts (lib/web/security-headers.ts), so the page is fetched
 *    (from the cache when it is cached), hashed, and sent on with its headers. Under
 *    `npm start`, scripts/serve.ts does the same without the extra fetch, and this step
 *    steps aside.
 */
export async function proxy(request: NextRequest): Promise<Response | undefined> {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return invalidPercentEncoding(request.nextUrl.pathname);
  }
  if (request.method === 'POST' && request.headers.has('next-action')) {
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > SERVER_ACTION_BODY_LIMIT_BYTES) {
      return new Response(SERVER_ACTION_TOO_LARGE_MESSAGE, { status: 413, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } });
    }
    return undefined;
  }
  if (isDocumentRequest(request) && !runsBehindSocketAddressServer()) return withPageCsp(request);
  return undefined;
}

function isDocumentRequest(request: NextRequest): boolean {
  if (request.method !== 'GET' || request.headers.has(PAGE_FETCH_HEADER)) return false;
  if (request.headers.has('rsc') || request.headers.has('next-router-prefetch')) return false; // RSC payloads, not documents
  if (request.nextUrl.pathname.startsWith('/v1/') || request.nextUrl.pathname.startsWith('/api/')) return false;
  return (request.headers.get('accept') ?? '').includes('text/html');
}

async function withPageCsp(request: NextRequest): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.set(PAGE_FETCH_HEADER, '1');
  headers.set('accept-encoding', 'identity');
  const page = await fetch(request.nextUrl.href, { headers, redirect: 'manual', cache: 'no-store' });
  const type = page.headers.get('content-type') ?? '';
  // Not a page, or a 304 (whose headers the browser merges into its copy's: no hashes here).
  if (!type.startsWith('text/html') || page.status === 304) return new Response(page.body, { status: page.status, headers: page.headers });
  const html = await page.text();
  const out = new Headers(page.headers);
  out.delete('content-length');
  out.delete('content-encoding');
  for (const [name, value] of Object.entries(headersOfBody(Buffer.from(html), pagePolicy()))) out.set(name, value);
  return new Response(html, { status: page.status, headers: out });
}

/** The process's page policy, built once (the configuration does not change while it runs). */
let policy: SecurityPolicyInput | undefined;

function pagePolicy(): SecurityPolicyInput {
  if (!policy) {
    const config = getConfig();
    policy = { appUrl: config.appUrl, publicRpcUrl: config.solana.publicRpcUrl, dev: config.env === 'development' };
  }
  return policy;
}

export const config = {
  matcher: [
    // Any path with a percent sign (/v1 included), and every page path (not assets, not APIs).
    '/(.*%.*)',
    '/((?!_next/|v1/|api/|favicon\\.ico).*)',
  ],
};
