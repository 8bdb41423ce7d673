import 'server-only';
/**
 * Text for the generated Open Graph image. `next/og` fetches a font from Google Fonts (or an
 * emoji image from a CDN) for any character its bundled font lacks; the image must render
 * without the network, so anything outside basic Latin, Latin-1 and Latin Extended-A, and
 * common punctuation is dropped.
 */
const RENDERABLE = /[\u0020-\u007E\u00A0-\u017F\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u2026]/u;

export function ogSafeText(text: string | null | undefined, maxChars: number): string {
  if (!text) return '';
  let out = '';
  let count = 0;
  for (const ch of text.normalize('NFC')) {
    const c = ch === '\n' || ch === '\t' ? ' ' : ch;
    if (!RENDERABLE.test(c)) continue;
    if (count === maxChars) return `${out.trimEnd()}…`;
    out += c;
    count += 1;
  }
  return out.replace(/\s+/g, ' ').trim();
}
