import 'server-only';
/*
 * HTML built from template literals, escaped by default: what a route handler answers
 * without React (react-dom/server is not available to route handlers, which run under the
 * `react-server` condition). Every interpolated value is escaped unless it is already Html;
 * an array interpolates each of its items so.
 */

/** Markup that is safe to insert as it is (built by `html`, or vouched for with `trustedHtml`). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Value = Html | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: the literal parts as written, every value escaped unless Html. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup made by code we control (a QR code's SVG), inserted as it is. */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}
