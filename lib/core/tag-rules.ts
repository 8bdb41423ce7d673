// No zod here: the pages use these rules in the browser; the request schemas are lib/core/tag.ts.
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
  'admin',
  'administrator',
  'api',
  'app',
  'auth',
  'about',
  'help',
  'support',
  'security',
  'settings',
  'register',
  'signin',
  'signout',
  'login',
  'logout',
  'profile',
  'account',
  'official',
  'staff',
  'team',
  'mod',
  'moderator',
  'root',
  'system',
  'solana',
  'wallet',
  'www',
  'mail',
  'static',
  'public',
  'assets',
  'terms',
  'privacy',
  'status',
  'null',
  'undefined',
  'me',
  'you',
  'v1',
  'cron',
  'docs',
  'openapi',
]);

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

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
  // Tags are ASCII: refuse anything else BEFORE case folding, or the Kelvin sign (U+212A)
  // would lower-case into `k` and resolve an ASCII tag.
  if (!PRINTABLE_ASCII.test(input)) return null;
  const tag = input.trim().toLowerCase();
  return isCanonicalTag(tag) ? tag : null;
}

/**
 * Path form (/v1/identity/{tag}, /@tag): as `normalizeTag`, and one leading `@` (already
 * percent-decoded by the router, or still `%40`) is accepted.
 */
export function normalizePathTag(input: string): string | null {
  if (!PRINTABLE_ASCII.test(input)) return null;
  let raw = input.trim();
  if (raw.slice(0, 3).toLowerCase() === '%40') raw = raw.slice(3);
  else if (raw.startsWith('@')) raw = raw.slice(1);
  return normalizeTag(raw);
}

/** `@alice`, as tags are shown in responses (SPEC 2.1). */
export function displayTag(tag: string): string {
  return `@${tag}`;
}

/**
 * The tag rule (SPEC 2.1) in words, the one place it is written: TAG_RULE in a field's
 * message (`must be a tag: …`), TAG_RULE_IN_WORDS in sentences for people (the `invalid_tag`
 * message, the pages' hints).
 */
export const TAG_RULE = '3–32 of a-z, 0-9 and _, not starting or ending with _';
export const TAG_RULE_IN_WORDS =
  '3 to 32 characters: lower-case letters, digits and underscores, not starting or ending with an underscore';

/** The message of every `invalid_tag` answer. */
export const INVALID_TAG_MESSAGE = `The tag must be ${TAG_RULE_IN_WORDS}.`;
