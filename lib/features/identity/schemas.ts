import { isPublicKey, PublicKeyString } from '@/lib/core/keys';
import { nostrKeyHex } from '@/lib/core/nostr-key';
import { z } from 'zod';
import { mixedScripts } from './display-name-scripts';

/*
 * Identity schemas (SPEC 2.1, 4.3, 4.4; DESIGN.md "Identity"). The same schemas validate
 * requests, type the code and generate the OpenAPI document. Nothing here is server-only,
 * so the settings form can import `ProfilePatch` and `PROFILE_LIMITS` to check a field
 * before sending it.
 */

// Zod compiles parsers with `new Function` where it can. Pages run under a CSP without
// 'unsafe-eval' (lib/web/server/security-headers.ts), which refuses the attempt and reports a
// violation: in the browser, parse without compiling. The server keeps the compiled parsers.
if (typeof window !== 'undefined') z.config({ jitless: true });

/** Tokens accepted by symbol for `preferredToken`; anything else must be a mint address. */
export const PREFERRED_TOKEN_SYMBOLS = ['SOL', 'USDC', 'USDT', 'PYUSD', 'EURC'] as const;

/**
 * Limits of the editable profile fields (DESIGN.md "Identity"). Lengths are counted in
 * Unicode code points after trimming and NFC normalisation (an emoji counts as one), the
 * same way JSON Schema's `maxLength` counts.
 */
export const PROFILE_LIMITS = {
  displayName: { maxChars: 50 },
  bio: { maxChars: 280, multiline: true },
  avatar: { maxChars: 2048, protocol: 'https:' },
  preferredToken: { symbols: PREFERRED_TOKEN_SYMBOLS },
  nostr: { maxChars: 90 },
} as const;

export const EDITABLE_PROFILE_KEYS = ['displayName', 'avatar', 'bio', 'preferredToken', 'nostr'] as const;
export type EditableProfileKey = (typeof EDITABLE_PROFILE_KEYS)[number];

/** Identity fields that exist but can never be changed through Update profile (SPEC 2.1 rule 1). */
export const NON_EDITABLE_IDENTITY_KEYS: ReadonlySet<string> = new Set([
  'tag',
  'owner',
  'wallet',
  'verified',
  'merchant',
  'createdAt',
  'updatedAt',
  'status',
  'signature',
  'slot',
]);

/**
 * C0 and C1 control characters, DEL, the Unicode line/paragraph separators and the bidi
 * embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069), which can make a name
 * render as something else ("Trojan Source"). Ordinary RTL text and the RLM/LRM marks pass.
 */
const FORBIDDEN_CHARS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

export function countChars(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** Lone surrogates refused; CR LF → LF (multiline only); NFC; trimmed. */
function cleanText(raw: string, multiline: boolean): string | { problem: string } {
  if (!raw.isWellFormed()) return { problem: 'must be valid Unicode text' };
  const unified = multiline ? raw.replace(/\r\n?/g, '\n') : raw;
  const text = unified.normalize('NFC').trim();
  const scanned = multiline ? text.replaceAll('\n', '') : text;
  if (FORBIDDEN_CHARS.test(scanned)) {
    return {
      problem: multiline
        ? 'must not contain control characters other than line breaks'
        : 'must not contain control characters or line breaks',
    };
  }
  return text;
}

type Ctx = z.core.$RefinementCtx<string>;

function refuse(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** A free-text field: cleaned, at most `maxChars`; empty after trimming means "clear" (null). */
function textField(maxChars: number, multiline: boolean, spoofing?: (text: string) => string | null) {
  return z.string().transform((raw, ctx): string | null => {
    const text = cleanText(raw, multiline);
    if (typeof text !== 'string') return refuse(ctx, text.problem);
    if (countChars(text) > maxChars) return refuse(ctx, `must be at most ${maxChars} characters`);
    const problem = spoofing?.(text);
    if (problem) return refuse(ctx, problem);
    return text === '' ? null : text;
  });
}

/*
 * A display name is shown beside the tag and its badges (/@tag's heading, the pay Action's
 * title, the Open Graph card), so it must not be able to pass for them: "Alice\u200F ✔ Verified"
 * would read as a verified badge. Refused, in a display name only:
 * - characters that do not show or that move the text around them: every Default_Ignorable
 *   code point (zero-width space, non-joiner and joiner, word joiner, BOM, soft hyphen, Hangul
 *   fillers, variation selectors, tag characters…) and every Bidi_Control (LRM, RLM, ALM and
 *   the embeddings, overrides and isolates). Emoji keep what makes them emoji: a joiner between
 *   two pictographs (👩‍👩‍👧), a variation selector after an emoji character (❤️), and the tag
 *   characters of a subdivision flag (🏴 + tags + cancel tag);
 * - other format characters (the interlinear annotation marks U+FFF9–FFFB…), and names that
 *   render blank (only spaces, braille blanks U+2800, Hangul fillers);
 * - names that mix scripts beyond what UTS #39's "highly restrictive" level allows
 *   (display-name-scripts.ts): "PаyPal" with a Cyrillic а reads as the Latin word;
 * - check marks and the badge words: the pages draw "Verified" and "Merchant" badges
 *   (lib/web/server/profile-view.ts), and a check mark next to a name is how other services
 *   show theirs.
 */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\uFE0F\p{Emoji_Modifier}]?)\u200D(?=\p{Extended_Pictographic})/gu;
const EMOJI_VARIATION = /(?<=\p{Emoji})[\uFE0E\uFE0F]/gu;
const FLAG_TAGS = /(?<=\u{1F3F4})[\u{E0061}-\u{E007A}\u{E0030}-\u{E0039}]+\u{E007F}/gu;
/** Format characters (Cf: the interlinear annotation marks U+FFF9–FFFB among them) hide or move text too. */
const INVISIBLE_OR_DIRECTIONAL = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cf}]/u;
/** What renders as nothing: spaces, the braille blank, the Hangul fillers, the default-ignorables. */
const BLANK = /^[\p{White_Space}\u2800\u115F\u1160\u3164\uFFA0\p{Default_Ignorable_Code_Point}]+$/u;
/** ✓ ✔ ☑ ✅ 🗸 🗹 🆗 √ and the Aegean check mark: what reads as a tick beside a name. */
const CHECK_MARKS = /[\u2713\u2714\u2611\u2705\u{1F5F8}\u{1F5F9}\u{1F197}\u221A\u{10102}]/u;
const BADGE_WORDS = /(?<![\p{L}\p{N}])(verified|merchant)(?![\p{L}\p{N}])/iu;

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why a display name could pass for a badge or hide what it says, or null. */
export function displayNameSpoofing(text: string): string | null {
  const bare = text.replace(EMOJI_JOINER, '').replace(EMOJI_VARIATION, '').replace(FLAG_TAGS, '');
  const hidden = INVISIBLE_OR_DIRECTIONAL.exec(bare);
  if (hidden) return `must not contain invisible or text-direction characters (${codePoint(hidden[0])})`;
  if (BLANK.test(text)) return 'must show something: it renders blank';
  const mixed = mixedScripts(text);
  if (mixed)
    return `must be written in one script (Common and Inherited characters aside, or Latin with Han and Japanese kana, Bopomofo or Hangul): ${mixed}`;
  const mark = CHECK_MARKS.exec(text);
  if (mark) return `must not contain check marks (${mark[0]} ${codePoint(mark[0])}): badges are the service's to show`;
  const word = BADGE_WORDS.exec(text.normalize('NFKC'));
  if (word) return `must not contain the badge word "${word[1]}": badges are the service's to show`;
  return null;
}

/** An `https:` URL without credentials, stored in its normalised form (`URL.href`). */
export function cleanAvatarUrl(raw: string): string | null | { problem: string } {
  const text = cleanText(raw, false);
  if (typeof text !== 'string') return text;
  if (text === '') return null;
  const { maxChars, protocol } = PROFILE_LIMITS.avatar;
  if (countChars(text) > maxChars) return { problem: `must be at most ${maxChars} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'must be an absolute https: URL' };
  }
  if (url.protocol !== protocol) return { problem: 'must be an https: URL' };
  if (url.username || url.password) return { problem: 'must not contain credentials' };
  if (!url.hostname) return { problem: 'must name a host' };
  if (url.href.length > maxChars) return { problem: `must be at most ${maxChars} characters` };
  return url.href;
}

/** A known symbol (any case, stored upper-case) or a base58 address of 32 bytes. */
export function cleanPreferredToken(raw: string): string | null | { problem: string } {
  const text = cleanText(raw, false);
  if (typeof text !== 'string') return text;
  if (text === '') return null;
  const symbol = text.toUpperCase();
  if ((PREFERRED_TOKEN_SYMBOLS as readonly string[]).includes(symbol)) return symbol;
  if (isPublicKey(text)) return text;
  return { problem: `must be one of ${PREFERRED_TOKEN_SYMBOLS.join(', ')} or a token mint address` };
}

/** A Nostr public key, `npub1…` or 64 hex digits, stored as lower-case hex (NIP-05 answers hex). */
export function cleanNostrKey(raw: string): string | null | { problem: string } {
  const text = cleanText(raw, false);
  if (typeof text !== 'string') return text;
  if (text === '') return null;
  if (countChars(text) > PROFILE_LIMITS.nostr.maxChars)
    return { problem: 'must be a Nostr public key: npub1… or 64 hex digits' };
  return nostrKeyHex(text) ?? { problem: 'must be a Nostr public key: npub1… or 64 hex digits' };
}

function checked(clean: (raw: string) => string | null | { problem: string }) {
  return z.string().transform((raw, ctx): string | null => {
    const value = clean(raw);
    return value !== null && typeof value === 'object' ? refuse(ctx, value.problem) : value;
  });
}

const DisplayNameInput = textField(PROFILE_LIMITS.displayName.maxChars, false, displayNameSpoofing).meta({
  description:
    'Display name: trimmed, NFC, no control characters, at most 50 characters. No invisible, format or text-direction characters (Default_Ignorable, Bidi_Control, Cf; emoji sequences excepted), not blank (spaces, braille blanks, Hangul fillers), one script as UTS #39 "highly restrictive" allows (plus Common and Inherited; Latin + Han + kana, Bopomofo or Hangul), no check marks, not the badge words "Verified" or "Merchant". Empty clears it.',
  maxLength: PROFILE_LIMITS.displayName.maxChars,
  example: 'Alice',
});
const BioInput = textField(PROFILE_LIMITS.bio.maxChars, true).meta({
  description: 'Bio: trimmed, NFC, no control characters except line breaks, at most 280 characters. Empty clears it.',
  maxLength: PROFILE_LIMITS.bio.maxChars,
  example: 'Building on Solana.',
});
const AvatarInput = checked(cleanAvatarUrl).meta({
  description: 'Avatar image: an https: URL without credentials, at most 2048 characters. Empty clears it.',
  maxLength: PROFILE_LIMITS.avatar.maxChars,
  format: 'uri',
  example: 'https://example.com/alice.png',
});
const PreferredTokenInput = checked(cleanPreferredToken).meta({
  description: `Preferred token: one of ${PREFERRED_TOKEN_SYMBOLS.join(', ')} (any case) or a base58 token mint address. Empty clears it.`,
  example: 'USDC',
});

const NostrInput = checked(cleanNostrKey).meta({
  description:
    'Nostr public key: `npub1…` (NIP-19) or 64 hex digits, stored as lower-case hex; /.well-known/nostr.json (NIP-05) then names the tag. Empty clears it.',
  maxLength: PROFILE_LIMITS.nostr.maxChars,
  example: 'npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6',
});

function unrecognizedKeysMessage(keys: readonly PropertyKey[]): string {
  const names = keys.map(String);
  const fixed = names.filter((k) => NON_EDITABLE_IDENTITY_KEYS.has(k));
  if (fixed.length) return `${fixed.map((k) => `\`${k}\``).join(', ')} cannot be changed through this endpoint`;
  return `unknown key ${names.map((k) => `\`${k}\``).join(', ')}; editable keys are ${EDITABLE_PROFILE_KEYS.join(', ')}`;
}

/**
 * Body of Update profile (SPEC 4.4): any of the editable keys; a key omitted leaves the field
 * untouched, `null` clears it. Unknown keys and non-editable keys (`tag`, `owner`, `wallet`,
 * `verified`, `merchant`, …) are refused, naming the key, so nothing is silently ignored.
 */
export const ProfilePatch = z
  .strictObject(
    {
      displayName: DisplayNameInput.nullable().optional(),
      avatar: AvatarInput.nullable().optional(),
      bio: BioInput.nullable().optional(),
      preferredToken: PreferredTokenInput.nullable().optional(),
      nostr: NostrInput.nullable().optional(),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? unrecognizedKeysMessage(iss.keys)
          : iss.code === 'invalid_type'
            ? 'the body must be a JSON object'
            : undefined,
    },
  )
  .meta({
    id: 'ProfilePatch',
    description: 'Any of the editable profile fields. An omitted key is left as it is; `null` clears the field.',
    example: { displayName: 'Alice', bio: null },
  });
export type ProfilePatch = z.output<typeof ProfilePatch>;

const identityShape = {
  tag: z.string().meta({ description: 'The tag with a leading `@`', example: '@alice' }),
  owner: PublicKeyString.meta({ description: 'The public key that registered the tag' }),
  wallet: PublicKeyString.meta({ description: 'Payout wallet' }),
  displayName: z.string().nullable(),
  avatar: z.string().nullable().meta({ description: 'https: URL of the avatar image' }),
  bio: z.string().nullable(),
  preferredToken: z
    .string()
    .nullable()
    .meta({ description: `${PREFERRED_TOKEN_SYMBOLS.join(', ')} or a token mint address` }),
  nostr: z.string().nullable().meta({ description: "The owner's Nostr public key, 64 lower-case hex digits (NIP-05)" }),
  verified: z.boolean().meta({ description: 'Moderation flag' }),
  merchant: z.boolean().meta({ description: 'Moderation flag' }),
  createdAt: z.iso.datetime({ precision: 3 }).meta({
    description: 'When the registration landed on chain: ISO 8601 UTC with milliseconds',
    example: '2025-01-31T12:00:00.000Z',
  }),
};

const IDENTITY_EXAMPLE = {
  tag: '@alice',
  owner: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  wallet: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  displayName: 'Alice',
  avatar: 'https://example.com/alice.png',
  bio: 'Building on Solana.',
  preferredToken: 'USDC',
  nostr: '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d',
  verified: false,
  merchant: false,
  createdAt: '2025-01-31T12:00:00.000Z',
};

/**
 * The public identity (SPEC 2.1): every field present, cleared ones `null`, `tag` shown as
 * `@tag`, `createdAt` ISO 8601 UTC with milliseconds. Only active tags are ever shown.
 */
export const Identity = z.object(identityShape).meta({
  id: 'Identity',
  description: 'A registered tag and its public profile',
  example: IDENTITY_EXAMPLE,
});
export type Identity = z.infer<typeof Identity>;

/** The light lookup a payment flow needs (GET /v1/resolve/{tag}): the identity without `bio`. */
export const ResolvedIdentity = Identity.omit({ bio: true })
  .extend({
    warnings: z
      .array(z.object({ code: z.literal('unsafe_payout'), message: z.string() }))
      .optional()
      .meta({
        description:
          'Present only when the payout wallet cannot safely receive SOL (off the curve, or the zero key: a record written before the payout rules). Do not pay such a tag.',
      }),
  })
  .meta({
    id: 'ResolvedIdentity',
    description: 'A registered tag resolved to its owner and payout wallet (the identity without `bio`)',
    example: (({ bio: _bio, ...rest }) => rest)(IDENTITY_EXAMPLE),
  });
export type ResolvedIdentity = z.infer<typeof ResolvedIdentity>;

/** The path parameter of the identity routes: `alice`, `@alice` or `%40alice`, any case. */
export const TagPathParam = z.string().meta({
  description: 'The tag, with or without a leading `@` (or `%40`), any case',
  example: 'alice',
  param: { id: 'tag' },
});
