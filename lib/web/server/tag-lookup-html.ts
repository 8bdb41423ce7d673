import 'server-only';
import { TAG_MAX_BYTES } from '@/lib/core/tag';
import { html, type Html } from './html';

/*
 * The tag lookup form and the one "not found" page (SPEC 3.1: a missing tag, a blocked one
 * and any other missing page look alike), as HTML: the /@tag handler sends them as they are,
 * and the App Router's not-found page and lookup form insert the same markup.
 */

/** The fields of the lookup form (a plain GET to /profile, which redirects to /@tag; no script). */
export function tagLookupFieldsHtml({
  defaultValue = '',
  error,
}: { defaultValue?: string; error?: string } = {}): Html {
  const invalid = error ? html` aria-invalid="true" aria-describedby="lookup-error"` : '';
  return html`<div class="field">
      <label for="lookup-tag">Look up a tag</label>
      <div class="input-prefix">
        <span aria-hidden="true">@</span
        ><input
          id="lookup-tag"
          name="tag"
          type="text"
          required
          maxlength="${TAG_MAX_BYTES + 1}"
          autocapitalize="none"
          autocorrect="off"
          spellcheck="false"
          placeholder="alice"
          value="${defaultValue}"
          ${invalid}
        />
      </div>
      ${error ? html`<p id="lookup-error" class="field-error">${error}</p>` : ''}
    </div>
    <button class="button" type="submit">Look up</button>`;
}

export const TAG_LOOKUP_FORM_ATTRIBUTES = {
  className: 'inline-form',
  action: '/profile',
  method: 'get',
  role: 'search',
  'aria-label': 'Tag lookup',
} as const;

export function tagLookupFormHtml(): Html {
  const a = TAG_LOOKUP_FORM_ATTRIBUTES;
  return html`<form
    class="${a.className}"
    action="${a.action}"
    method="${a.method}"
    role="${a.role}"
    aria-label="${a['aria-label']}"
  >
    ${tagLookupFieldsHtml()}
  </form>`;
}

/** What the not-found page shows inside its `<main>`. */
export function notFoundContentHtml(): Html {
  return html`<h1>Nothing here</h1>
    <p class="lead">There is no page at this address. If you were looking for a tag, nobody has it.</p>
    <div class="card">${tagLookupFormHtml()}</div>
    <p><a href="/register">Register a tag</a> · <a href="/">Home</a></p>`;
}
