/**
 * Tag rules (DESIGN.md "Tags"). The on-chain program applies the same canonical rule to the
 * raw bytes; `tag-vectors.json` checks both sides so they cannot drift.
 */
export const TAG_MIN_BYTES = 3;
/** One PDA seed holds at most 32 bytes. */
export const TAG_MAX_BYTES = 32;
export const CANONICAL_TAG = /^[a-z0-9][a-z0-9_]{1,30}[a-z0-9]$/;

/** Refused by the service at registration; mirrored as `blocked` if one lands on chain anyway. */
export const RESERVED_TAGS: ReadonlySet<string> = new Set([
  'admin', 'administrator', 'api', 'app', 'auth', 'about', 'help', 'support', 'security',
  'settings', 'register', 'signin', 'signout', 'login', 'logout', 'profile', 'account',
  'official', 'staff', 'team', 'mod', 'moderator', 'root', 'system', 'solana', 'wallet',
  'www', 'mail', 'static', 'public', 'assets', 'terms', 'privacy', 'status', 'null',
  'undefined', 'me', 'you', 'v1', 'cron', 'docs', 'openapi',
]);

export function isCanonicalTag(tag: string): boolean {
  return CANONICAL_TAG.test(tag);
}

export function isReservedTag(tag: string): boolean {
  return RESERVED_TAGS.has(tag);
}

/**
 * Body form (POST /v1/register): trimmed and lower-cased, no leading `@`.
 * Returns the canonical tag or `null` when malformed.
 */
export function normalizeTag(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 64) return null;
  const tag = input.trim().toLowerCase();
  return isCanonicalTag(tag) ? tag : null;
}

/**
 * Path form (/v1/identity/{tag}, /@tag): as `normalizeTag`, and one leading `@` (already
 * percent-decoded by the router, or still `%40`) is accepted.
 */
export function normalizePathTag(input: string): string | null {
  let raw = input.trim();
  if (raw.slice(0, 3).toLowerCase() === '%40') raw = raw.slice(3);
  else if (raw.startsWith('@')) raw = raw.slice(1);
  return normalizeTag(raw);
}

/** `@alice`, as tags are shown in responses (SPEC 2.1). */
export function displayTag(tag: string): string {
  return `@${tag}`;
}
