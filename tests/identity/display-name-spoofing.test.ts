// Display names that could pass for a badge or hide what they say (lib/features/identity/schemas.ts
// `displayNameSpoofing`): each refusal through PATCH /v1/identity/{tag} (400, the envelope,
// the row untouched), the emoji sequences that stay accepted, and every Default_Ignorable and
// Bidi_Control code point refused by the schema itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfilePatch } from '@/lib/features/identity/schemas';
import { signIn } from '../support/sign-in';
import { appUrl, closeTestDb, invalidRequest, patchIdentity, readRow, seedIdentity } from './helpers';

afterAll(closeTestDb);

const hidden = (codePoint: string) =>
  `\`displayName\`: must not contain invisible or text-direction characters (${codePoint})`;
const tick = (mark: string, codePoint: string) =>
  `\`displayName\`: must not contain check marks (${mark} ${codePoint}): badges are the service's to show`;
const badge = (word: string) =>
  `\`displayName\`: must not contain the badge word "${word}": badges are the service's to show`;

/** Each refused with 400 and this exact message. */
type Refusals = Record<string, [displayName: string, message: string]>;
/** Characters that show nothing where they stand. */
const INVISIBLE: Refusals = {
  'zero-width space (U+200B)': ['ali\u200Bce', hidden('U+200B')],
  'zero-width non-joiner (U+200C)': ['ali\u200Cce', hidden('U+200C')],
  'zero-width joiner between letters (U+200D)': ['ali\u200Dce', hidden('U+200D')],
  'word joiner (U+2060)': ['alice\u2060', hidden('U+2060')],
  'byte order mark inside (U+FEFF; at either end it is trimmed as space)': ['ali\uFEFFce', hidden('U+FEFF')],
  'soft hyphen (U+00AD)': ['al\u00ADice', hidden('U+00AD')],
  'Hangul filler (U+3164)': ['alice\u3164', hidden('U+3164')],
  'variation selector after a letter (U+FE0F)': ['a\uFE0Flice', hidden('U+FE0F')],
  'tag character outside a flag (U+E0041)': ['alice\u{E0041}', hidden('U+E0041')],
};

/** Marks that change the order in which the text around them is shown. */
const DIRECTION_MARKS: Refusals = {
  'left-to-right mark (U+200E)': ['alice\u200E', hidden('U+200E')],
  'right-to-left mark (U+200F)': ['أليس\u200F', hidden('U+200F')],
  'Arabic letter mark (U+061C)': ['alice\u061C', hidden('U+061C')],
  'the red team’s "@alice ✔ Verified" with a mark': ['@alice\u200F ✔ Verified', hidden('U+200F')],
};

/** Check marks, bare or as emoji: a badge drawn by hand. */
const CHECK_MARKS: Refusals = {
  'heavy check mark ✔': ['alice ✔', tick('✔', 'U+2714')],
  'check mark ✓': ['✓ alice', tick('✓', 'U+2713')],
  'ballot box with check ☑': ['alice ☑', tick('☑', 'U+2611')],
  'white heavy check mark ✅': ['alice ✅', tick('✅', 'U+2705')],
  'check mark emoji with its variation selector ✔️': ['alice ✔\uFE0F', tick('✔', 'U+2714')],
};

/** The words of the badges the service shows, in any case or width. */
const BADGE_WORDS: Refusals = {
  'the badge word Verified': ['Alice Verified', badge('Verified')],
  'the badge word Merchant, any case': ['Bob (MERCHANT)', badge('MERCHANT')],
  'the badge word in full-width letters': ['Alice ＶＥＲＩＦＩＥＤ', badge('VERIFIED')],
};

const mixed = (scripts: string) =>
  `\`displayName\`: must be written in one script (Common and Inherited characters aside, or Latin with Han and Japanese kana, Bopomofo or Hangul): ${scripts}`;
const BLANK_MESSAGE = '`displayName`: must show something: it renders blank';

/** UTS #39 "highly restrictive": a letter of another script passing for a Latin one (issue 42). */
const MIXED_SCRIPTS: Refusals = {
  'a Cyrillic е in "Verified"': ['Alice V\u0435rified', mixed('Latin + Cyrillic')],
  'a Greek Μ in "Merchant"': ['Shop \u039Cerchant', mixed('Latin + Greek')],
  'a Cyrillic а in "PayPal"': ['P\u0430yPal', mixed('Latin + Cyrillic')],
  'Hangul with Cyrillic (not an allowed combination)': ['김 Анна', mixed('Hangul + Cyrillic')],
};

/** Names that render as nothing, and the other invisibles (issue 42). */
const BLANK_OR_INVISIBLE: Refusals = {
  'three braille blanks (U+2800)': ['\u2800\u2800\u2800', BLANK_MESSAGE],
  'a braille blank between spaces': ['\u2800 \u2800', BLANK_MESSAGE],
  'the interlinear annotation anchor alone (U+FFF9)': ['\uFFF9', hidden('U+FFF9')],
  'an interlinear annotation around a word (U+FFF9–FFFB)': ['al\uFFF9ice\uFFFAx\uFFFB', hidden('U+FFF9')],
  'the Hangul filler alone (U+3164)': ['\u3164', hidden('U+3164')],
  'the halfwidth Hangul filler alone (U+FFA0)': ['\uFFA0', hidden('U+FFA0')],
};

const REFUSED: Refusals = {
  ...INVISIBLE,
  ...DIRECTION_MARKS,
  ...CHECK_MARKS,
  ...BADGE_WORDS,
  ...MIXED_SCRIPTS,
  ...BLANK_OR_INVISIBLE,
};

/** Accepted: emoji keep their joiners, selectors and flag tags; words that only contain a badge word. */
const ACCEPTED: Record<string, string> = {
  'a family emoji (joiners between pictographs)': 'family 👩‍👩‍👧',
  'a profession emoji with a skin tone': 'dev 👩🏽‍💻',
  'a heart with its emoji variation selector': 'love ❤️',
  'a keycap': 'number 1️⃣',
  'a subdivision flag (tag characters)': 'from 🏴󠁧󠁢󠁥󠁮󠁧󠁿',
  'Arabic without marks': 'أليس',
  'a word containing a badge word': 'Unverified Ideas',
  'Latin with Inherited marks': 'Zoë Müller',
  'Cyrillic alone': 'Алиса Петрова',
  'Latin with Han': 'Ren 任',
  'Latin with Han and kana': 'Taro 山田 たろう カタ',
  'Latin with Hangul': 'Kim 김철수',
  'Greek alone': 'Ζωή',
};

describe('display names that could pass for others', () => {
  let me: { token: string; pubkey: string };
  beforeAll(async () => {
    const s = await signIn(appUrl);
    me = { token: s.token, pubkey: s.keypair.publicKey };
  });

  for (const [name, [displayName, message]] of Object.entries(REFUSED)) {
    it(`refuses ${name}`, async () => {
      const row = await seedIdentity({ owner: me.pubkey, displayName: 'before' });
      const res = await patchIdentity(row.tag, { displayName }, me.token);
      expect([res.status, res.json]).toEqual([400, invalidRequest(message)]);
      expect(await readRow(row.tag)).toEqual(row);
    });
  }

  for (const [name, displayName] of Object.entries(ACCEPTED)) {
    it(`accepts ${name}`, async () => {
      const row = await seedIdentity({ owner: me.pubkey, displayName: 'before' });
      const res = await patchIdentity(row.tag, { displayName }, me.token);
      expect([res.status, (res.json as { displayName: string }).displayName]).toEqual([200, displayName]);
    });
  }
});

describe('every invisible, format and direction code point is refused', () => {
  const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cf}]/u;
  // The C0/C1 controls and the bidi embeddings, overrides and isolates are refused earlier, as control characters.
  const CONTROL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

  it('between two letters, each one of them (emoji excepted only inside emoji sequences)', () => {
    const accepted: string[] = [];
    let checked = 0;
    for (let cp = 0; cp <= 0xe0fff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (!INVISIBLE.test(ch) || CONTROL.test(ch)) continue;
      checked += 1;
      const parsed = ProfilePatch.safeParse({ displayName: `a${ch}b` });
      if (parsed.success) accepted.push(cp.toString(16));
      else
        expect(parsed.error.issues[0].message, cp.toString(16)).toBe(
          `must not contain invisible or text-direction characters (U+${cp.toString(16).toUpperCase().padStart(4, '0')})`,
        );
    }
    expect(accepted).toEqual([]);
    expect(checked).toBeGreaterThan(4000);
  });
});
