import { createHash } from 'node:crypto';

/*
 * The security headers of every response, in one place (README "Security").
 *
 * Pages: a Content-Security-Policy whose script-src lists the SHA-256 of each inline script
 * of that very document, and 'self' for the bundles: no 'unsafe-inline', no nonce. Next.js
 * inlines the RSC payload of each page as `<script>self.__next_f.push(…)</script>` (plus a
 * bootstrap or two), whose text differs from page to page and, for a cached page, from one
 * revalidation to the next. A nonce would make every page render per request; hashes of the
 * finished HTML keep static and revalidated pages cacheable, because they are computed from
 * the HTML actually sent, wherever it came from (prerender, cache, render).
 * `pageSecurityHeaders(html, …)` does that; scripts/serve.ts applies it to every HTML answer
 * of `npm start`, and proxy.ts wherever the app runs without that server (Vercel).
 *
 * Everything else (JSON, images, scripts) gets the same headers with a CSP that allows
 * nothing: a browser that renders an API answer as a document runs nothing and frames nothing.
 */

export interface SecurityPolicyInput {
  /** APP_URL: HSTS when it is https. */
  appUrl: URL;
  /** The RPC endpoint browsers talk to (http(s) and its ws(s) PubSub twin go in connect-src). */
  publicRpcUrl: string | undefined;
  /** `next dev`: React's dev build needs eval (never in production). */
  dev?: boolean;
}

/** Where pages may connect: the app itself and the Solana RPC endpoint the browser is given. */
export function rpcOrigins(publicRpcUrl: string | undefined): string[] {
  if (!publicRpcUrl) return [];
  let url: URL;
  try {
    url = new URL(publicRpcUrl);
  } catch {
    return [];
  }
  const http = url.origin;
  // web3.js opens its PubSub socket on the same host, port + 1 for an explicit port.
  const ws = new URL(url.href);
  ws.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port) ws.port = String(Number(url.port) + 1);
  const sameHostWs = new URL(url.href);
  sameHostWs.protocol = ws.protocol;
  return [...new Set([http, ws.origin, sameHostWs.origin])];
}

/** The headers every response carries, whatever it is (next.config.ts `headers()`). */
export function baseSecurityHeaders(input: Pick<SecurityPolicyInput, 'appUrl'>): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
  };
  if (input.appUrl.protocol === 'https:') headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains';
  return headers;
}

/** The CSP of everything that is not a page: nothing may run, load or frame it. */
export const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * A page's CSP, scripts allowed by hash (`scriptHashes`: 'sha256-…' sources of the page's
 * inline scripts) and from the app's own origin. Styles allow 'unsafe-inline': React sets
 * style attributes and the wallet modal injects styles; CSS cannot run script.
 */
function pageContentSecurityPolicy(input: SecurityPolicyInput, scriptHashes: readonly string[]): string {
  const script = ["'self'", ...scriptHashes.map((h) => `'${h}'`), ...(input.dev ? ["'unsafe-eval'"] : [])];
  const directives = [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${["'self'", ...rpcOrigins(input.publicRpcUrl), ...(input.dev ? ['ws:'] : [])].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'self'",
    "manifest-src 'self'",
  ];
  if (input.appUrl.protocol === 'https:') directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** The 'sha256-…' source of every inline script (no `src`) of an HTML document, in order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1]!;
    if (/\ssrc\s*=/i.test(attributes)) continue;
    // Data blocks (JSON-LD, import maps are scripts) are not run: only JavaScript needs a hash.
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'text/javascript' && type !== 'module' && type !== 'application/javascript') continue;
    // The HTML parser turns CR LF and lone CR into LF before the browser hashes the text.
    const text = match[2]!.replace(/\r\n?/g, '\n');
    hashes.add(`sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`);
  }
  return [...hashes];
}

/** The headers of one HTML page: the base headers and the CSP made for its own inline scripts. */
export function pageSecurityHeaders(html: string, input: SecurityPolicyInput): Record<string, string> {
  return { ...baseSecurityHeaders(input), 'Content-Security-Policy': pageContentSecurityPolicy(input, inlineScriptHashes(html)) };
}
