/*
 * The security headers of every response, in one place (docs/security.md).
 *
 * Pages: a Content-Security-Policy with no 'unsafe-inline' in script-src. Two kinds of page:
 * - /@tag (app/[handle]/route.ts) has no inline script at all: `script-src 'self'`, the
 *   same for every view, so the page needs nothing per request.
 * - The App Router's pages (/, /register, /settings, not-found) inline their RSC payload:
 *   proxy.ts gives each request a nonce, which Next.js puts on every script it writes
 *   (Next.js's documented nonce CSP); those pages render per request.
 *
 * Everything else (JSON, images, scripts) gets the same headers with a CSP that allows
 * nothing: a browser that renders an API answer as a document runs nothing and frames nothing.
 *
 * Server code without the `server-only` marker: next.config.ts imports it, and Next.js loads
 * that file in plain Node, where the marker throws.
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
 * A page's CSP: scripts from the app's own origin, plus those carrying `nonce` when given.
 * Styles allow 'unsafe-inline': React sets style attributes and the wallet modal injects
 * styles; CSS cannot run script.
 */
export function pageContentSecurityPolicy(input: SecurityPolicyInput, nonce?: string): string {
  const script = ["'self'", ...(nonce ? [`'nonce-${nonce}'`] : []), ...(input.dev ? ["'unsafe-eval'"] : [])];
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

/**
 * The headers of a page: the base headers, from the running app's configuration (next.config
 * sets them too, but from the APP_URL of the build), and its CSP.
 */
export function pageSecurityHeaders(input: SecurityPolicyInput, nonce?: string): Record<string, string> {
  return { ...baseSecurityHeaders(input), 'Content-Security-Policy': pageContentSecurityPolicy(input, nonce) };
}

/** The page policy input of the running app, from its configuration. */
export function pagePolicyOf(config: {
  appUrl: URL;
  env: string;
  solana: { publicRpcUrl: string | undefined };
}): SecurityPolicyInput {
  return { appUrl: config.appUrl, publicRpcUrl: config.solana.publicRpcUrl, dev: config.env === 'development' };
}
