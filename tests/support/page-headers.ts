import { expect } from 'vitest';

/** The directives of a CSP header, by name. */
export function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

/**
 * The strict page CSP and the other security headers: no 'unsafe-inline' (nor eval) in
 * script-src, no framing; every inline script of the page carries the policy's nonce (the
 * App Router's pages), or the page has none (/@tag).
 */
export function expectStrictPageHeaders(page: { html: string; headers: Headers }, label: string): void {
  const csp = directives(page.headers.get('content-security-policy'));
  const scripts = csp.get('script-src') ?? [];
  expect(scripts, label).toContain("'self'");
  expect(scripts, label).not.toContain("'unsafe-inline'");
  expect(scripts, label).not.toContain("'unsafe-eval'");
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(csp.get('object-src'), label).toEqual(["'none'"]);
  expect(csp.get('base-uri'), label).toEqual(["'none'"]);
  expect(page.headers.get('x-frame-options'), label).toBe('DENY');
  expect(page.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(page.headers.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
  const nonces = scripts.filter((s) => s.startsWith("'nonce-")).map((s) => s.slice(7, -1));
  expect(nonces.length, label).toBeLessThanOrEqual(1);
  const inline = [...page.html.matchAll(/<script\b([^>]*)>/gi)]
    .map((m) => m[1]!)
    .filter((attributes) => !/\ssrc=/i.test(attributes));
  for (const attributes of inline)
    expect(attributes, `${label}: an inline script without the nonce`).toContain(`nonce="${nonces[0]}"`);
}
