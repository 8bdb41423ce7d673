/*
 * What a log line must never carry: a session token, a bearer secret, a password in a
 * connection string, an API key in an RPC URL. Structured fields that hold one are redacted
 * by name (REDACTED_FIELDS); free text (messages, error messages and stacks, which quote
 * URLs and headers) goes through `scrub`.
 */

/** Field names whose values are replaced wherever they appear, one level deep or at the top. */
export const REDACTED_FIELDS = [
  'authorization',
  'cookie',
  'token',
  'accessToken',
  'secret',
  'password',
  'signature',
  'privateKey',
  'apiKey',
] as const;

export const REDACTED = '[redacted]';

const PATTERNS: [RegExp, string][] = [
  // Authorization: Bearer <anything>
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  // a JWT (our session tokens, next-auth's): three base64url parts, the first a JSON header
  [/\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g, REDACTED],
  // credentials in a URL: postgres://user:password@host, https://key@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+@/gi, `$1${REDACTED}@`],
  // a key or token in a query string: ?api-key=…, &token=…
  [/([?&](?:api[-_]?key|key|token|access[-_]?token|secret|auth|password)=)[^&\s"']+/gi, `$1${REDACTED}`],
  // the values drizzle quotes after a failed statement (a nonce, a message being signed in)
  [/(\nparams: )[^]*$/, `$1${REDACTED}`],
];

/**
 * What every pattern above needs somewhere in the text (its literal part): text with none of
 * these quotes no secret, and is returned after this one test (a request's path, on every
 * request).
 */
const MAY_QUOTE_A_SECRET = /bearer|basic|eyJ|:\/\/|[?&]|\nparams: /i;

/** `text` with every secret it quotes replaced by [redacted]. */
export function scrub(text: string): string {
  if (!MAY_QUOTE_A_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
