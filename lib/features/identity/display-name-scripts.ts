/*
 * UTS #39's "highly restrictive" rule for a display name (section 5.2, restriction levels):
 * every character's scripts (Script_Extensions, so that a mark or a punctuation shared by a
 * few scripts counts for each of them) must leave one script in common, Common and Inherited
 * counting as every script; or the name is covered by one of the three combinations the rule
 * allows for East Asian writing: Latin + Han + Hiragana + Katakana, Latin + Han + Bopomofo,
 * Latin + Han + Hangul. "Alice Vеrified" with a Cyrillic е mixes Latin and Cyrillic and is
 * refused; "Алиса Петрова" (Cyrillic), "Zoë Müller" (Latin and an Inherited mark) and
 * "Ren 任" (Latin + Han) pass.
 *
 * JavaScript can test a character against a named script (`\p{scx=…}`) but cannot name the
 * script of a character, so the names are listed here. A name the running engine does not
 * know is left out; a character of no known script is refused as unassigned.
 */

/** Every script but Common, Inherited and Unknown, by its Unicode long name. */
const SCRIPT_NAMES =
  'Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali ' +
  'Beria_Erfe Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian ' +
  'Caucasian_Albanian Chakma Cham Cherokee Chorasmian Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic ' +
  'Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Garay ' +
  'Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Gurung_Khema Han Hangul ' +
  'Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inscriptional_Pahlavi ' +
  'Inscriptional_Parthian Javanese Jurchen Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi ' +
  'Khitan_Small_Script Khmer Khojki Khudawadi Kirat_Rai Lao Latin Lepcha Limbu Linear_A Linear_B Lisu ' +
  'Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin ' +
  'Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani ' +
  'Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham ' +
  'Ol_Chiki Ol_Onal Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian ' +
  'Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau ' +
  'Phags_Pa Phoenician Proto_Cuneiform Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Seal Sharada ' +
  'Shavian Siddham Sidetic SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Sunuwar ' +
  'Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Tai_Yo Takri Tamil Tangsa Tangut ' +
  'Telugu Thaana Thai Tibetan Tifinagh Tirhuta Todhri Tolong_Siki Toto Tulu_Tigalari Ugaritic Vai ' +
  'Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square';

const SCRIPTS: ReadonlyArray<{ name: string; test: RegExp }> = SCRIPT_NAMES.split(' ').flatMap((name) => {
  try {
    return [{ name, test: new RegExp(`^\\p{scx=${name}}$`, 'u') }];
  } catch {
    return []; // a script newer than this engine's Unicode data
  }
});

/** Characters that belong to every script: Script_Extensions exactly Common or Inherited. */
const ANY_SCRIPT = /^[\p{scx=Common}\p{scx=Inherited}]$/u;

/** The combinations UTS #39 allows in a highly restrictive string beyond a single script. */
const ALLOWED_COMBINATIONS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The scripts a character is written in, null for Common and Inherited ones (any script). */
function scriptsOf(ch: string): Set<string> | null {
  if (ANY_SCRIPT.test(ch)) return null;
  return new Set(SCRIPTS.filter((s) => s.test.test(ch)).map((s) => s.name));
}

/**
 * Why `text` is not highly restrictive in UTS #39's sense, or null when it is: the first
 * character of no known script, or the scripts that are mixed.
 */
export function mixedScripts(text: string): string | null {
  const perChar: Array<{ ch: string; scripts: Set<string> }> = [];
  for (const ch of text) {
    const scripts = scriptsOf(ch);
    if (!scripts) continue;
    if (scripts.size === 0)
      return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} is of no known script`;
    perChar.push({ ch, scripts });
  }
  const shared = perChar.reduce<Set<string> | null>(
    (common, { scripts }) => (common ? new Set([...common].filter((s) => scripts.has(s))) : new Set(scripts)),
    null,
  );
  if (!shared || shared.size > 0) return null;
  const covered = ALLOWED_COMBINATIONS.some((allowed) =>
    perChar.every(({ scripts }) => [...scripts].some((s) => allowed.has(s))),
  );
  if (covered) return null;
  const seen = [...new Set(perChar.map(({ scripts }) => [...scripts].sort().join('/')))];
  return seen.join(' + ');
}
